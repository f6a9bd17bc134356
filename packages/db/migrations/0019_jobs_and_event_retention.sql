-- Timed jobs claimed once across instances (apps/api/src/infra/job-claims.ts), and the event tables' created_at
-- indexes by which the retention job deletes rows older than RAW_EVENT_DAYS in chunks (features/event-retention/).
-- On a large PostgreSQL database the indexes take a while to build, and writes to those tables wait meanwhile.
CREATE TABLE "scheduled_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"next_due_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"runs" bigint DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE INDEX "ad_clicks_created_idx" ON "ad_clicks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ad_decisions_created_idx" ON "ad_decisions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ad_impressions_created_idx" ON "ad_impressions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ad_leads_created_idx" ON "ad_leads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "invalid_traffic_created_idx" ON "invalid_traffic" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "pageviews_created_idx" ON "pageviews" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "realtime_counters_minute_idx" ON "realtime_counters" USING btree ("minute");