ALTER TABLE "campaigns" ADD COLUMN "credits_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_credits_never_negative" CHECK (remaining_impressions >= 0 and remaining_clicks >= 0);
--> statement-breakpoint
-- Every change of a campaign's remaining credits moves its version on, whoever makes it (delivery, a purchase, a
-- cancellation, a set-aside): an instance keeps the figure of the newest version it read.
CREATE FUNCTION bump_credits_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.credits_version := OLD.credits_version + 1;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER campaigns_credits_version BEFORE UPDATE OF remaining_impressions, remaining_clicks ON campaigns
FOR EACH ROW WHEN (OLD.remaining_impressions IS DISTINCT FROM NEW.remaining_impressions
  OR OLD.remaining_clicks IS DISTINCT FROM NEW.remaining_clicks)
EXECUTE FUNCTION bump_credits_version();
--> statement-breakpoint
-- record_delivery_batch (migrations 0006, 0009, 0015, 0021) no longer clamps credits at 0 (the check refuses an
-- overdraw) and answers the credits of the campaigns it spent: a new return type, so the function goes first.
DROP FUNCTION record_delivery_batch(json, json, json, json, json, json, json, json, json, json, json, json, json, json, json);
--> statement-breakpoint
CREATE FUNCTION record_delivery_batch(
  pageview_rows json,
  decision_rows json,
  impression_rows json,
  click_rows json,
  lead_rows json,
  invalid_rows json,
  owl_rows json,
  realtime_rows json,
  daily_publisher_rows json,
  daily_ad_rows json,
  daily_url_rows json,
  spent_rows json,
  heartbeat_rows json,
  installed_publishers json,
  daily_country_rows json
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  credits_after json;
BEGIN
  IF pageview_rows IS NOT NULL THEN
    INSERT INTO pageviews (id, publisher_id, device, url, visitor, invalid_reason, created_at)
    SELECT r.id, r."publisherId", r.device, coalesce(r.url, ''), r.visitor, r."invalidReason", r."createdAt"
    FROM json_to_recordset(pageview_rows) AS r(id text, "publisherId" integer, device text, url text,
      visitor text, "invalidReason" text, "createdAt" timestamptz)
    ON CONFLICT DO NOTHING;
  END IF;
  IF decision_rows IS NOT NULL THEN
    INSERT INTO ad_decisions (id, pageview_id, publisher_id, ad_id, campaign_id, channel, slot, device, url,
      visitor, ip, country, invalid_reason, created_at)
    SELECT r.id, r."pageviewId", r."publisherId", r."adId", r."campaignId", r.channel, coalesce(r.slot, 0),
      r.device, coalesce(r.url, ''), r.visitor, r.ip, r.country, r."invalidReason", r."createdAt"
    FROM json_to_recordset(decision_rows) AS r(id text, "pageviewId" text, "publisherId" integer,
      "adId" integer, "campaignId" integer, channel text, slot smallint, device text, url text, visitor text,
      ip text, country text, "invalidReason" text, "createdAt" timestamptz)
    ON CONFLICT DO NOTHING;
  END IF;
  IF impression_rows IS NOT NULL THEN
    INSERT INTO ad_impressions (decision_id, publisher_id, ad_id, campaign_id, device, cost, publisher_revenue,
      sales_rep_revenue, company_revenue, trial_cost, invalid_reason, created_at)
    SELECT r."decisionId", r."publisherId", r."adId", r."campaignId", r.device, coalesce(r.cost, 0),
      coalesce(r."publisherRevenue", 0), coalesce(r."salesRepRevenue", 0), coalesce(r."companyRevenue", 0),
      coalesce(r."trialCost", 0), r."invalidReason", r."createdAt"
    FROM json_to_recordset(impression_rows) AS r("decisionId" text, "publisherId" integer, "adId" integer,
      "campaignId" integer, device text, cost bigint, "publisherRevenue" bigint, "salesRepRevenue" bigint,
      "companyRevenue" bigint, "trialCost" bigint, "invalidReason" text, "createdAt" timestamptz)
    ON CONFLICT DO NOTHING;
  END IF;
  IF click_rows IS NOT NULL THEN
    INSERT INTO ad_clicks (id, decision_id, publisher_id, ad_id, campaign_id, device, visitor, is_unique, cost,
      publisher_revenue, sales_rep_revenue, company_revenue, trial_cost, invalid_reason, created_at)
    SELECT r.id, r."decisionId", r."publisherId", r."adId", r."campaignId", r.device, r.visitor, r."isUnique",
      coalesce(r.cost, 0), coalesce(r."publisherRevenue", 0), coalesce(r."salesRepRevenue", 0),
      coalesce(r."companyRevenue", 0), coalesce(r."trialCost", 0), r."invalidReason", r."createdAt"
    FROM json_to_recordset(click_rows) AS r(id text, "decisionId" text, "publisherId" integer, "adId" integer,
      "campaignId" integer, device text, visitor text, "isUnique" boolean, cost bigint,
      "publisherRevenue" bigint, "salesRepRevenue" bigint, "companyRevenue" bigint, "trialCost" bigint,
      "invalidReason" text, "createdAt" timestamptz)
    ON CONFLICT DO NOTHING;
  END IF;
  IF lead_rows IS NOT NULL THEN
    INSERT INTO ad_leads (click_id, publisher_id, ad_id, campaign_id, device, source, created_at)
    SELECT r."clickId", r."publisherId", r."adId", r."campaignId", r.device, r.source, r."createdAt"
    FROM json_to_recordset(lead_rows) AS r("clickId" text, "publisherId" integer, "adId" integer,
      "campaignId" integer, device text, source text, "createdAt" timestamptz)
    ON CONFLICT DO NOTHING;
  END IF;
  IF invalid_rows IS NOT NULL THEN
    INSERT INTO invalid_traffic (kind, reason, publisher_id, ad_id, decision_id, visitor, user_agent, created_at)
    SELECT r.kind, r.reason, r."publisherId", r."adId", r."decisionId", r.visitor, r."userAgent", r."createdAt"
    FROM json_to_recordset(invalid_rows) AS r(kind text, reason text, "publisherId" integer, "adId" integer,
      "decisionId" text, visitor text, "userAgent" text, "createdAt" timestamptz);
  END IF;
  IF owl_rows IS NOT NULL THEN
    INSERT INTO owl_issue_ads (publisher_id, banner_index, issue, ad_id, campaign_id, advertiser_id, created_at)
    SELECT r."publisherId", r."bannerIndex", r.issue, r."adId", r."campaignId", r."advertiserId", r."createdAt"
    FROM json_to_recordset(owl_rows) AS r("publisherId" integer, "bannerIndex" smallint, issue text,
      "adId" integer, "campaignId" integer, "advertiserId" integer, "createdAt" timestamptz)
    ON CONFLICT DO NOTHING;
  END IF;
  IF realtime_rows IS NOT NULL THEN
    INSERT INTO realtime_counters AS t (publisher_id, minute, pageviews_desktop, pageviews_mobile,
      impressions_desktop, impressions_mobile)
    SELECT r."publisherId", r.minute, coalesce(r."pageviewsDesktop", 0), coalesce(r."pageviewsMobile", 0),
      coalesce(r."impressionsDesktop", 0), coalesce(r."impressionsMobile", 0)
    FROM json_to_recordset(realtime_rows) AS r("publisherId" integer, minute timestamptz,
      "pageviewsDesktop" integer, "pageviewsMobile" integer, "impressionsDesktop" integer,
      "impressionsMobile" integer)
    ON CONFLICT (publisher_id, minute) DO UPDATE SET
      pageviews_desktop = t.pageviews_desktop + excluded.pageviews_desktop,
      pageviews_mobile = t.pageviews_mobile + excluded.pageviews_mobile,
      impressions_desktop = t.impressions_desktop + excluded.impressions_desktop,
      impressions_mobile = t.impressions_mobile + excluded.impressions_mobile;
  END IF;
  IF daily_publisher_rows IS NOT NULL THEN
    INSERT INTO daily_publisher_stats AS t (day, publisher_id, device, pageviews, invalid_pageviews, served,
      impressions, clicks)
    SELECT r.day, r."publisherId", r.device, coalesce(r.pageviews, 0), coalesce(r."invalidPageviews", 0),
      coalesce(r.served, 0), coalesce(r.impressions, 0), coalesce(r.clicks, 0)
    FROM json_to_recordset(daily_publisher_rows) AS r(day date, "publisherId" integer, device text,
      pageviews integer, "invalidPageviews" integer, served integer, impressions integer, clicks integer)
    ON CONFLICT (day, publisher_id, device) DO UPDATE SET
      pageviews = t.pageviews + excluded.pageviews,
      invalid_pageviews = t.invalid_pageviews + excluded.invalid_pageviews,
      served = t.served + excluded.served,
      impressions = t.impressions + excluded.impressions,
      clicks = t.clicks + excluded.clicks;
  END IF;
  IF daily_ad_rows IS NOT NULL THEN
    INSERT INTO daily_ad_stats AS t (day, ad_id, publisher_id, device, campaign_id, advertiser_id, channel,
      served, impressions, clicks, all_clicks, leads, cost, publisher_revenue, sales_rep_revenue,
      company_revenue, trial_cost)
    SELECT r.day, r."adId", r."publisherId", r.device, r."campaignId", r."advertiserId",
      coalesce(r.channel, 'web'), coalesce(r.served, 0), coalesce(r.impressions, 0), coalesce(r.clicks, 0),
      coalesce(r."allClicks", 0), coalesce(r.leads, 0), coalesce(r.cost, 0), coalesce(r."publisherRevenue", 0),
      coalesce(r."salesRepRevenue", 0), coalesce(r."companyRevenue", 0), coalesce(r."trialCost", 0)
    FROM json_to_recordset(daily_ad_rows) AS r(day date, "adId" integer, "publisherId" integer, device text,
      "campaignId" integer, "advertiserId" integer, channel text, served integer, impressions integer,
      clicks integer, "allClicks" integer, leads integer, cost bigint, "publisherRevenue" bigint,
      "salesRepRevenue" bigint, "companyRevenue" bigint, "trialCost" bigint)
    ON CONFLICT (day, ad_id, publisher_id, device) DO UPDATE SET
      served = t.served + excluded.served,
      impressions = t.impressions + excluded.impressions,
      clicks = t.clicks + excluded.clicks,
      all_clicks = t.all_clicks + excluded.all_clicks,
      leads = t.leads + excluded.leads,
      cost = t.cost + excluded.cost,
      publisher_revenue = t.publisher_revenue + excluded.publisher_revenue,
      sales_rep_revenue = t.sales_rep_revenue + excluded.sales_rep_revenue,
      company_revenue = t.company_revenue + excluded.company_revenue,
      trial_cost = t.trial_cost + excluded.trial_cost;
  END IF;
  IF daily_url_rows IS NOT NULL THEN
    INSERT INTO daily_url_stats AS t (day, publisher_id, url, device, ad_id, campaign_id, pageviews, impressions,
      clicks, leads, cost)
    SELECT r.day, r."publisherId", r.url, r.device, coalesce(r."adId", 0), coalesce(r."campaignId", 0),
      coalesce(r.pageviews, 0), coalesce(r.impressions, 0), coalesce(r.clicks, 0), coalesce(r.leads, 0),
      coalesce(r.cost, 0)
    FROM json_to_recordset(daily_url_rows) AS r(day date, "publisherId" integer, url text, device text,
      "adId" integer, "campaignId" integer, pageviews integer, impressions integer, clicks integer,
      leads integer, cost bigint)
    ON CONFLICT (day, publisher_id, url, device, ad_id) DO UPDATE SET
      pageviews = t.pageviews + excluded.pageviews,
      impressions = t.impressions + excluded.impressions,
      clicks = t.clicks + excluded.clicks,
      leads = t.leads + excluded.leads,
      cost = t.cost + excluded.cost;
  END IF;
  IF daily_country_rows IS NOT NULL THEN
    INSERT INTO daily_country_stats AS t (campaign_id, day, country, impressions, clicks, cost)
    SELECT r."campaignId", r.day, r.country, coalesce(r.impressions, 0), coalesce(r.clicks, 0), coalesce(r.cost, 0)
    FROM json_to_recordset(daily_country_rows) AS r("campaignId" integer, day date, country text,
      impressions integer, clicks integer, cost bigint)
    ON CONFLICT (campaign_id, day, country) DO UPDATE SET
      impressions = t.impressions + excluded.impressions,
      clicks = t.clicks + excluded.clicks,
      cost = t.cost + excluded.cost;
  END IF;
  -- Credits never go below 0: an overdraw violates campaigns_credits_never_negative and the whole batch is
  -- refused (the recorder then writes each request alone, and only the overdrawing one fails). The campaigns'
  -- credits after the batch are answered, for instances that share them (docs/scaling.md).
  IF spent_rows IS NOT NULL THEN
    UPDATE campaigns SET
      remaining_impressions = campaigns.remaining_impressions - spent.impressions,
      remaining_clicks = campaigns.remaining_clicks - spent.clicks
    FROM json_to_recordset(spent_rows) AS spent(id integer, impressions integer, clicks integer)
    WHERE campaigns.id = spent.id;
    SELECT json_agg(json_build_array(c.id, c.remaining_impressions, c.remaining_clicks, c.credits_version))
    INTO credits_after
    FROM campaigns c JOIN json_to_recordset(spent_rows) AS spent(id integer) ON c.id = spent.id;
  END IF;
  IF heartbeat_rows IS NOT NULL THEN
    INSERT INTO install_heartbeats AS t (publisher_id, host, last_seen_at)
    SELECT r."publisherId", r.host, r."lastSeenAt"
    FROM json_to_recordset(heartbeat_rows) AS r("publisherId" integer, host text, "lastSeenAt" timestamptz)
    ON CONFLICT (publisher_id, host) DO UPDATE SET last_seen_at = excluded.last_seen_at;
  END IF;
  IF installed_publishers IS NOT NULL THEN
    UPDATE publishers SET is_installed = true
    WHERE id IN (SELECT value::integer FROM json_array_elements_text(installed_publishers));
  END IF;
  RETURN credits_after;
END
$$;
