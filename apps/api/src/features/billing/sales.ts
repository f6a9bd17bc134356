import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import {
  advertisers,
  auditLog,
  couponRedemptions,
  invoiceNumbers,
  ledgerEntries,
  sales,
  type Database,
} from '@helium/db';
import { DAY_MS, INVOICE_PAYMENT_DAYS, type PaymentCurrency } from '@helium/domain';
import { HttpError, notFound } from '../../http/errors.ts';
import { addCredits } from './credits-ledger.ts';
import { charge, checkedQuantity, type PurchaseContext } from './purchase.ts';

export type SaleRow = typeof sales.$inferSelect;
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/*
 * The life of a sale (docs/billing.md). Every state change is a compare-and-set on the sale's row, so two
 * deliveries of one webhook, or two admins pressing Confirm, change it once: the second finds it moved and
 * adds nothing. The credits and the money move in the same transaction as the state.
 */

export interface NewSale {
  context: PurchaseContext;
  advertiserId: number;
  userId: number;
  method: SaleRow['method'];
  currency: PaymentCurrency;
  quantity: number;
  billingInformation: string | null;
  now: Date;
}

/** Records a sale priced by the server. Direct billing credits at once and numbers its invoice (in one transaction). */
export async function createSale(db: Database, sale: NewSale): Promise<SaleRow> {
  const quantity = checkedQuantity(sale.context, sale.quantity);
  const priced = charge(sale.context, quantity, sale.currency);
  const { campaign, coupon } = sale.context;
  return db.transaction(async (tx) => {
    const isInvoice = sale.method === 'invoice';
    const [created] = await tx
      .insert(sales)
      .values({
        advertiserId: sale.advertiserId,
        campaignId: campaign.id,
        method: sale.method,
        state: isInvoice ? 'unpaid' : 'pending',
        quantity,
        isCpc: campaign.isCpc,
        fullPrice: priced.breakdown.full,
        discountBp: priced.discountBp,
        amount: priced.amount,
        currency: sale.currency,
        amountInCurrency: priced.amountInCurrency,
        rate: priced.rate,
        couponId: coupon?.couponId ?? null,
        invoiceNumber: isInvoice ? await nextInvoiceNumber(tx) : null,
        billingInformation: sale.billingInformation,
        dueAt: isInvoice ? new Date(sale.now.getTime() + INVOICE_PAYMENT_DAYS * DAY_MS) : null,
        createdBy: sale.userId,
        createdAt: sale.now,
      })
      .returning();
    if (!created) throw new Error('The sale was not recorded');
    if (isInvoice) await creditSale(tx, created, sale.now, sale.userId);
    return created;
  });
}

/** The next invoice number, taken in the transaction that issues the invoice: a rollback gives it back (no gap). */
async function nextInvoiceNumber(tx: Transaction): Promise<number> {
  const [row] = await tx
    .update(invoiceNumbers)
    .set({ lastNumber: sql`${invoiceNumbers.lastNumber} + 1` })
    .where(eq(invoiceNumbers.id, 1))
    .returning({ number: invoiceNumbers.lastNumber });
  if (!row) throw new Error('invoice_numbers has no row (migration 0010 inserts it)');
  return row.number;
}

/** A sale's credits, its money in the advertiser's ledger, and the coupon it used: once (unique indexes). */
async function creditSale(tx: Transaction, sale: SaleRow, now: Date, userId: number | null): Promise<void> {
  await addCredits(tx, {
    campaignId: sale.campaignId,
    isCpc: sale.isCpc,
    kind: 'purchase',
    quantity: sale.quantity,
    saleId: sale.id,
    note: `${sale.method} sale ${sale.id}`,
    createdBy: userId,
    createdAt: now,
  });
  await tx.insert(ledgerEntries).values({
    accountType: 'advertiser',
    accountId: sale.advertiserId,
    kind: 'purchase',
    amount: sale.amount,
    note: `${sale.method} sale ${sale.id}`,
    createdBy: userId,
    createdAt: now,
  });
  if (sale.couponId !== null) {
    await tx
      .update(couponRedemptions)
      .set({ saleId: sale.id })
      .where(
        and(
          eq(couponRedemptions.couponId, sale.couponId),
          eq(couponRedemptions.advertiserId, sale.advertiserId),
          isNull(couponRedemptions.saleId),
        ),
      );
  }
}

