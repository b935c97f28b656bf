CREATE TABLE "price_book_versions" (
	"version" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_book_versions_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"effective_on" date NOT NULL,
	"amounts" jsonb NOT NULL,
	"note" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"withdrawn_by" uuid
);
--> statement-breakpoint
ALTER TABLE "price_book_versions" ADD CONSTRAINT "price_book_versions_created_by_staff_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_book_versions" ADD CONSTRAINT "price_book_versions_withdrawn_by_staff_accounts_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."staff_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_book_versions_effective_on_index" ON "price_book_versions" USING btree ("effective_on");