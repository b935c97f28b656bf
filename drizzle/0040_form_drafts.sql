CREATE TABLE "form_drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"draft_key" text NOT NULL,
	"form" text NOT NULL,
	"client_id" uuid NOT NULL,
	"physician_id" uuid,
	"sealed" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "form_drafts_draftKey_unique" UNIQUE("draft_key")
);
--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_physician_id_physicians_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."physicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_drafts_client_id_form_index" ON "form_drafts" USING btree ("client_id","form");--> statement-breakpoint
CREATE INDEX "form_drafts_updated_at_index" ON "form_drafts" USING btree ("updated_at");