ALTER TABLE "vial_requests" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancelled_by" uuid;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_phase" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_refund_cents" integer;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_kept_cents" integer;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_returned_vials" integer;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_forfeited_vials" integer;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_refunds_json" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_refunds_settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "cancel_refunds_next_try_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "source" text;--> statement-breakpoint
CREATE INDEX "vial_requests_refunds_owed" ON "vial_requests" USING btree ("cancelled_at") WHERE "vial_requests"."cancelled_at" is not null and "vial_requests"."cancel_refunds_settled_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_live_per_source" ON "refunds" USING btree ("payment_id","source") WHERE "refunds"."source" is not null and "refunds"."status" <> 'failed';