CREATE TABLE "newborn_installments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agreement_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"due_date" date NOT NULL,
	"payment_cents" integer NOT NULL,
	"interest_cents" integer NOT NULL,
	"principal_cents" integer NOT NULL,
	"balance_cents" integer NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_try_on" date,
	"last_decline" text,
	"late_charge_cents" integer DEFAULT 0 NOT NULL,
	"claim_operation_id" uuid,
	"paid_at" timestamp with time zone,
	"paid_on" date,
	"payment_id" uuid,
	"paid_total_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newborn_installments_amounts_check" CHECK ("newborn_installments"."payment_cents" >= 0 and "newborn_installments"."late_charge_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "newborn_agreements" ADD COLUMN "signing_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "newborn_agreements" ADD COLUMN "payment_kind" text;--> statement-breakpoint
ALTER TABLE "newborn_agreements" ADD COLUMN "deposit_payment_id" uuid;--> statement-breakpoint
ALTER TABLE "newborn_agreements" ADD COLUMN "deposit_total_cents" integer;--> statement-breakpoint
ALTER TABLE "newborn_installments" ADD CONSTRAINT "newborn_installments_agreement_id_newborn_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."newborn_agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newborn_installments" ADD CONSTRAINT "newborn_installments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newborn_installments_number_key" ON "newborn_installments" USING btree ("agreement_id","number");--> statement-breakpoint
CREATE INDEX "newborn_installments_client_id_index" ON "newborn_installments" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "newborn_installments_open_idx" ON "newborn_installments" USING btree ("status","due_date") WHERE "newborn_installments"."status" <> 'paid';