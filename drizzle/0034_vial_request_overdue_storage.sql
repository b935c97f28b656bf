ALTER TABLE "vial_requests" ADD COLUMN "overdue_storage_years" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "overdue_storage_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "overdue_storage_fee_cents" integer DEFAULT 0 NOT NULL;