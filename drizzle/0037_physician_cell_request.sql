ALTER TABLE "vial_requests" ADD COLUMN "physician_id" uuid;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "ordered_by" text;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "paid_by_physician" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "objection_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "objected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vial_requests" ADD COLUMN "objection_note" text;