import { bigint, integer, numeric, pgTable, serial, timestamp } from 'drizzle-orm/pg-core';
import { DEFAULT_PUBLISHER_SHARE_BP } from '@helium/domain/revenue';
import { users } from './users.ts';

/**
 * Network settings, append-only: every change inserts a row, the latest row is in force, and the history
 * says which rates and shares applied on which date.
 */
export const networkSettings = pgTable('network_settings', {
  id: serial('id').primaryKey(),
  /** Euros per 1 US dollar. */
  usdToEur: numeric('usd_to_eur', { precision: 18, scale: 8 }).notNull(),
  /** Euros per 1 bitcoin. */
  btcToEur: numeric('btc_to_eur', { precision: 18, scale: 2 }).notNull(),
  ratesSetAt: timestamp('rates_set_at', { withTimezone: true }).notNull().defaultNow(),
  publisherRevenueShareBp: integer('publisher_revenue_share_bp').notNull().default(DEFAULT_PUBLISHER_SHARE_BP),
  salesRepRevenueShareBp: integer('sales_rep_revenue_share_bp').notNull().default(1000),
  minBalanceForPayout: bigint('min_balance_for_payout', { mode: 'number' }).notNull().default(50_000_000),
  minImpressionsToAutoPilot: integer('min_impressions_to_autopilot').notNull().default(1000),
  /** Impressions an ad needs over 7 days before it gets a CTR rank. */
  minImpressionsForCtrRank: integer('min_impressions_for_ctr_rank').notNull().default(500),
  billToPayMinOrder: bigint('bill_to_pay_min_order', { mode: 'number' }).notNull().default(1_000_000_000),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  createdBy: integer('created_by').references(() => users.id),
});