/** Moves a sale from one state to another, or answers null when it was not in that state (someone was first). */
async function moveSale(
  tx: Transaction,
  where: { saleId?: number; stripeSessionId?: string },
  from: SaleRow['state'],
  to: Partial<SaleRow>,
): Promise<SaleRow | null> {
  const match =
    where.saleId !== undefined ? eq(sales.id, where.saleId) : eq(sales.stripeSessionId, where.stripeSessionId!);
  const [moved] = await tx
    .update(sales)
    .set(to)
    .where(and(match, eq(sales.state, from)))
    .returning();
  return moved ?? null;
}

export async function findSale(db: Database, saleId: number): Promise<SaleRow | null> {
  const [row] = await db.select().from(sales).where(eq(sales.id, saleId));
  return row ?? null;
}

export async function findSaleBySession(db: Database, sessionId: string): Promise<SaleRow | null> {
  const [row] = await db.select().from(sales).where(eq(sales.stripeSessionId, sessionId));
  return row ?? null;
}

/** Links a card sale to its Checkout Session (the session's id is unique to one sale). */
export async function attachCheckoutSession(db: Database, saleId: number, sessionId: string): Promise<void> {
  await db
    .update(sales)
    .set({ stripeSessionId: sessionId })
    .where(and(eq(sales.id, saleId), isNull(sales.stripeSessionId)));
}

export type CardPaymentOutcome = 'credited' | 'alreadyCredited' | 'unknownSession' | 'amountMismatch';

/**
 * A Checkout Session was paid (Stripe's webhook, or the local test checkout): the sale becomes paid and its
 * credits are added, exactly once whatever the number of deliveries. `paid` is what Stripe says was charged, in
 * the currency's cents: a session whose amount is not the sale's is left pending for an admin, and logged.
 */
export async function completeCardSale(
  db: Database,
  sessionId: string,
  paid: { amountTotal: number | null; currency: string | null },
  now: Date,
): Promise<{ outcome: CardPaymentOutcome; sale: SaleRow | null }> {
  const known = await findSaleBySession(db, sessionId);
  if (!known || known.method !== 'card') return { outcome: 'unknownSession', sale: null };
  if (paid.amountTotal !== null && paid.amountTotal !== centsOf(known.amountInCurrency)) {
    return { outcome: 'amountMismatch', sale: known };
  }
  if (paid.currency !== null && paid.currency.toLowerCase() !== known.currency) {
    return { outcome: 'amountMismatch', sale: known };
  }
  return db.transaction(async (tx) => {
    const sale = await moveSale(tx, { stripeSessionId: sessionId }, 'pending', { state: 'paid', paidAt: now });
    if (!sale) return { outcome: 'alreadyCredited' as const, sale: known };
    await creditSale(tx, sale, now, null);
    return { outcome: 'credited' as const, sale };
  });
}

/** Micro-units of a currency in its cents (what Stripe counts in). */
export function centsOf(microUnits: number): number {
  return Math.round(microUnits / 10_000);
}

export interface AdminAction {
  userId: number;
  ip: string | null;
  now: Date;
}

/**
 * An admin confirms a payment: a pending Bitcoin sale is credited now, an unpaid invoice (credited when issued)
 * becomes paid. Card sales are confirmed by Stripe only. Audited.
 */
export async function confirmSale(db: Database, saleId: number, admin: AdminAction): Promise<SaleRow> {
  const sale = await findSale(db, saleId);
  if (!sale) throw notFound('This sale does not exist.');
  const from = sale.method === 'bitcoin' ? 'pending' : sale.method === 'invoice' ? 'unpaid' : null;
  if (!from) throw new HttpError(409, 'cardSale', 'Card payments are confirmed by the card processor.');
  return db.transaction(async (tx) => {
    const moved = await moveSale(tx, { saleId }, from, { state: 'paid', paidAt: admin.now });
    if (!moved) throw new HttpError(409, 'saleNotAwaitingPayment', 'This sale is not awaiting payment.');
    if (moved.method === 'bitcoin') await creditSale(tx, moved, admin.now, admin.userId);
    await audit(tx, admin, 'sale.confirm', moved);
    return moved;
  });
}

