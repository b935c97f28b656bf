CREATE TABLE "form_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"form" text NOT NULL,
	"status" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"submission_option" text,
	"agreement_version" text,
	"agreement_sha256" text,
	"answers_document_id" uuid,
	"signature_document_id" uuid,
	"pdf_document_id" uuid,
	"lab_report_document_id" uuid,
	"payment_id" uuid,
	"signer_ip" text,
	"user_agent" text,
	"response_json" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_submissions_client_form_key" ON "form_submissions" USING btree ("client_id","form");