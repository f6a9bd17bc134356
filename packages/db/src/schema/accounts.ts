import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** A website or newsletter that shows ads. A user may hold several. */
export const publishers = pgTable(
  'publishers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    brand: text('brand').notNull(),
    isWeb: boolean('is_web').notNull().default(true),
    isOwl: boolean('is_owl').notNull().default(false),
    /** The registered domain the script must be installed on (web publishers). */
    domain: text('domain'),
    isInstalled: boolean('is_installed').notNull().default(false),
    /** Share of costs paid to this publisher, in basis points; null = the network default. */
    revenueShareBp: integer('revenue_share_bp'),
    /** Minimum balance to request a payout, in micro-euros; null = the network default. */
    minBalanceForPayout: bigint('min_balance_for_payout', { mode: 'number' }),
    salesRepUserId: integer('sales_rep_user_id').references(() => users.id),
    /** The payout methods an admin allowed this publisher (bitcoin, paypal, wire). */
    authorizedPayoutMethods: text('authorized_payout_methods')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('publishers_user_idx').on(table.userId)],
);

/** A brand that buys impressions or clicks. A user may hold several. */
export const advertisers = pgTable(
  'advertisers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    brand: text('brand').notNull(),
    billingInformation: text('billing_information'),
    salesRepUserId: integer('sales_rep_user_id').references(() => users.id),
    /** The most its unpaid invoices may add up to, in micro-euros; null = 10 x the network's minimum order. */
    invoiceLimit: bigint('invoice_limit', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('advertisers_user_idx').on(table.userId)],
);

/** What an advertiser buys: impressions at a CPM or clicks at a CPC (prices in micro-euros). */
/** The check that keeps a campaign's credits from going below zero (a spend that would overdraw is refused). */
export const CREDITS_NEVER_NEGATIVE = 'campaigns_credits_never_negative';

export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    advertiserId: integer('advertiser_id')
      .notNull()
      .references(() => advertisers.id),
    isCpc: boolean('is_cpc').notNull().default(false),
    isOwl: boolean('is_owl').notNull().default(false),
    /** Price of 1,000 validated impressions, in micro-euros. */
    cpm: bigint('cpm', { mode: 'number' }).notNull().default(0),
    /** Price of one unique click, in micro-euros. */
    cpc: bigint('cpc', { mode: 'number' }).notNull().default(0),
    remainingImpressions: bigint('remaining_impressions', { mode: 'number' }).notNull().default(0),
    remainingClicks: bigint('remaining_clicks', { mode: 'number' }).notNull().default(0),
    /**
     * Moves on with every change of the remaining credits (a trigger, migration 0021): instances sharing the
     * credits through Redis keep the newest figure they read (docs/scaling.md).
     */
    creditsVersion: bigint('credits_version', { mode: 'number' }).notNull().default(0),
    isTrial: boolean('is_trial').notNull().default(false),
    isFiller: boolean('is_filler').notNull().default(false),
    isAutoPilot: boolean('is_autopilot').notNull().default(true),
    /** AutoFlow daily cap of validated impressions; 0 = no cap. */
    pauseDailyImpressions: integer('pause_daily_impressions').notNull().default(0),
    /**
     * Geotargeting: where the visitor must be, as location codes "FR" (country, ISO 3166-1), "FR/IDF" (region,
     * as the IP database names it) or "FR/IDF/Paris" (city); empty = everywhere.
     */
    geoTargets: text('geo_targets')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The advertiser may switch AutoPilot (the toggle is shown). */
    isAutoPilotVisible: boolean('is_autopilot_visible').notNull().default(true),
    /** The advertiser may switch an ad on or off for one publisher. */
    canActivateAdsByPublisher: boolean('can_activate_ads_by_publisher').notNull().default(true),
    /** The advertiser may cap an ad's spending (the budget selector). */
    canBudget: boolean('can_budget').notNull().default(true),
    /** Ways to pay besides the card (specification 02, section 2.2). */
    canBuyInBtc: boolean('can_buy_in_btc').notNull().default(false),
    canBillToPay: boolean('can_bill_to_pay').notNull().default(false),
    /** The network's discount tiers do not apply to this campaign. */
    doNotDiscount: boolean('do_not_discount').notNull().default(false),
    /** The add-credits slider's largest purchase and step (impressions or clicks); null = the defaults. */
    buyMax: bigint('buy_max', { mode: 'number' }),
    buyStep: integer('buy_step'),
    /** The quantity the advertiser last chose on the slider (update-buy); what the card and invoice buy. */
    buyQuantity: bigint('buy_quantity', { mode: 'number' }).notNull().default(0),
    /** The Activity screen's stored date range (UTC days, inclusive); both null = all dates. */
    statsDateFrom: date('stats_date_from', { mode: 'string' }),
    statsDateTo: date('stats_date_to', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('campaigns_advertiser_idx').on(table.advertiserId),
    // The last guard of the money: a spend that would overdraw a campaign is refused by the database.
    check(CREDITS_NEVER_NEGATIVE, sql`remaining_impressions >= 0 and remaining_clicks >= 0`),
  ],
);
