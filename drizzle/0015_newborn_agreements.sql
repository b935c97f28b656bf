CREATE TABLE "newborn_agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"main_contact" text NOT NULL,
	"main_contact_email" text NOT NULL,
	"patient_id" text NOT NULL,
	"annual_banking_fee_cents" integer NOT NULL,
	"bio_insurance_fee_cents" integer NOT NULL,
	"down_payment_cents" integer NOT NULL,
	"initial_processing_fee_cents" integer NOT NULL,
	"interest_rate_basis_points" integer NOT NULL,
	"installments" integer NOT NULL,
	"total_financed_cents" integer NOT NULL,
	"signed_at" timestamp with time zone,
	"signer_ip" text,
	"user_agent" text,
	"document_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newborn_agreements_installments_check" CHECK ("newborn_agreements"."installments" >= 1),
	CONSTRAINT "newborn_agreements_amounts_check" CHECK ("newborn_agreements"."total_financed_cents" >= 0 and "newborn_agreements"."interest_rate_basis_points" >= 0 and "newborn_agreements"."down_payment_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "newborn_agreements" ADD CONSTRAINT "newborn_agreements_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newborn_agreements" ADD CONSTRAINT "newborn_agreements_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newborn_agreements_client_id_index" ON "newborn_agreements" USING btree ("client_id");