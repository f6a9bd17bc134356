CREATE TABLE "daily_country_stats" (
	"campaign_id" integer NOT NULL,
	"day" date NOT NULL,
	"country" text NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_country_stats_campaign_id_day_country_pk" PRIMARY KEY("campaign_id","day","country")
);
--> statement-breakpoint
ALTER TABLE "ad_decisions" ADD COLUMN "country" text;
--> statement-breakpoint
-- record_delivery_batch (migrations 0006, 0009) also writes the decision's country and the daily totals per
-- campaign and country (a new last parameter, so the function of 14 parameters goes first).
DROP FUNCTION record_delivery_batch(json, json, json, json, json, json, json, json, json, json, json, json, json, json);
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
) RETURNS void LANGUAGE plpgsql AS $$
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
  -- Credits never go below 0.
  IF spent_rows IS NOT NULL THEN
    UPDATE campaigns SET
      remaining_impressions = greatest(0, campaigns.remaining_impressions - spent.impressions),
      remaining_clicks = greatest(0, campaigns.remaining_clicks - spent.clicks)
    FROM json_to_recordset(spent_rows) AS spent(id integer, impressions integer, clicks integer)
    WHERE campaigns.id = spent.id;
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
END
$$;
--> statement-breakpoint
-- set_aside_traffic (migration 0009) also takes what it sets aside out of daily_country_stats.
CREATE OR REPLACE FUNCTION set_aside_traffic(
  impression_ids json,
  click_ids json,
  set_reason text,
  set_at timestamptz
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  reversed json;
BEGIN
  WITH marked_impressions AS (
    UPDATE ad_impressions AS i SET invalid_reason = set_reason
    WHERE i.decision_id IN (SELECT value FROM json_array_elements_text(impression_ids))
      AND i.invalid_reason IS NULL
      AND NOT EXISTS (SELECT 1 FROM ledger_entries AS l
        WHERE l.account_type = 'publisher' AND l.kind = 'revenue' AND l.account_id = i.publisher_id
          AND l.day = (i.created_at AT TIME ZONE 'UTC')::date)
    RETURNING i.decision_id, i.publisher_id, i.ad_id, i.campaign_id, i.device, i.cost, i.publisher_revenue,
      i.sales_rep_revenue, i.company_revenue, i.trial_cost, i.created_at
  ), marked_clicks AS (
    UPDATE ad_clicks AS k SET invalid_reason = set_reason
    WHERE k.id IN (SELECT value FROM json_array_elements_text(click_ids))
      AND k.is_unique AND k.invalid_reason IS NULL
      AND NOT EXISTS (SELECT 1 FROM ledger_entries AS l
        WHERE l.account_type = 'publisher' AND l.kind = 'revenue' AND l.account_id = k.publisher_id
          AND l.day = (k.created_at AT TIME ZONE 'UTC')::date)
    RETURNING k.id, k.decision_id, k.publisher_id, k.ad_id, k.campaign_id, k.device, k.visitor, k.cost,
      k.publisher_revenue, k.sales_rep_revenue, k.company_revenue, k.trial_cost, k.created_at
  ), marked AS (
    SELECT 'impression' AS kind, m.decision_id, NULL::text AS click_id, m.publisher_id, m.ad_id, m.campaign_id,
      m.device, NULL::text AS visitor, m.cost, m.publisher_revenue, m.sales_rep_revenue, m.company_revenue,
      m.trial_cost, m.created_at
    FROM marked_impressions AS m
    UNION ALL
    SELECT 'click', m.decision_id, m.id, m.publisher_id, m.ad_id, m.campaign_id, m.device, m.visitor, m.cost,
      m.publisher_revenue, m.sales_rep_revenue, m.company_revenue, m.trial_cost, m.created_at
    FROM marked_clicks AS m
  )
  SELECT coalesce(json_agg(json_build_object(
      'kind', e.kind, 'decisionId', e.decision_id, 'clickId', e.click_id, 'publisherId', e.publisher_id,
      'adId', e.ad_id, 'campaignId', e.campaign_id, 'advertiserId', c.advertiser_id, 'device', e.device,
      'channel', coalesce(d.channel, 'web'), 'url', coalesce(d.url, ''), 'visitor', coalesce(e.visitor, d.visitor),
      'country', d.country,
      'day', (e.created_at AT TIME ZONE 'UTC')::date,
      'minute', date_trunc('minute', e.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
      'cost', e.cost, 'publisherRevenue', e.publisher_revenue, 'salesRepRevenue', e.sales_rep_revenue,
      'companyRevenue', e.company_revenue, 'trialCost', e.trial_cost,
      -- A CPM campaign's impression spent one of its impressions, a CPC campaign's unique click one of its clicks.
      'credit', CASE WHEN e.kind = 'impression' THEN NOT coalesce(c.is_cpc, true) ELSE coalesce(c.is_cpc, false) END
    )), '[]'::json)
  INTO reversed
  FROM marked AS e
  LEFT JOIN ad_decisions AS d ON d.id = e.decision_id
  LEFT JOIN campaigns AS c ON c.id = e.campaign_id;

  IF json_array_length(reversed) = 0 THEN
    RETURN reversed;
  END IF;

  UPDATE daily_ad_stats AS s SET
    impressions = s.impressions - a.impressions,
    clicks = s.clicks - a.clicks,
    cost = s.cost - a.cost,
    publisher_revenue = s.publisher_revenue - a.publisher_revenue,
    sales_rep_revenue = s.sales_rep_revenue - a.sales_rep_revenue,
    company_revenue = s.company_revenue - a.company_revenue,
    trial_cost = s.trial_cost - a.trial_cost
  FROM (
    SELECT r.day, r."adId" AS ad_id, r."publisherId" AS publisher_id, r.device,
      count(*) FILTER (WHERE r.kind = 'impression') AS impressions, count(*) FILTER (WHERE r.kind = 'click') AS clicks,
      sum(r.cost) AS cost, sum(r."publisherRevenue") AS publisher_revenue,
      sum(r."salesRepRevenue") AS sales_rep_revenue, sum(r."companyRevenue") AS company_revenue,
      sum(r."trialCost") AS trial_cost
    FROM json_to_recordset(reversed) AS r(kind text, day date, "adId" integer, "publisherId" integer, device text,
      cost bigint, "publisherRevenue" bigint, "salesRepRevenue" bigint, "companyRevenue" bigint, "trialCost" bigint)
    GROUP BY r.day, r."adId", r."publisherId", r.device
  ) AS a
  WHERE s.day = a.day AND s.ad_id = a.ad_id AND s.publisher_id = a.publisher_id AND s.device = a.device;

  UPDATE daily_publisher_stats AS s SET
    impressions = s.impressions - a.impressions,
    clicks = s.clicks - a.clicks
  FROM (
    SELECT r.day, r."publisherId" AS publisher_id, r.device,
      count(*) FILTER (WHERE r.kind = 'impression') AS impressions, count(*) FILTER (WHERE r.kind = 'click') AS clicks
    FROM json_to_recordset(reversed) AS r(kind text, day date, "publisherId" integer, device text)
    GROUP BY r.day, r."publisherId", r.device
  ) AS a
  WHERE s.day = a.day AND s.publisher_id = a.publisher_id AND s.device = a.device;

  -- Per page: only events of a page with an address have a row (store.ts, dailyUrlStatsRows).
  UPDATE daily_url_stats AS s SET
    impressions = s.impressions - a.impressions,
    clicks = s.clicks - a.clicks,
    cost = s.cost - a.cost
  FROM (
    SELECT r.day, r."publisherId" AS publisher_id, r.url, r.device, r."adId" AS ad_id,
      count(*) FILTER (WHERE r.kind = 'impression') AS impressions, count(*) FILTER (WHERE r.kind = 'click') AS clicks,
      sum(r.cost) AS cost
    FROM json_to_recordset(reversed) AS r(kind text, day date, "publisherId" integer, url text, device text,
      "adId" integer, cost bigint)
    WHERE r.url <> ''
    GROUP BY r.day, r."publisherId", r.url, r.device, r."adId"
  ) AS a
  WHERE s.day = a.day AND s.publisher_id = a.publisher_id AND s.url = a.url AND s.device = a.device
    AND s.ad_id = a.ad_id;

  -- Per country: only decisions recorded with their country (migration 0015 on) were counted there.
  UPDATE daily_country_stats AS s SET
    impressions = s.impressions - a.impressions,
    clicks = s.clicks - a.clicks,
    cost = s.cost - a.cost
  FROM (
    SELECT r."campaignId" AS campaign_id, r.day, r.country,
      count(*) FILTER (WHERE r.kind = 'impression') AS impressions, count(*) FILTER (WHERE r.kind = 'click') AS clicks,
      sum(r.cost) AS cost
    FROM json_to_recordset(reversed) AS r(kind text, "campaignId" integer, day date, country text, cost bigint)
    WHERE r.country IS NOT NULL
    GROUP BY r."campaignId", r.day, r.country
  ) AS a
  WHERE s.campaign_id = a.campaign_id AND s.day = a.day AND s.country = a.country;

  UPDATE realtime_counters AS s SET
    impressions_desktop = s.impressions_desktop - a.desktop,
    impressions_mobile = s.impressions_mobile - a.mobile
  FROM (
    SELECT r."publisherId" AS publisher_id, r.minute,
      count(*) FILTER (WHERE r.device = 'desktop') AS desktop, count(*) FILTER (WHERE r.device = 'mobile') AS mobile
    FROM json_to_recordset(reversed) AS r(kind text, "publisherId" integer, minute timestamptz, device text)
    WHERE r.kind = 'impression'
    GROUP BY r."publisherId", r.minute
  ) AS a
  WHERE s.publisher_id = a.publisher_id AND s.minute = a.minute;

  UPDATE campaigns AS c SET
    remaining_impressions = c.remaining_impressions + a.impressions,
    remaining_clicks = c.remaining_clicks + a.clicks
  FROM (
    SELECT r."campaignId" AS campaign_id,
      count(*) FILTER (WHERE r.kind = 'impression') AS impressions, count(*) FILTER (WHERE r.kind = 'click') AS clicks
    FROM json_to_recordset(reversed) AS r(kind text, "campaignId" integer, credit boolean)
    WHERE r.credit
    GROUP BY r."campaignId"
  ) AS a
  WHERE c.id = a.campaign_id;

  INSERT INTO invalid_traffic (kind, reason, publisher_id, ad_id, decision_id, visitor, user_agent, created_at)
  SELECT r.kind, set_reason, r."publisherId", r."adId", r."decisionId", r.visitor, NULL, set_at
  FROM json_to_recordset(reversed) AS r(kind text, "publisherId" integer, "adId" integer, "decisionId" text,
    visitor text);

  RETURN reversed;
END
$$;
