ALTER TABLE "store_orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "label_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "label_document_id" uuid;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "declared_contents" text;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "last_tracked_at" timestamp with time zone;