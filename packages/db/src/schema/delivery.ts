import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { advertisers, publishers } from './accounts.ts';
import { ads } from './ads.ts';
import { users } from './users.ts';

/*
 * The ad-delivery engine's records (docs/decisions.md sections 4-6, docs/server-behaviour.md). Event tables are
 * append-only; the summaries are counters the engine increments in the same transaction as the events.
 */

/** Where ads go on a publisher's pages. A default placement (no selector) works on any page. */
export const publisherPlacements = pgTable(
  'publisher_placements',
  {
    id: serial('id').primaryKey(),
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    /** CSS selector of the element the ad goes into or next to; null = the default placement. */
    selector: text('selector'),
    position: text('position', { enum: ['inside', 'before', 'after'] })
      .notNull()
      .default('inside'),
    /** Accepted format ids; empty = any web format. */
    formatIds: smallint('format_ids')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    device: text('device', { enum: ['all', 'desktop', 'mobile'] })
      .notNull()
      .default('all'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('publisher_placements_publisher_idx').on(table.publisherId)],
);

/*
 * The event tables (pageviews, decisions, impressions, clicks, leads, invalid traffic) carry no foreign keys:
 * their ids come from the serving index and from signed tokens, publishers, ads and campaigns are never
 * deleted, and a foreign key check per inserted row locks the referenced row (FOR KEY SHARE), which was most
 * of the cost of writing a batch of counted events (docs/performance.md). The three written for every
 * pageview (pageviews, ad_decisions, ad_impressions) are read by id, and reports read the daily summaries; their
 * only other index is on `created_at`, by which rows older than RAW_EVENT_DAYS are deleted in chunks
 * (apps/api/src/features/event-retention/, migration 0019): each index is one more insertion per row.
 */

/** One load of the publisher script on a page (desktop or mobile). Invalid ones are kept with their reason. */
export const pageviews = pgTable(
  'pageviews',
  {
    id: text('id').primaryKey(),
    publisherId: integer('publisher_id').notNull(),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    url: text('url').notNull().default(''),
    /** Daily-salted hash of IP and user agent: no cookie, not reversible, not linkable across days. */
    visitor: text('visitor').notNull(),
    invalidReason: text('invalid_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('pageviews_created_idx').on(table.createdAt)],
);

/** The server chose an ad for a slot (served, not billed). Views and clicks count only against one. */
export const adDecisions = pgTable(
  'ad_decisions',
  {
    id: text('id').primaryKey(),
    pageviewId: text('pageview_id'),
    publisherId: integer('publisher_id').notNull(),
    adId: integer('ad_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    channel: text('channel', { enum: ['web', 'owl'] }).notNull(),
    slot: smallint('slot').notNull().default(0),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    url: text('url').notNull().default(''),
    visitor: text('visitor').notNull(),
    /**
     * The address's network (IPv6 /64) hashed with the visitor's daily salt: what a view or click of this decision
     * is set aside by when a rule trips for that address (docs/server-behaviour.md). Null before migration 0009.
     */
    ip: text('ip'),
    /**
     * The visitor's country (ISO 3166-1 alpha-2, `ZZ` when unknown) from the address that made the decision: what
     * its impression and click are counted under in daily_country_stats. Null before migration 0015.
     */
    country: text('country'),
    /** Decisions for known bots are recorded but reserve nothing and count nothing. */
    invalidReason: text('invalid_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('ad_decisions_created_idx').on(table.createdAt)],
);

/**
 * A validated impression: at most one per decision (one per slot per pageview). Amounts in micro-euros. One set
 * aside afterwards (its address tripped a rule the same day) keeps its row and amounts, with the rule in
 * `invalid_reason`: the summaries and the campaign's credits no longer count it (set_aside_traffic, migration 0009).
 */
export const adImpressions = pgTable(
  'ad_impressions',
  {
    decisionId: text('decision_id').primaryKey(),
    publisherId: integer('publisher_id').notNull(),
    adId: integer('ad_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
    publisherRevenue: bigint('publisher_revenue', { mode: 'number' }).notNull().default(0),
    salesRepRevenue: bigint('sales_rep_revenue', { mode: 'number' }).notNull().default(0),
    companyRevenue: bigint('company_revenue', { mode: 'number' }).notNull().default(0),
    trialCost: bigint('trial_cost', { mode: 'number' }).notNull().default(0),
    /** Set aside after it was counted (null: billed): the rule, as in invalid_traffic.reason. */
    invalidReason: text('invalid_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('ad_impressions_created_idx').on(table.createdAt)],
);

/** Every click through /c/<token>; `isUnique` ones (once per hour per visitor per ad) are billed. */
export const adClicks = pgTable(
  'ad_clicks',
  {
    /** The click id appended to the ad's link, reported back by lead pixels and postbacks. */
    id: text('id').primaryKey(),
    decisionId: text('decision_id').notNull(),
    publisherId: integer('publisher_id').notNull(),
    adId: integer('ad_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    visitor: text('visitor').notNull(),
    isUnique: boolean('is_unique').notNull(),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
    publisherRevenue: bigint('publisher_revenue', { mode: 'number' }).notNull().default(0),
    salesRepRevenue: bigint('sales_rep_revenue', { mode: 'number' }).notNull().default(0),
    companyRevenue: bigint('company_revenue', { mode: 'number' }).notNull().default(0),
    trialCost: bigint('trial_cost', { mode: 'number' }).notNull().default(0),
    /** A unique click set aside after it was counted (null: billed, as `is_unique` says), as ad_impressions'. */
    invalidReason: text('invalid_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('ad_clicks_ad_visitor_idx').on(table.adId, table.visitor, table.createdAt),
    index('ad_clicks_created_idx').on(table.createdAt),
  ],
);

/** A conversion reported for a click id within 30 days, once per click. */
export const adLeads = pgTable(
  'ad_leads',
  {
    clickId: text('click_id').primaryKey(),
    publisherId: integer('publisher_id').notNull(),
    adId: integer('ad_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    source: text('source', { enum: ['pixel', 'postback'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('ad_leads_created_idx').on(table.createdAt)],
);

/**
 * Traffic filtered before counting (bots, rate abuse, one-IP share, distinct visitors per IP, no browser evidence,
 * another domain), and impressions and clicks set aside after counting (their address tripped a rule the same
 * day; the event row keeps its reason too), kept aside for admins.
 */
export const invalidTraffic = pgTable(
  'invalid_traffic',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: ['pageview', 'impression', 'click', 'lead'] }).notNull(),
    reason: text('reason', {
      enum: ['bot', 'rate', 'oneIp', 'ipVisitors', 'dataCentre', 'tooEarly', 'noEvidence', 'otherDomain', 'noCredits'],
    }).notNull(),
    publisherId: integer('publisher_id'),
    adId: integer('ad_id'),
    decisionId: text('decision_id'),
    visitor: text('visitor'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('invalid_traffic_publisher_created_idx').on(table.publisherId, table.createdAt),
    // The admin screen's days of every publisher, and the retention's deletes by age.
    index('invalid_traffic_created_idx').on(table.createdAt),
    // A view or click set aside uses its decision: a later beacon of the same token is a replay (the engine
    // looks it up by decision for decisions no longer in memory). Pageviews have no decision: not indexed.
    index('invalid_traffic_decision_idx')
      .on(table.decisionId)
      .where(sql`${table.decisionId} is not null`),
  ],
);

/** Per-minute realtime counters per publisher (the performance dials). */
export const realtimeCounters = pgTable(
  'realtime_counters',
  {
    publisherId: integer('publisher_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    pageviewsDesktop: integer('pageviews_desktop').notNull().default(0),
    pageviewsMobile: integer('pageviews_mobile').notNull().default(0),
    impressionsDesktop: integer('impressions_desktop').notNull().default(0),
    impressionsMobile: integer('impressions_mobile').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.publisherId, table.minute] }),
    // Minutes older than the dials read are deleted by age (REALTIME_COUNTER_DAYS).
    index('realtime_counters_minute_idx').on(table.minute),
  ],
);

/** Daily totals of one publisher and device (UTC days): pageviews and what came of them. */
export const dailyPublisherStats = pgTable(
  'daily_publisher_stats',
  {
    day: date('day', { mode: 'string' }).notNull(),
    publisherId: integer('publisher_id').notNull(),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    pageviews: integer('pageviews').notNull().default(0),
    invalidPageviews: integer('invalid_pageviews').notNull().default(0),
    served: integer('served').notNull().default(0),
    impressions: integer('impressions').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.publisherId, table.device] })],
);

/** Daily totals per ad, publisher and device, with the money they moved (micro-euros). */
export const dailyAdStats = pgTable(
  'daily_ad_stats',
  {
    day: date('day', { mode: 'string' }).notNull(),
    adId: integer('ad_id').notNull(),
    publisherId: integer('publisher_id').notNull(),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    campaignId: integer('campaign_id').notNull(),
    advertiserId: integer('advertiser_id').notNull(),
    channel: text('channel', { enum: ['web', 'owl'] })
      .notNull()
      .default('web'),
    served: integer('served').notNull().default(0),
    impressions: integer('impressions').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    allClicks: integer('all_clicks').notNull().default(0),
    leads: integer('leads').notNull().default(0),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
    publisherRevenue: bigint('publisher_revenue', { mode: 'number' }).notNull().default(0),
    salesRepRevenue: bigint('sales_rep_revenue', { mode: 'number' }).notNull().default(0),
    companyRevenue: bigint('company_revenue', { mode: 'number' }).notNull().default(0),
    trialCost: bigint('trial_cost', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.adId, table.publisherId, table.device] }),
    index('daily_ad_stats_campaign_day_idx').on(table.campaignId, table.day),
    index('daily_ad_stats_publisher_day_idx').on(table.publisherId, table.day),
  ],
);

/** Daily totals per page URL and device: ad 0 holds the page's pageviews, other rows an ad's figures there. */
export const dailyUrlStats = pgTable(
  'daily_url_stats',
  {
    day: date('day', { mode: 'string' }).notNull(),
    publisherId: integer('publisher_id').notNull(),
    url: text('url').notNull(),
    device: text('device', { enum: ['desktop', 'mobile'] }).notNull(),
    adId: integer('ad_id').notNull().default(0),
    campaignId: integer('campaign_id').notNull().default(0),
    pageviews: integer('pageviews').notNull().default(0),
    impressions: integer('impressions').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    leads: integer('leads').notNull().default(0),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.publisherId, table.url, table.device, table.adId] }),
    index('daily_url_stats_campaign_day_idx').on(table.campaignId, table.day),
  ],
);

/**
 * Daily totals per campaign and visitor country (ISO 3166-1 alpha-2, `ZZ` when unknown): impressions, unique
 * clicks and their cost (micro-euros), counted in the same batch as daily_ad_stats, so that a campaign's
 * countries add up to its totals from migration 0015 on.
 */
export const dailyCountryStats = pgTable(
  'daily_country_stats',
  {
    campaignId: integer('campaign_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    country: text('country').notNull(),
    impressions: integer('impressions').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.day, table.country] })],
);

