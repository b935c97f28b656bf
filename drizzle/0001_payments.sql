CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"source" text NOT NULL,
	"purpose" text NOT NULL,
	"method_kind" text NOT NULL,
	"payment_method_id" uuid,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"status" text NOT NULL,
	"gateway_transaction_id" text,
	"message" text,
	"response_json" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_payment_methods" (
	"payment_ref" text PRIMARY KEY NOT NULL,
	"customer_ref" text NOT NULL,
	"kind" text NOT NULL,
	"brand" text,
	"last4" text NOT NULL,
	"expiry_month" integer,
	"expiry_year" integer,
	"behavior" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"brand" text,
	"last4" text NOT NULL,
	"expiry_month" integer,
	"expiry_year" integer,
	"behavior" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD COLUMN "payment_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "billing_email" text;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "billing_zip" text;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "gateway" text DEFAULT 'sandbox' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_key" ON "payments" USING btree ("client_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "payments_client_id_index" ON "payments" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "sandbox_payment_methods_customer_ref_index" ON "sandbox_payment_methods" USING btree ("customer_ref");