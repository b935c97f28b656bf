ALTER TABLE "client_activities" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "client_activities_refund_key" ON "client_activities" USING btree ("refund_id");