ALTER TABLE "password_reset_codes" ALTER COLUMN "client_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "password_reset_codes" ADD COLUMN "physician_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "acting_for_client_id" uuid;--> statement-breakpoint
ALTER TABLE "password_reset_codes" ADD CONSTRAINT "password_reset_codes_physician_id_physicians_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."physicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_acting_for_client_id_clients_id_fk" FOREIGN KEY ("acting_for_client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_reset_codes_physician_id_created_at_index" ON "password_reset_codes" USING btree ("physician_id","created_at");--> statement-breakpoint
ALTER TABLE "password_reset_codes" ADD CONSTRAINT "password_reset_codes_one_owner" CHECK (num_nonnulls("password_reset_codes"."client_id", "password_reset_codes"."physician_id") = 1);