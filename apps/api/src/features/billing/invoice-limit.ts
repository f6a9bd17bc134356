import { and, asc, eq, sql } from 'drizzle-orm';
import { advertisers, sales, type Database } from '@helium/db';
import {
  exceedsInvoiceLimit,
  formatDate,
  formatMicros,
  invoiceLimit,
  isOverdue,
  microsToEuros,
  type Locale,
} from '@helium/domain';
import { formatSaleAmount } from '@helium/domain/invoice';
import type { TAdvertiserOutstanding } from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { invoiceNumberOf } from '../billing-documents/documents.ts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';

/*
 * The ceiling of unpaid invoices (docs/billing.md): an advertiser's unpaid invoices may add up to its own limit, or
 * by default 10 times the network's minimum order of direct billing. A purchase on invoice locks the advertiser's
 * row first, so that concurrent purchases are counted one after the other and cannot pass the ceiling together.
 */

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Locks the advertiser's row for the transaction that issues an invoice, and answers its own limit (null: default). */
export async function lockAdvertiserInvoices(
  tx: Transaction,
  advertiserId: number,
): Promise<{ ownLimit: number | null }> {
  const [row] = await tx
    .select({ invoiceLimit: advertisers.invoiceLimit })
    .from(advertisers)
    .where(eq(advertisers.id, advertiserId))
    .for('update');
  if (!row) throw new Error('The buyer does not exist');
  return { ownLimit: row.invoiceLimit };
}

/** What the advertiser's unpaid invoices add up to, in micro-euros. */
async function outstandingOf(tx: Transaction, advertiserId: number): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${sales.amount}), 0)` })
    .from(sales)
    .where(and(eq(sales.advertiserId, advertiserId), eq(sales.method, 'invoice'), eq(sales.state, 'unpaid')));
  return Number(row?.total ?? 0);
}

/** Refuses (409) an invoice of `amount` that would take the advertiser's unpaid invoices beyond its ceiling. */
export async function requireInvoiceRoom(
  tx: Transaction,
  request: { advertiserId: number; ownLimit: number | null; billToPayMinOrder: number; amount: number; locale: Locale },
): Promise<void> {
  const limit = invoiceLimit(request.ownLimit, request.billToPayMinOrder);
  const outstanding = await outstandingOf(tx, request.advertiserId);
  if (!exceedsInvoiceLimit(outstanding, request.amount, limit)) return;
  const money = (micros: number) => formatMicros(micros, { locale: request.locale });
  const total = money(outstanding + request.amount);
  const message =
    request.locale === 'fr'
      ? `Avec cette facture, vos factures impayées atteindraient ${total}, au-delà de votre plafond de ${money(limit)} (impayé à ce jour\u202f: ${money(outstanding)}). Réglez une facture ouverte ou payez par carte.`
      : `With this invoice your unpaid invoices would come to ${total}, above your limit of ${money(limit)} (unpaid today: ${money(outstanding)}). Pay an open invoice, or pay by card.`;
  throw new HttpError(409, 'invoiceLimitReached', message);
}

/** How many unpaid invoices the admin's list holds at most. */
const OUTSTANDING_ROWS = 2000;

/**
 * Each advertiser that owes unpaid invoices, most owed first: the total against its ceiling, and the invoices,
 * those past their due date (30 days) marked overdue.
 */
export async function listOutstandingInvoices(
  db: Database,
  locale: Locale,
  now: Date,
): Promise<TAdvertiserOutstanding[]> {
  const settings = await latestNetworkSettings(db);
  const rows = await db
    .select({ sale: sales, brand: advertisers.brand, ownLimit: advertisers.invoiceLimit })
    .from(sales)
    .innerJoin(advertisers, eq(advertisers.id, sales.advertiserId))
    .where(and(eq(sales.method, 'invoice'), eq(sales.state, 'unpaid')))
    .orderBy(asc(sales.dueAt), asc(sales.id))
    .limit(OUTSTANDING_ROWS);
  const money = (micros: number) => formatMicros(micros, { locale });
  const byAdvertiser = new Map<number, { brand: string; ownLimit: number | null; rows: typeof rows }>();
  for (const row of rows) {
    const entry = byAdvertiser.get(row.sale.advertiserId) ?? { brand: row.brand, ownLimit: row.ownLimit, rows: [] };
    entry.rows.push(row);
    byAdvertiser.set(row.sale.advertiserId, entry);
  }
  const list = [...byAdvertiser].map(([advertiserId, entry]) => {
    const overdueOf = (sale: (typeof rows)[number]['sale']) =>
      isOverdue({ state: sale.state, dueAt: sale.dueAt?.getTime() ?? null }, now.getTime());
    const outstanding = entry.rows.reduce((sum, row) => sum + row.sale.amount, 0);
    const overdue = entry.rows.filter((row) => overdueOf(row.sale));
    const limit = invoiceLimit(entry.ownLimit, settings.billToPayMinOrder);
    return {
      advertiserId,
      brand: entry.brand,
      outstanding: microsToEuros(outstanding),
      outstandingStr: money(outstanding),
      limitStr: money(limit),
      isDefaultLimit: entry.ownLimit === null,
      isOverLimit: outstanding > limit,
      overdueCount: overdue.length,
      overdueStr: money(overdue.reduce((sum, row) => sum + row.sale.amount, 0)),
      invoices: entry.rows.map(({ sale }) => ({
        saleId: sale.id,
        invoiceNumber: invoiceNumberOf(sale),
        amountStr: formatSaleAmount(sale.amountInCurrency, sale.currency, locale),
        dueAtStr: sale.dueAt ? formatDate(sale.dueAt, locale) : '',
        isOverdue: overdueOf(sale),
      })),
    };
  });
  return list.sort((a, b) => b.outstanding - a.outstanding || a.brand.localeCompare(b.brand));
}
