import {
  bigint,
  boolean,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/*
 * What keeps the money checkable (docs/payouts.md, docs/admin.md "Money audit"): each account's balance, kept by
 * the database with every ledger entry, and the runs of the money audit.
 */

/**
 * Each ledger account's balance, the sum of its `ledger_entries`. Kept by the database only: a trigger on
 * `ledger_entries` adds each inserted entry's amount in the same statement (migration 0018), and the ledger
 * refuses updates and deletes, so no writer, present or future, can forget it. Read instead of summing the ledger
 * (Admin Stats, payouts); the money audit compares the two.
 */
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    accountType: text('account_type', { enum: ['publisher', 'advertiser', 'salesRep', 'company'] }).notNull(),
    accountId: integer('account_id').notNull(),
    /** Micro-euros: the sum of the account's entries. */
    balance: bigint('balance', { mode: 'number' }).notNull(),
    /** The newest entry counted. */
    lastEntryId: bigint('last_entry_id', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountType, table.accountId] })],
);

/** One run of the money audit: when, why, and each check's outcome with its offending rows (bounded). */
export const moneyAuditRuns = pgTable(
  'money_audit_runs',
  {
    id: serial('id').primaryKey(),
    /** `schedule` (the daily job) or `admin` (Run now). */
    trigger: text('trigger', { enum: ['schedule', 'admin'] }).notNull(),
    requestedBy: integer('requested_by').references(() => users.id),
    ok: boolean('ok').notNull(),
    /** [{ name, ok, count, rows }], as the contract's ZMoneyAuditCheckSchema; json, not jsonb, keeps each row's
     *  columns in the order the check wrote them. */
    checks: json('checks').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
  },
  (table) => [index('money_audit_runs_started_idx').on(table.startedAt)],
);
