ALTER TABLE "storage_plan_orders" ADD COLUMN "check_number" text;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "check_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "check_date" date;--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD COLUMN "check_recorded_by" uuid;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "shipped_by" uuid;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "delivered_by" uuid;