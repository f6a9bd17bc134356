import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { advertisers, campaigns } from './accounts.ts';
import { users } from './users.ts';

/*
 * Money in (docs/billing.md). A sale is one purchase of credits and the state of its payment; the credits it gives
 * and the money it moves are append-only entries (campaign_credits, ledger_entries). The database, not the code,
 * makes a sale credit at most once and numbers invoices without gaps.
 */

/** A coupon an admin created: a percentage off one purchase, or free credits; once per advertiser. */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    /** Stored in capitals; advertisers may type it in any case. */
    code: text('code').notNull(),
    percentOffBp: integer('percent_off_bp'),
    /** Free impressions (impression-priced campaigns) or clicks (click-priced). */
    freeQuantity: bigint('free_quantity', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('coupons_code_unique').on(table.code),
    check('coupons_one_effect', sql`(percent_off_bp is null) <> (free_quantity is null)`),
  ],
);

/**
 * An advertiser's use of a coupon, once per advertiser (the unique index). A percentage coupon waits for a
 * purchase: `sale_id` is the sale that claimed it when it was priced, null while it waits. The claim is a
 * conditional update (`WHERE sale_id IS NULL`), so two purchases priced at once cannot both take it; a sale
 * cancelled or expired gives it back (null again). One sale claims one coupon at most (the second index).
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: serial('id').primaryKey(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    advertiserId: integer('advertiser_id')
      .notNull()
      .references(() => advertisers.id),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    saleId: integer('sale_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('coupon_redemptions_once_per_advertiser').on(table.couponId, table.advertiserId),
    uniqueIndex('coupon_redemptions_sale_unique')
      .on(table.saleId)
      .where(sql`${table.saleId} is not null`),
  ],
);

/**
 * One purchase of credits. Card: pending until Stripe (or the local test checkout) says paid. Bitcoin: pending
 * until an admin confirms the payment (credits then). Invoice: credits at once, unpaid until an admin confirms the
 * transfer. An admin may cancel a pending or unpaid sale; what it credited is reversed by new entries.
 */
export const sales = pgTable(
  'sales',
  {
    id: serial('id').primaryKey(),
    advertiserId: integer('advertiser_id')
      .notNull()
      .references(() => advertisers.id),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    method: text('method', { enum: ['card', 'bitcoin', 'invoice'] }).notNull(),
    state: text('state', { enum: ['pending', 'unpaid', 'paid', 'cancelled'] }).notNull(),
    /** Impressions, or clicks for a click-priced campaign. */
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    isCpc: boolean('is_cpc').notNull(),
    /** The undiscounted price and the discount applied (tiers, coupon, the currency's extra), micro-euros / bp. */
    fullPrice: bigint('full_price', { mode: 'number' }).notNull(),
    discountBp: integer('discount_bp').notNull().default(0),
    /** What is charged, in micro-euros. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['eur', 'usd', 'btc'] }).notNull(),
    /** What is charged in its currency: micro-euros, micro-dollars or pico-bitcoins. */
    amountInCurrency: bigint('amount_in_currency', { mode: 'number' }).notNull(),
    /** The rate used (euros per dollar or per bitcoin); null for euros. */
    rate: text('rate'),
    couponId: integer('coupon_id').references(() => coupons.id),
    /** The Checkout Session (card), unique: a session belongs to one sale. */
    stripeSessionId: text('stripe_session_id'),
    /** Invoice number (direct billing), sequential without gaps (invoice_numbers). */
    invoiceNumber: integer('invoice_number'),
    /** The buyer's billing information when the sale was made (invoices and receipts print it). */
    billingInformation: text('billing_information'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * A payment that arrived after the sale was cancelled (docs/billing.md): credited (the sale is then paid),
     * refunded through Stripe (`refund_id`), or to be refunded by hand; null for any other sale. Set once.
     */
    latePayment: text('late_payment', { enum: ['credited', 'refunded', 'refundByHand'] }),
    latePaymentAt: timestamp('late_payment_at', { withTimezone: true }),
    refundId: text('refund_id'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sales_advertiser_idx').on(table.advertiserId, table.createdAt),
    index('sales_state_idx').on(table.state, table.createdAt),
    uniqueIndex('sales_stripe_session_unique')
      .on(table.stripeSessionId)
      .where(sql`${table.stripeSessionId} is not null`),
    uniqueIndex('sales_invoice_number_unique')
      .on(table.invoiceNumber)
      .where(sql`${table.invoiceNumber} is not null`),
    check(
      'sales_late_payment_kind',
      sql`${table.latePayment} is null or ${table.latePayment} in ('credited', 'refunded', 'refundByHand')`,
    ),
  ],
);

/** The last invoice number given: one row, moved forward in the transaction that issues the invoice. */
export const invoiceNumbers = pgTable('invoice_numbers', {
  id: integer('id').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/**
 * A campaign's credits, append-only: what was bought, granted (trial, coupon, opening balance) or taken back (a
 * cancelled sale). remaining = sum(impressions or clicks here) - what delivery consumed (docs/billing.md has the
 * query that checks it). A sale credits once and is reversed once: the unique indexes.
 */
export const campaignCredits = pgTable(
  'campaign_credits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    /** `reinstatement`: a cancelled invoice paid after all gets its credits back. */
    kind: text('kind', {
      enum: ['opening', 'purchase', 'trial', 'coupon', 'cancellation', 'grant', 'reinstatement'],
    }).notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    saleId: integer('sale_id').references(() => sales.id),
    couponId: integer('coupon_id').references(() => coupons.id),
    note: text('note'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('campaign_credits_campaign_idx').on(table.campaignId),
    uniqueIndex('campaign_credits_sale_once')
      .on(table.saleId, table.kind)
      .where(sql`${table.saleId} is not null`),
    uniqueIndex('campaign_credits_coupon_once')
      .on(table.campaignId, table.couponId)
      .where(sql`${table.couponId} is not null`),
  ],
);
