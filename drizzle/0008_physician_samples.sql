CREATE TABLE "sample_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"physician_id" uuid NOT NULL,
	"tissue" text NOT NULL,
	"ship_date" date NOT NULL,
	"payment_kind" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"payment_id" uuid,
	"billing_name" text,
	"billing_email" text,
	"operation_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "welcome_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_methods" ALTER COLUMN "client_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "enrollment_date" date;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD COLUMN "physician_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "physician_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "paid_by_physician_id" uuid;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD CONSTRAINT "sample_submissions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD CONSTRAINT "sample_submissions_physician_id_physicians_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."physicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welcome_links" ADD CONSTRAINT "welcome_links_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sample_submissions_physician_id_created_at_index" ON "sample_submissions" USING btree ("physician_id","created_at");--> statement-breakpoint
CREATE INDEX "sample_submissions_client_id_index" ON "sample_submissions" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "sample_submissions_status_index" ON "sample_submissions" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "welcome_links_token_hash_key" ON "welcome_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "welcome_links_client_id_index" ON "welcome_links" USING btree ("client_id");--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_physician_id_physicians_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."physicians"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_physician_id_physicians_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."physicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_paid_by_physician_id_physicians_id_fk" FOREIGN KEY ("paid_by_physician_id") REFERENCES "public"."physicians"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_methods_physician_id_index" ON "payment_methods" USING btree ("physician_id");--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_one_owner" CHECK (num_nonnulls("payment_methods"."client_id", "payment_methods"."physician_id") = 1);