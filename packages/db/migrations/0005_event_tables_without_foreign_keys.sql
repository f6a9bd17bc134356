ALTER TABLE "ad_decisions" DROP CONSTRAINT "ad_decisions_publisher_id_publishers_id_fk";
--> statement-breakpoint
ALTER TABLE "ad_decisions" DROP CONSTRAINT "ad_decisions_ad_id_ads_id_fk";
--> statement-breakpoint
ALTER TABLE "ad_decisions" DROP CONSTRAINT "ad_decisions_campaign_id_campaigns_id_fk";
--> statement-breakpoint
ALTER TABLE "pageviews" DROP CONSTRAINT "pageviews_publisher_id_publishers_id_fk";
