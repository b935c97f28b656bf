DROP INDEX "form_submissions_client_form_key";--> statement-breakpoint
ALTER TABLE "form_submissions" ADD COLUMN "lab_report_review" text;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD COLUMN "lab_report_reviewed_by" uuid;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD COLUMN "lab_report_reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD COLUMN "lab_report_rejection_reason" text;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "check_number" text;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "check_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "check_date" date;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "check_recorded_by" uuid;--> statement-breakpoint
ALTER TABLE "sample_submissions" ADD COLUMN "check_recorded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "form_submissions_form_status_completed_at_index" ON "form_submissions" USING btree ("form","status","completed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "form_submissions_client_form_key" ON "form_submissions" USING btree ("client_id","form") WHERE "form_submissions"."status" <> 'rejected';