/**
 * An admin cancels a sale that is not paid: a pending sale had credited nothing; an unpaid invoice's credits and
 * money are reversed by new entries (what was already delivered cannot be taken back). Audited.
 */
export async function cancelSale(db: Database, saleId: number, admin: AdminAction): Promise<SaleRow> {
  const sale = await findSale(db, saleId);
  if (!sale) throw notFound('This sale does not exist.');
  if (sale.state !== 'pending' && sale.state !== 'unpaid') {
    throw new HttpError(409, 'saleNotAwaitingPayment', 'Only a sale awaiting payment can be cancelled.');
  }
  return db.transaction(async (tx) => {
    const moved = await moveSale(tx, { saleId }, sale.state, { state: 'cancelled', cancelledAt: admin.now });
    if (!moved) throw new HttpError(409, 'saleNotAwaitingPayment', 'This sale is not awaiting payment.');
    if (sale.state === 'unpaid') {
      await addCredits(tx, {
        campaignId: moved.campaignId,
        isCpc: moved.isCpc,
        kind: 'cancellation',
        quantity: -moved.quantity,
        saleId: moved.id,
        note: `invoice ${moved.invoiceNumber ?? ''} cancelled`,
        createdBy: admin.userId,
        createdAt: admin.now,
      });
      const [purchase] = await tx
        .select({ id: ledgerEntries.id })
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.accountType, 'advertiser'),
            eq(ledgerEntries.accountId, moved.advertiserId),
            eq(ledgerEntries.kind, 'purchase'),
            eq(ledgerEntries.note, `${moved.method} sale ${moved.id}`),
          ),
        );
      await tx.insert(ledgerEntries).values({
        accountType: 'advertiser',
        accountId: moved.advertiserId,
        kind: 'reversal',
        amount: -moved.amount,
        reversesId: purchase?.id ?? null,
        note: `${moved.method} sale ${moved.id} cancelled`,
        createdBy: admin.userId,
        createdAt: admin.now,
      });
    }
    await audit(tx, admin, 'sale.cancel', moved);
    return moved;
  });
}

async function audit(tx: Transaction, admin: AdminAction, action: string, sale: SaleRow) {
  await tx.insert(auditLog).values({
    actorUserId: admin.userId,
    action,
    targetType: 'sale',
    targetId: sale.id,
    details: { method: sale.method, amount: sale.amount, currency: sale.currency, quantity: sale.quantity },
    ip: admin.ip,
    createdAt: admin.now,
  });
}

/** A sale with its advertiser's brand, as the admin's screen shows it. */
export async function findSaleWithBrand(
  db: Database,
  saleId: number,
): Promise<{ sale: SaleRow; brand: string } | null> {
  const [row] = await db
    .select({ sale: sales, brand: advertisers.brand })
    .from(sales)
    .innerJoin(advertisers, eq(advertisers.id, sales.advertiserId))
    .where(eq(sales.id, saleId));
  return row ?? null;
}

export type SaleFilter = 'toConfirm' | 'pending' | 'unpaid' | 'paid' | 'cancelled' | 'all';

/** Sales for the admin's payments screen, newest first; `toConfirm` = pending Bitcoin sales and unpaid invoices. */
export async function listSales(db: Database, filter: SaleFilter): Promise<Array<{ sale: SaleRow; brand: string }>> {
  const condition =
    filter === 'all'
      ? undefined
      : filter === 'toConfirm'
        ? or(and(eq(sales.method, 'bitcoin'), eq(sales.state, 'pending')), eq(sales.state, 'unpaid'))
        : eq(sales.state, filter);
  return db
    .select({ sale: sales, brand: advertisers.brand })
    .from(sales)
    .innerJoin(advertisers, eq(advertisers.id, sales.advertiserId))
    .where(condition)
    .orderBy(desc(sales.createdAt), desc(sales.id))
    .limit(500);
}
