ALTER TABLE "sample_submissions" ADD COLUMN "received_on" date;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "vials_banked" integer;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "received_by" uuid;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "received_recorded_at" timestamp with time zone;