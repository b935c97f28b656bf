ALTER TABLE "store_orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "cancelled_by" uuid;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "cancel_refund_cents" integer;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "cancel_refunds_settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "cancel_refunds_next_try_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "store_orders_refunds_owed" ON "store_orders" USING btree ("cancelled_at") WHERE "store_orders"."cancelled_at" is not null and "store_orders"."cancel_refunds_settled_at" is null;