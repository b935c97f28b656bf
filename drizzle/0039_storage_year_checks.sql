ALTER TABLE "annual_storage_fees" ADD COLUMN "check_number" text;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "check_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "check_date" date;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "check_recorded_by" uuid;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "check_recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "receipt_document_id" uuid;