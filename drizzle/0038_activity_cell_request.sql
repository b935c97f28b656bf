ALTER TABLE "client_activities" ADD COLUMN "cell_request_id" uuid;--> statement-breakpoint
UPDATE "client_activities" AS a SET "cell_request_id" = v."id" FROM "vial_requests" AS v WHERE v."client_activity_id" = a."id";
