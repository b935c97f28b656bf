CREATE TABLE "billing_runs" (
	"scope" text PRIMARY KEY NOT NULL,
	"last_day" date NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "ach_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "year_number" integer;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "covers_until" date;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "status" text DEFAULT 'noticed' NOT NULL;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "notice_on" date;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "charge_on" date;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "method_kind" text;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "claim_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "tries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "next_try_on" date;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "last_decline" text;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "paid_on" date;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "recovered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "note" text;--> statement-breakpoint
CREATE UNIQUE INDEX "annual_storage_fees_year_key" ON "annual_storage_fees" USING btree ("client_id","year_number");--> statement-breakpoint
CREATE INDEX "annual_storage_fees_open_idx" ON "annual_storage_fees" USING btree ("status","charge_on") WHERE "annual_storage_fees"."status" in ('noticed', 'retrying');--> statement-breakpoint
UPDATE "annual_storage_fees" SET "status" = CASE WHEN "paid_at" IS NOT NULL THEN 'paid' WHEN "due_date" < current_date THEN 'overdue' ELSE 'noticed' END, "charge_on" = "due_date";
