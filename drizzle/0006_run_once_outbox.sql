CREATE TABLE "operations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text NOT NULL,
	"lease_token" text NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"state_json" text,
	"response_json" text,
	"error_json" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_transactions" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"customer_ref" text NOT NULL,
	"payment_ref" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_activities" ADD COLUMN "payment_id" uuid;--> statement-breakpoint
ALTER TABLE "client_activities" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "operation_id" uuid;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD COLUMN "operation_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "attachments_json" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "operation_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charge_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "gateway_customer_ref" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method_brand" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method_last4" text;--> statement-breakpoint
CREATE UNIQUE INDEX "operations_scope_key" ON "operations" USING btree ("scope","idempotency_key");--> statement-breakpoint
CREATE INDEX "operations_status_lease_until_index" ON "operations" USING btree ("status","lease_until");--> statement-breakpoint
CREATE INDEX "sandbox_transactions_customer_ref_reference_index" ON "sandbox_transactions" USING btree ("customer_ref","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "client_activities_payment_key" ON "client_activities" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "documents_operation_id_index" ON "documents" USING btree ("operation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_messages_dedupe_key" ON "outbox_messages" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "outbox_messages_status_next_attempt_at_index" ON "outbox_messages" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reference_key" ON "payments" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "payments_operation_id_index" ON "payments" USING btree ("operation_id");--> statement-breakpoint
-- Mail kept before the outbox delivered anything was never meant for SMTP: it counts as delivered.
UPDATE "outbox_messages" SET "status" = 'sent', "sent_at" = "created_at";
