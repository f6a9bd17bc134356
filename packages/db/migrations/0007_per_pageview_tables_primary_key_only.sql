DROP INDEX "ad_decisions_ad_created_idx";--> statement-breakpoint
DROP INDEX "ad_impressions_campaign_created_idx";--> statement-breakpoint
DROP INDEX "pageviews_publisher_created_idx";