CREATE TABLE "storage_plan_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"operation_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"annual_storage_plan" text NOT NULL,
	"storage_years" integer NOT NULL,
	"storage_cents" integer NOT NULL,
	"plan" text NOT NULL,
	"banking_plan_name" text,
	"bio_insurance_vials" integer NOT NULL,
	"longevity_vials" integer NOT NULL,
	"banking_cents" integer NOT NULL,
	"processing_fee_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"tissue" text NOT NULL,
	"payment_method" text NOT NULL,
	"payment_description" text DEFAULT '' NOT NULL,
	"payment_id" uuid,
	"transaction_id" text,
	"client_activity_id" uuid,
	"paid_until_before" date,
	"paid_until_after" date,
	"applied_at" timestamp with time zone,
	"check_received_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"physician_id" uuid,
	"operation_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"item" text NOT NULL,
	"quantity" integer NOT NULL,
	"per_bottle_cents" integer NOT NULL,
	"items_cents" integer NOT NULL,
	"shipping_cents" integer NOT NULL,
	"processing_fee_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"shipping_method" text NOT NULL,
	"shipment_date" date NOT NULL,
	"contact_first_name" text NOT NULL,
	"contact_last_name" text NOT NULL,
	"shipping_email" text NOT NULL,
	"phone" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"country" text NOT NULL,
	"save_address" boolean DEFAULT false NOT NULL,
	"payment_method" text NOT NULL,
	"payment_description" text DEFAULT '' NOT NULL,
	"payment_id" uuid,
	"transaction_id" text,
	"client_activity_id" uuid,
	"ordered_at" timestamp with time zone,
	"shipped_at" timestamp with time zone,
	"tracking_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "storage_plan_orders" ADD CONSTRAINT "storage_plan_orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "storage_plan_orders_client_id_created_at_index" ON "storage_plan_orders" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "storage_plan_orders_status_index" ON "storage_plan_orders" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_plan_orders_operation_key" ON "storage_plan_orders" USING btree ("operation_id");--> statement-breakpoint
CREATE INDEX "store_orders_client_id_created_at_index" ON "store_orders" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "store_orders_status_index" ON "store_orders" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "store_orders_operation_key" ON "store_orders" USING btree ("operation_id");