import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { publishers } from './accounts.ts';
import { users } from './users.ts';

/*
 * Money out (docs/payouts.md). A payout debits the publisher's whole balance (a ledger entry of kind payout);
 * marked paid it stays so, returned it is reversed by a new entry (payoutReturned). The database makes a publisher
 * hold at most one pending payout (the partial unique index).
 */

/** A publisher's payout details per method: bitcoin { address }, paypal { email }, wire { bankName, bic, ... }. */
export const payoutMethods = pgTable(
  'payout_methods',
  {
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    method: text('method', { enum: ['bitcoin', 'paypal', 'wire'] }).notNull(),
    details: jsonb('details').notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.publisherId, table.method] })],
);

export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    method: text('method', { enum: ['bitcoin', 'paypal', 'wire'] }).notNull(),
    currency: text('currency', { enum: ['eur', 'usd', 'btc'] }).notNull(),
    state: text('state', { enum: ['pending', 'paid', 'returned'] }).notNull(),
    /** The balance debited, the transfer fee, and what is sent: micro-euros; in its currency micro-units. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    transferFee: bigint('transfer_fee', { mode: 'number' }).notNull().default(0),
    amountInCurrency: bigint('amount_in_currency', { mode: 'number' }).notNull(),
    /** Euros per dollar or per bitcoin used; null for euros. */
    rate: text('rate'),
    /** The method's details when asked (where the money goes), so a later change does not redirect it. */
    details: jsonb('details').notNull(),
    /** The debit in the publisher's ledger. */
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }),
    /** The admin's transfer reference (paid) or the reason it came back (returned). */
    reference: text('reference'),
    reason: text('reason'),
    requestedBy: integer('requested_by').references(() => users.id),
    decidedBy: integer('decided_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    index('payouts_publisher_idx').on(table.publisherId, table.createdAt),
    uniqueIndex('payouts_one_pending_per_publisher')
      .on(table.publisherId)
      .where(sql`${table.state} = 'pending'`),
  ],
);
