import { and, desc, eq, sql } from 'drizzle-orm';
import {
  ledgerBalances,
  ledgerEntries,
  payoutMethods,
  payouts,
  publishers,
  type Database,
  type networkSettings,
} from '@helium/db';
import { formatDate, microsToEuros, type Locale } from '@helium/domain';
import { formatAmountInCurrency } from '@helium/domain/invoice';
import { ledgerNoteText } from '@helium/domain/ledger-notes';
import {
  PAYOUT_METHODS,
  payoutFlags,
  type PayoutFacts,
  type PayoutMethod,
  type TransferFees,
} from '@helium/domain/payouts';
import type { TAccounting, TTransaction } from '@helium/contracts';
import { notFound } from '../../http/errors.ts';

/*
 * The publisher's Accounting (specification 02, sections 2.5 and 3; docs/decisions.md section 6): the balance is
 * the sum of the publisher's ledger, the transactions are its entries with the balance after each, and the payout
 * flags come from the domain's rules.
 */

/** A transaction or the database: the payout request reads inside the transaction that moves the money. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

export type PublisherRow = typeof publishers.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type SettingsRow = typeof networkSettings.$inferSelect;
/** A method's details as stored: bitcoin { address }, paypal { email }, wire { bankName, bic, iban, ... }. */
export type PayoutDetails = Record<string, string>;

export const isPayoutMethod = (value: string): value is PayoutMethod =>
  (PAYOUT_METHODS as readonly string[]).includes(value);

export const transferFeesOf = (settings: SettingsRow): TransferFees => ({
  paypalEur: settings.transferFeePaypalEur,
  wireEur: settings.transferFeeWireEur,
});

/** A stored details object with every value as text (what the screens and the admin list show). */
export function detailsAsText(details: unknown): PayoutDetails {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return {};
  return Object.fromEntries(
    Object.entries(details as Record<string, unknown>).map(([key, value]) => [key, value == null ? '' : String(value)]),
  );
}

/** What a payout of this publisher depends on, besides its balance. */
export interface PayoutSetup {
  publisher: PublisherRow;
  minBalanceForPayout: number;
  authorizedMethods: PayoutMethod[];
  /** The methods with details, in the order of PAYOUT_METHODS. */
  configured: Map<PayoutMethod, PayoutDetails>;
  pending: PayoutRow | null;
}

/** The publisher row, locked `FOR UPDATE` when asked (the payout request and the admin's decision). */
export async function findPublisher(ex: Executor, publisherId: number, lock = false): Promise<PublisherRow> {
  const query = ex.select().from(publishers).where(eq(publishers.id, publisherId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('This publisher does not exist.');
  return row;
}

export async function payoutSetup(ex: Executor, publisher: PublisherRow, settings: SettingsRow): Promise<PayoutSetup> {
  const methods = await ex
    .select({ method: payoutMethods.method, details: payoutMethods.details })
    .from(payoutMethods)
    .where(eq(payoutMethods.publisherId, publisher.id));
  const [pending] = await ex
    .select()
    .from(payouts)
    .where(and(eq(payouts.publisherId, publisher.id), eq(payouts.state, 'pending')))
    .limit(1);
  const stored = new Map(methods.map((row) => [row.method, detailsAsText(row.details)]));
  const configured = new Map<PayoutMethod, PayoutDetails>();
  for (const method of PAYOUT_METHODS) {
    const details = stored.get(method);
    if (details) configured.set(method, details);
  }
  return {
    publisher,
    minBalanceForPayout: publisher.minBalanceForPayout ?? settings.minBalanceForPayout,
    authorizedMethods: PAYOUT_METHODS.filter((method) => publisher.authorizedPayoutMethods.includes(method)),
    configured,
    pending: pending ?? null,
  };
}

export function payoutFacts(setup: PayoutSetup, balance: number): PayoutFacts {
  return {
    balance,
    minBalanceForPayout: setup.minBalanceForPayout,
    authorizedMethods: setup.authorizedMethods,
    configuredMethods: [...setup.configured.keys()],
    hasPendingPayout: setup.pending !== null,
  };
}

/**
 * The publisher's balance, the sum of its ledger entries (micro-euros), as the database keeps it with each entry
 * (`ledger_balances`, migration 0018): committed entries only, like the sum it replaces. The payout's debit, inserted
 * next in the same transaction, moves it under the row's lock, so a revenue entry posted meanwhile stays in it.
 */
export async function publisherBalance(ex: Executor, publisherId: number): Promise<number> {
  const [row] = await ex
    .select({ balance: ledgerBalances.balance })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.accountType, 'publisher'), eq(ledgerBalances.accountId, publisherId)));
  return Number(row?.balance ?? 0);
}

