-- Requests placed before this migration took one Longevity vial per requested vial: each covered as many.
ALTER TABLE "vial_requests" ADD COLUMN "longevity_covered_vials" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "vial_requests" SET "longevity_covered_vials" = "longevity_vials_used";--> statement-breakpoint
ALTER TABLE "vial_requests" ALTER COLUMN "longevity_covered_vials" DROP DEFAULT;
