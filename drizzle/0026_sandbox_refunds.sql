CREATE TABLE "sandbox_refunds" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"charge_transaction_id" text NOT NULL,
	"reference" text NOT NULL,
	"customer_ref" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_refunds" ADD CONSTRAINT "sandbox_refunds_charge_transaction_id_sandbox_transactions_transaction_id_fk" FOREIGN KEY ("charge_transaction_id") REFERENCES "public"."sandbox_transactions"("transaction_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_refunds_customer_ref_reference_index" ON "sandbox_refunds" USING btree ("customer_ref","reference");--> statement-breakpoint
CREATE INDEX "sandbox_refunds_charge_transaction_id_index" ON "sandbox_refunds" USING btree ("charge_transaction_id");