import { sql } from 'drizzle-orm';
import { bigint, check, integer, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { DEFAULT_LATE_PAYMENT_ACTION, LATE_PAYMENT_ACTIONS } from '@helium/domain/pricing';
import { DEFAULT_PUBLISHER_SHARE_BP } from '@helium/domain/revenue';
import { users } from './users.ts';

/**
 * Network settings, append-only: every change inserts a row, the latest row is in force, and the history
 * says which rates and shares applied on which date.
 */
export const networkSettings = pgTable(
  'network_settings',
  {
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
    /** Discount tiers: from these shares of the maximum purchase (bp), these discounts (bp). */
    discountThreshold1Bp: integer('discount_threshold1_bp').notNull().default(2500),
    discountThreshold2Bp: integer('discount_threshold2_bp').notNull().default(5000),
    discountThreshold3Bp: integer('discount_threshold3_bp').notNull().default(10000),
    discountAmount1Bp: integer('discount_amount1_bp').notNull().default(500),
    discountAmount2Bp: integer('discount_amount2_bp').notNull().default(1000),
    discountAmount3Bp: integer('discount_amount3_bp').notNull().default(1500),
    extraDiscountForBtcBp: integer('extra_discount_for_btc_bp').notNull().default(500),
    extraDiscountForUsdBp: integer('extra_discount_for_usd_bp').notNull().default(0),
    /** Transfer fees of EUR payouts by PayPal and by bank transfer (micro-euros); none for USD and Bitcoin. */
    transferFeePaypalEur: bigint('transfer_fee_paypal_eur', { mode: 'number' }).notNull().default(1_000_000),
    transferFeeWireEur: bigint('transfer_fee_wire_eur', { mode: 'number' }).notNull().default(5_000_000),
    /** VAT on invoices and receipts (bp). */
    vatBp: integer('vat_bp').notNull().default(2000),
    /** Days the admin's Stats average over (its footnote, BACK_DAYS_TO_ANALYZE). */
    statsDaysAveraged: integer('stats_days_averaged').notNull().default(7),
    /** Where Bitcoin payments go, and what invoices print as seller and bank details. */
    bitcoinAddress: text('bitcoin_address').notNull().default('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'),
    sellerDetails: text('seller_details')
      .notNull()
      .default('Helium Ads SAS\n10 rue de la Paix\n75002 Paris, France\nVAT FR00123456789'),
    bankDetails: text('bank_details').notNull().default('IBAN FR76 3000 6000 0112 3456 7890 189\nBIC AGRIFRPP'),
    /** A payment that arrives for a sale cancelled meanwhile: credited (the money was taken), or refunded. */
    latePaymentAction: text('late_payment_action', { enum: LATE_PAYMENT_ACTIONS })
      .notNull()
      .default(DEFAULT_LATE_PAYMENT_ACTION),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id),
  },
  (table) => [check('network_settings_late_payment_action', sql`${table.latePaymentAction} in ('credit', 'refund')`)],
);
