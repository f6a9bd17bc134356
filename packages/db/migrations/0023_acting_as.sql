ALTER TABLE "sessions" ADD COLUMN "acting_from_session_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_acting_from_session_id_sessions_id_fk" FOREIGN KEY ("acting_from_session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A "Sign In ->" session opened before this migration has no way back to its admin's session: it ends now.
UPDATE "sessions" SET "revoked_at" = now() WHERE "impersonator_id" IS NOT NULL AND "revoked_at" IS NULL;