const TYPE_TEXTS: Record<Locale, Record<string, string>> = {
  en: { revenue: 'Revenue', payout: 'Payout', payoutReturned: 'Payout returned', adjustment: 'Adjustment' },
  fr: { revenue: 'Revenus', payout: 'Versement', payoutReturned: 'Versement retourné', adjustment: 'Ajustement' },
};

export const entryTypeText = (kind: string, locale: Locale) =>
  TYPE_TEXTS[locale]?.[kind] ?? TYPE_TEXTS.en[kind] ?? kind;

interface LedgerLine {
  id: number;
  kind: string;
  amount: number;
  day: string | null;
  impressions: number;
  note: string | null;
  createdAt: Date;
  balance: number;
}

/** The publisher's ledger, newest first, each entry with the balance after it (in the order entries were written). */
export async function ledgerLines(ex: Executor, publisherId: number): Promise<LedgerLine[]> {
  const rows = await ex
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      amount: ledgerEntries.amount,
      day: ledgerEntries.day,
      impressions: ledgerEntries.impressions,
      note: ledgerEntries.note,
      createdAt: ledgerEntries.createdAt,
      balance:
        sql<string>`sum(${ledgerEntries.amount}) over (order by ${ledgerEntries.createdAt}, ${ledgerEntries.id})`.mapWith(
          Number,
        ),
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.accountType, 'publisher'), eq(ledgerEntries.accountId, publisherId)))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id));
  return rows.map((row) => ({ ...row, amount: Number(row.amount), balance: Number(row.balance) }));
}

export function transactionView(line: LedgerLine, locale: Locale): TTransaction {
  return {
    id: line.id,
    dayStr: formatDate(line.day ?? line.createdAt, locale),
    amount: microsToEuros(line.amount),
    impressions: line.impressions,
    type: line.kind,
    typeStr: entryTypeText(line.kind, locale),
    note: line.note === null ? null : ledgerNoteText(line.note, locale),
    balance: microsToEuros(line.balance),
  };
}

const signOf = (micros: number) => (micros > 0 ? 'positive' : micros < 0 ? 'negative' : 'zero');

/** POST /api/publisher/get-accounting: the publisher's ledger, balance and what it may be paid by now. */
export async function accountingView(
  db: Database,
  publisherId: number,
  settings: SettingsRow,
  locale: Locale,
): Promise<TAccounting> {
  const publisher = await findPublisher(db, publisherId);
  const setup = await payoutSetup(db, publisher, settings);
  const lines = await ledgerLines(db, publisherId);
  // One read gives both: the balance is the newest line's running balance, the sum of every entry.
  const balance = lines.reduce((sum, line) => sum + line.amount, 0);
  const totalRevenues = lines.filter((line) => line.kind === 'revenue').reduce((sum, line) => sum + line.amount, 0);
  const flags = payoutFlags(payoutFacts(setup, balance));
  const { pending } = setup;
  return {
    publisher: {
      id: publisher.id,
      brand: publisher.brand,
      is_installed: publisher.isInstalled,
      payout_bitcoin: setup.configured.get('bitcoin')?.address || null,
      payout_paypal: setup.configured.get('paypal')?.email || null,
      canPayoutBitcoin: flags.canPayoutBitcoin,
      canPayoutPaypal: flags.canPayoutPaypal,
      canPayoutWire: flags.canPayoutWire,
    },
    totalRevenues: microsToEuros(totalRevenues),
    balance: microsToEuros(balance),
    balanceSign: signOf(balance),
    transferFees: {
      paypal: microsToEuros(settings.transferFeePaypalEur),
      wire: microsToEuros(settings.transferFeeWireEur),
    },
    ...flags,
    minBalanceForPayout: microsToEuros(setup.minBalanceForPayout),
    authorizedPayoutMethods: setup.authorizedMethods,
    configuredPayoutMethods: [...setup.configured.keys()],
    pendingPayout: pending
      ? {
          id: pending.id,
          method: pending.method,
          currency: pending.currency,
          amountStr: formatAmountInCurrency(pending.amountInCurrency, pending.currency, locale),
          createdAtStr: formatDate(pending.createdAt, locale),
        }
      : null,
    usd_to_eur: settings.usdToEur,
    btc_to_eur: settings.btcToEur,
    transactions: lines.map((line) => transactionView(line, locale)),
  };
}
