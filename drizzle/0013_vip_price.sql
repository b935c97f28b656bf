ALTER TABLE "vial_requests" ADD COLUMN "vip_price_cents" integer;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "vip_price_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "vip_payment_id" uuid;