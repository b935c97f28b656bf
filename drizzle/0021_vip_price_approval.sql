ALTER TABLE "vial_requests" ADD COLUMN "vip_price_entered_by" uuid;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "vip_price_entered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "vip_price_approved_by" uuid;