/**
 * Every movement of money, append-only (docs/decisions.md section 3): a correction is a reversing entry.
 * Amounts in micro-euros, positive = credited to the account.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountType: text('account_type', { enum: ['publisher', 'advertiser', 'salesRep', 'company'] }).notNull(),
    /** Publisher, advertiser or sales-rep user id; 0 for the company. */
    accountId: integer('account_id').notNull(),
    kind: text('kind', {
      enum: ['revenue', 'payout', 'payoutReturned', 'purchase', 'adjustment', 'reversal'],
    }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The UTC day a daily revenue entry covers. */
    day: date('day', { mode: 'string' }),
    impressions: integer('impressions').notNull().default(0),
    note: text('note'),
    reversesId: bigint('reverses_id', { mode: 'number' }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('ledger_entries_account_idx').on(table.accountType, table.accountId, table.createdAt),
    uniqueIndex('ledger_entries_daily_revenue_unique')
      .on(table.accountType, table.accountId, table.day)
      .where(sql`${table.kind} = 'revenue'`),
  ],
);

/** The script's heartbeat: which host of which publisher it last ran on. */
export const installHeartbeats = pgTable(
  'install_heartbeats',
  {
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    host: text('host').notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.publisherId, table.host] })],
);

/** The ad chosen for one newsletter issue's banner, kept for every later open of that issue. */
export const owlIssueAds = pgTable(
  'owl_issue_ads',
  {
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    bannerIndex: smallint('banner_index').notNull(),
    issue: text('issue').notNull(),
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id),
    campaignId: integer('campaign_id').notNull(),
    advertiserId: integer('advertiser_id').references(() => advertisers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.publisherId, table.bannerIndex, table.issue] })],
);
