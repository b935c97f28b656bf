ALTER TABLE "price_book_versions" ADD COLUMN "approval_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "price_book_versions" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "price_book_versions" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "price_book_versions" ADD CONSTRAINT "price_book_versions_approved_by_staff_accounts_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."staff_accounts"("id") ON DELETE no action ON UPDATE no action;