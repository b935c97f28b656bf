ALTER TABLE "storage_plan_orders" ADD COLUMN "taken_back_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "taken_back_by" uuid;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "take_back_reason" text;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "take_back_key" text;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "years_taken_back" integer;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "bio_insurance_vials_taken_back" integer;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "longevity_vials_taken_back" integer;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "take_back_refund_cents" integer;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "take_back_refund_by_check" boolean;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "paid_until_after_take_back" date;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "cancel_refunds_settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "cancel_refunds_next_try_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "storage_plan_orders_refunds_owed" ON "storage_plan_orders" USING btree ("taken_back_at") WHERE "storage_plan_orders"."taken_back_at" is not null and "storage_plan_orders"."cancel_refunds_settled_at" is null;