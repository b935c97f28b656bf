CREATE TABLE "shipment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vial_request_id" uuid NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"place" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "label_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "label_document_id" uuid;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "declared_contents" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "dry_shipper_id" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "courier" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "last_tracked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "delivery_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "delivery_arrived_frozen" boolean;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "delivery_confirmation_note" text;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_vial_request_id_vial_requests_id_fk" FOREIGN KEY ("vial_request_id") REFERENCES "public"."vial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_events_one_per_status" ON "shipment_events" USING btree ("vial_request_id","status");