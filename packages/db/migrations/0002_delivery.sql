CREATE TABLE "ad_clicks" (
	"id" text PRIMARY KEY NOT NULL,
	"decision_id" text NOT NULL,
	"publisher_id" integer NOT NULL,
	"ad_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"device" text NOT NULL,
	"visitor" text NOT NULL,
	"is_unique" boolean NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"publisher_revenue" bigint DEFAULT 0 NOT NULL,
	"sales_rep_revenue" bigint DEFAULT 0 NOT NULL,
	"company_revenue" bigint DEFAULT 0 NOT NULL,
	"trial_cost" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_decisions" (
	"id" text PRIMARY KEY NOT NULL,
	"pageview_id" text,
	"publisher_id" integer NOT NULL,
	"ad_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"channel" text NOT NULL,
	"slot" smallint DEFAULT 0 NOT NULL,
	"device" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"visitor" text NOT NULL,
	"invalid_reason" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_impressions" (
	"decision_id" text PRIMARY KEY NOT NULL,
	"publisher_id" integer NOT NULL,
	"ad_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"device" text NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"publisher_revenue" bigint DEFAULT 0 NOT NULL,
	"sales_rep_revenue" bigint DEFAULT 0 NOT NULL,
	"company_revenue" bigint DEFAULT 0 NOT NULL,
	"trial_cost" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_leads" (
	"click_id" text PRIMARY KEY NOT NULL,
	"publisher_id" integer NOT NULL,
	"ad_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"device" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_ad_stats" (
	"day" date NOT NULL,
	"ad_id" integer NOT NULL,
	"publisher_id" integer NOT NULL,
	"device" text NOT NULL,
	"campaign_id" integer NOT NULL,
	"advertiser_id" integer NOT NULL,
	"channel" text DEFAULT 'web' NOT NULL,
	"served" integer DEFAULT 0 NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"all_clicks" integer DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"publisher_revenue" bigint DEFAULT 0 NOT NULL,
	"sales_rep_revenue" bigint DEFAULT 0 NOT NULL,
	"company_revenue" bigint DEFAULT 0 NOT NULL,
	"trial_cost" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_ad_stats_day_ad_id_publisher_id_device_pk" PRIMARY KEY("day","ad_id","publisher_id","device")
);
--> statement-breakpoint
CREATE TABLE "daily_publisher_stats" (
	"day" date NOT NULL,
	"publisher_id" integer NOT NULL,
	"device" text NOT NULL,
	"pageviews" integer DEFAULT 0 NOT NULL,
	"invalid_pageviews" integer DEFAULT 0 NOT NULL,
	"served" integer DEFAULT 0 NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_publisher_stats_day_publisher_id_device_pk" PRIMARY KEY("day","publisher_id","device")
);
--> statement-breakpoint
CREATE TABLE "daily_url_stats" (
	"day" date NOT NULL,
	"publisher_id" integer NOT NULL,
	"url" text NOT NULL,
	"device" text NOT NULL,
	"ad_id" integer DEFAULT 0 NOT NULL,
	"campaign_id" integer DEFAULT 0 NOT NULL,
	"pageviews" integer DEFAULT 0 NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_url_stats_day_publisher_id_url_device_ad_id_pk" PRIMARY KEY("day","publisher_id","url","device","ad_id")
);
--> statement-breakpoint
CREATE TABLE "install_heartbeats" (
	"publisher_id" integer NOT NULL,
	"host" text NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "install_heartbeats_publisher_id_host_pk" PRIMARY KEY("publisher_id","host")
);
--> statement-breakpoint
CREATE TABLE "invalid_traffic" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"publisher_id" integer,
	"ad_id" integer,
	"decision_id" text,
	"visitor" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_type" text NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"day" date,
	"impressions" integer DEFAULT 0 NOT NULL,
	"note" text,
	"reverses_id" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owl_issue_ads" (
	"publisher_id" integer NOT NULL,
	"banner_index" smallint NOT NULL,
	"issue" text NOT NULL,
	"ad_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"advertiser_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "owl_issue_ads_publisher_id_banner_index_issue_pk" PRIMARY KEY("publisher_id","banner_index","issue")
);
--> statement-breakpoint
CREATE TABLE "pageviews" (
	"id" text PRIMARY KEY NOT NULL,
	"publisher_id" integer NOT NULL,
	"device" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"visitor" text NOT NULL,
	"invalid_reason" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publisher_placements" (
	"id" serial PRIMARY KEY NOT NULL,
	"publisher_id" integer NOT NULL,
	"selector" text,
	"position" text DEFAULT 'inside' NOT NULL,
	"format_ids" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"device" text DEFAULT 'all' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realtime_counters" (
	"publisher_id" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"pageviews_desktop" integer DEFAULT 0 NOT NULL,
	"pageviews_mobile" integer DEFAULT 0 NOT NULL,
	"impressions_desktop" integer DEFAULT 0 NOT NULL,
	"impressions_mobile" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "realtime_counters_publisher_id_minute_pk" PRIMARY KEY("publisher_id","minute")
);
--> statement-breakpoint
ALTER TABLE "ad_decisions" ADD CONSTRAINT "ad_decisions_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_decisions" ADD CONSTRAINT "ad_decisions_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_decisions" ADD CONSTRAINT "ad_decisions_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "install_heartbeats" ADD CONSTRAINT "install_heartbeats_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owl_issue_ads" ADD CONSTRAINT "owl_issue_ads_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owl_issue_ads" ADD CONSTRAINT "owl_issue_ads_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owl_issue_ads" ADD CONSTRAINT "owl_issue_ads_advertiser_id_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pageviews" ADD CONSTRAINT "pageviews_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publisher_placements" ADD CONSTRAINT "publisher_placements_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_clicks_ad_visitor_idx" ON "ad_clicks" USING btree ("ad_id","visitor","created_at");--> statement-breakpoint
CREATE INDEX "ad_decisions_ad_created_idx" ON "ad_decisions" USING btree ("ad_id","created_at");--> statement-breakpoint
CREATE INDEX "ad_impressions_campaign_created_idx" ON "ad_impressions" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "daily_ad_stats_campaign_day_idx" ON "daily_ad_stats" USING btree ("campaign_id","day");--> statement-breakpoint
CREATE INDEX "daily_ad_stats_publisher_day_idx" ON "daily_ad_stats" USING btree ("publisher_id","day");--> statement-breakpoint
CREATE INDEX "daily_url_stats_campaign_day_idx" ON "daily_url_stats" USING btree ("campaign_id","day");--> statement-breakpoint
CREATE INDEX "invalid_traffic_publisher_created_idx" ON "invalid_traffic" USING btree ("publisher_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_type","account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_daily_revenue_unique" ON "ledger_entries" USING btree ("account_type","account_id","day") WHERE "ledger_entries"."kind" = 'revenue';--> statement-breakpoint
CREATE INDEX "pageviews_publisher_created_idx" ON "pageviews" USING btree ("publisher_id","created_at");--> statement-breakpoint
CREATE INDEX "publisher_placements_publisher_idx" ON "publisher_placements" USING btree ("publisher_id");