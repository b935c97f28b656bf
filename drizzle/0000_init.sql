CREATE TABLE "annual_storage_fees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"due_date" date NOT NULL,
	"amount_cents" integer NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"type" text NOT NULL,
	"dose_amount" integer,
	"close_date" date,
	"purchased_plan_name" text,
	"stage_name" text,
	"cell_request_approved_by_practitioner" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_act_id" text NOT NULL,
	"password_hash" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"street" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"clinic_name" text DEFAULT '' NOT NULL,
	"preferred_address_contact_full_name" text DEFAULT '' NOT NULL,
	"shipping_clinic_email" text DEFAULT '' NOT NULL,
	"preferred_address_phone" text DEFAULT '' NOT NULL,
	"preferred_address_street" text DEFAULT '' NOT NULL,
	"preferred_address_city" text DEFAULT '' NOT NULL,
	"preferred_address_state" text DEFAULT '' NOT NULL,
	"preferred_address_zip" text DEFAULT '' NOT NULL,
	"preferred_address_country" text DEFAULT '' NOT NULL,
	"annual_storage_paid_until" date,
	"longevity_vials_available" integer DEFAULT 0 NOT NULL,
	"bio_insurance_vials_available" integer DEFAULT 0 NOT NULL,
	"initial_processing_form_completed" boolean DEFAULT false NOT NULL,
	"client_consent_form_completed" boolean DEFAULT false NOT NULL,
	"infectious_disease_form_completed" boolean DEFAULT false NOT NULL,
	"arb_subscribed" boolean DEFAULT false NOT NULL,
	"physician_form_agreement" boolean DEFAULT false NOT NULL,
	"date_banked_in" date,
	"last_bio_insurance_purchased_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"login_key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"brand" text,
	"last4" text NOT NULL,
	"expiry_month" integer,
	"expiry_year" integer,
	"holder_first_name" text,
	"holder_last_name" text,
	"name_on_account" text,
	"gateway_customer_ref" text,
	"gateway_payment_ref" text,
	"is_default" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "physician_clients" (
	"physician_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "physician_clients_physician_id_client_id_pk" PRIMARY KEY("physician_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "physicians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"physician_act_id" text NOT NULL,
	"password_hash" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"client_id" uuid,
	"physician_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annual_storage_fees" ADD CONSTRAINT "annual_storage_fees_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_activities" ADD CONSTRAINT "client_activities_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_codes" ADD CONSTRAINT "password_reset_codes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physician_clients" ADD CONSTRAINT "physician_clients_physician_id_physicians_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."physicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physician_clients" ADD CONSTRAINT "physician_clients_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_physician_id_physicians_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."physicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annual_storage_fees_client_id_index" ON "annual_storage_fees" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "client_activities_client_id_close_date_index" ON "client_activities" USING btree ("client_id","close_date");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_client_act_id_key" ON "clients" USING btree (upper("client_act_id"));--> statement-breakpoint
CREATE INDEX "clients_email_idx" ON "clients" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "password_reset_codes_client_id_created_at_index" ON "password_reset_codes" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_methods_client_id_index" ON "payment_methods" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "physician_clients_client_id_index" ON "physician_clients" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "physicians_physician_act_id_key" ON "physicians" USING btree (upper("physician_act_id"));--> statement-breakpoint
CREATE INDEX "sessions_client_id_index" ON "sessions" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "sessions_physician_id_index" ON "sessions" USING btree ("physician_id");