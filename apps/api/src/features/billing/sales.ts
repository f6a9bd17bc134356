import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { advertisers, auditLog, invoiceNumbers, ledgerEntries, sales, type Database } from '@helium/db';
import { DAY_MS, INVOICE_PAYMENT_DAYS, type Locale, type PaymentCurrency } from '@helium/domain';
import { HttpError, notFound } from '../../http/errors.ts';
import { claimCoupon, releaseCoupon } from './coupons.ts';
import { addCredits } from './credits-ledger.ts';
import { lockAdvertiserInvoices, requireInvoiceRoom } from './invoice-limit.ts';
import { charge, checkedQuantity, type PendingCoupon, type PurchaseContext } from './purchase.ts';

export type SaleRow = typeof sales.$inferSelect;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

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
  /** The buyer's language, for a refusal's message (the invoice ceiling). */
  locale: Locale;
  now: Date;
}

/** What became of the advertiser's percent-off coupon: claimed by this sale, or held by another (full price). */
export interface CouponUse {
  claimed: PendingCoupon | null;
  held: PendingCoupon | null;
}

/**
 * Records a sale priced by the server, in one transaction: its id is taken first so that it can claim the waiting
 * coupon (a conditional update: of purchases priced at once, one gets it, the others pay full price and say why).
 * Direct billing is refused beyond the advertiser's ceiling of unpaid invoices (its row locked, so concurrent
 * purchases are counted one after the other), credits at once and numbers its invoice.
 */
export async function createSale(db: Database, sale: NewSale): Promise<{ sale: SaleRow; coupon: CouponUse }> {
  const quantity = checkedQuantity(sale.context, sale.quantity);
  const { campaign } = sale.context;
  return db.transaction(async (tx) => {
    const isInvoice = sale.method === 'invoice';
    const invoiceCeiling = isInvoice ? await lockAdvertiserInvoices(tx, sale.advertiserId) : null;
    const id = await reserveSaleId(tx);
    const offered = sale.context.coupon;
    const claimed = offered !== null && (await claimCoupon(tx, offered.redemptionId, id)) ? offered : null;
    const coupon: CouponUse = { claimed, held: claimed ? null : (offered ?? sale.context.heldCoupon) };
    const priced = charge({ ...sale.context, coupon: claimed }, quantity, sale.currency);
    if (invoiceCeiling) {
      await requireInvoiceRoom(tx, {
        advertiserId: sale.advertiserId,
        ownLimit: invoiceCeiling.ownLimit,
        billToPayMinOrder: sale.context.settings.billToPayMinOrder,
        amount: priced.amount,
        locale: sale.locale,
      });
    }
    const [created] = await tx
      .insert(sales)
      .values({
        id,
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
        couponId: claimed?.couponId ?? null,
        invoiceNumber: isInvoice ? await nextInvoiceNumber(tx) : null,
        billingInformation: sale.billingInformation,
        dueAt: isInvoice ? new Date(sale.now.getTime() + INVOICE_PAYMENT_DAYS * DAY_MS) : null,
        createdBy: sale.userId,
        createdAt: sale.now,
      })
      .returning();
    if (!created) throw new Error('The sale was not recorded');
    if (isInvoice) await creditSale(tx, created, sale.now, sale.userId);
    return { sale: created, coupon };
  });
}

/** The id the next sale will have, taken before it is recorded (a rollback leaves a gap in sale ids, not invoices). */
async function reserveSaleId(tx: Transaction): Promise<number> {
  const result = (await tx.execute(
    sql`select nextval(pg_get_serial_sequence('sales', 'id'))::int as id`,
  )) as unknown as {
    rows: Array<{ id: number }>;
  };
  const id = result.rows[0]?.id;
  if (typeof id !== 'number') throw new Error('No sale id was reserved');
  return id;
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

/** A sale's credits and its money in the advertiser's ledger: once (the unique index on credits). */
export async function creditSale(tx: Transaction, sale: SaleRow, now: Date, userId: number | null): Promise<void> {
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

export type CardPaymentOutcome =
  | 'credited'
  | 'alreadyCredited'
  | 'unknownSession'
  | 'amountMismatch'
  /** The sale was cancelled (by an admin, or its session expired) before the payment arrived: see late-payments.ts. */
  | 'saleCancelled'
  /** Such a late payment was settled already (credited or refunded). */
  | 'alreadySettled';

/**
 * A Checkout Session was paid (Stripe's webhook, or the local test checkout): the sale becomes paid and its
 * credits are added, exactly once whatever the number of deliveries. `paid` is what Stripe says was charged, in
 * the currency's cents: a session whose amount is not the sale's is left pending for an admin, and logged. A sale
 * cancelled meanwhile is answered `saleCancelled`, for the caller to settle (never dropped).
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
    if (sale) {
      await creditSale(tx, sale, now, null);
      return { outcome: 'credited' as const, sale };
    }
    // Read again: a cancellation that won the row has committed by now.
    const [current] = await tx.select().from(sales).where(eq(sales.id, known.id));
    if (current?.state !== 'cancelled') return { outcome: 'alreadyCredited' as const, sale: current ?? known };
    return {
      outcome: current.latePayment === null ? ('saleCancelled' as const) : ('alreadySettled' as const),
      sale: current,
    };
  });
}

/** Micro-units of a currency in its cents (what Stripe counts in). */
export function centsOf(microUnits: number): number {
  return Math.round(microUnits / 10_000);
}

/** A pending sale becomes cancelled and gives back its coupon; null when it was not pending (someone was first). */
async function cancelPending(
  tx: Transaction,
  where: { saleId?: number; stripeSessionId?: string },
  now: Date,
): Promise<SaleRow | null> {
  const moved = await moveSale(tx, where, 'pending', { state: 'cancelled', cancelledAt: now });
  if (moved) await releaseCoupon(tx, moved.id);
  return moved;
}

/** Stripe says a Checkout Session expired unpaid: its pending sale is cancelled and its coupon given back. */
export async function expireCardSale(db: Database, sessionId: string, now: Date): Promise<SaleRow | null> {
  return db.transaction((tx) => cancelPending(tx, { stripeSessionId: sessionId }, now));
}

/** A card sale whose Checkout Session could not be created: nobody can pay it; kept, cancelled, coupon given back. */
export async function cancelUnstartedCardSale(db: Database, saleId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [unstarted] = await tx
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(sales.id, saleId), isNull(sales.stripeSessionId)));
    if (unstarted) await cancelPending(tx, { saleId }, now);
  });
}

export interface AdminAction {
  userId: number;
  ip: string | null;
  now: Date;
}

/**
 * An admin confirms a payment: a pending Bitcoin sale is credited now, an unpaid invoice (credited when issued)
 * becomes paid. Card sales are confirmed by Stripe only; a payment for a cancelled sale is late-payments.ts's.
 * Audited.
 */
export async function confirmSale(db: Database, sale: SaleRow, admin: AdminAction): Promise<SaleRow> {
  const from = sale.method === 'bitcoin' ? 'pending' : 'unpaid';
  return db.transaction(async (tx) => {
    const moved = await moveSale(tx, { saleId: sale.id }, from, { state: 'paid', paidAt: admin.now });
    if (!moved) throw notAwaitingPayment();
    if (moved.method === 'bitcoin') await creditSale(tx, moved, admin.now, admin.userId);
    await auditSale(tx, admin, 'sale.confirm', moved);
    return moved;
  });
}

export const notAwaitingPayment = () =>
  new HttpError(409, 'saleNotAwaitingPayment', 'This sale is not awaiting payment.');

/**
 * An admin cancels a sale that is not paid: a pending sale had credited nothing; an unpaid invoice's credits and
 * money are reversed by new entries (what was already delivered cannot be taken back). The coupon it claimed comes
 * back. Audited.
 */
export async function cancelSale(db: Database, saleId: number, admin: AdminAction): Promise<SaleRow> {
  const sale = await findSale(db, saleId);
  if (!sale) throw notFound('This sale does not exist.');
  if (sale.state !== 'pending' && sale.state !== 'unpaid') {
    throw new HttpError(409, 'saleNotAwaitingPayment', 'Only a sale awaiting payment can be cancelled.');
  }
  return db.transaction(async (tx) => {
    const moved = await moveSale(tx, { saleId }, sale.state, { state: 'cancelled', cancelledAt: admin.now });
    if (!moved) throw notAwaitingPayment();
    await releaseCoupon(tx, moved.id);
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
    await auditSale(tx, admin, 'sale.cancel', moved);
    return moved;
  });
}

/** The audit row of a change to a sale; `who.userId` null = the card processor (a webhook). */
export async function auditSale(
  tx: Transaction,
  who: { userId: number | null; ip: string | null; now: Date },
  action: string,
  sale: SaleRow,
  more: Record<string, unknown> = {},
) {
  await tx.insert(auditLog).values({
    actorUserId: who.userId,
    action,
    targetType: 'sale',
    targetId: sale.id,
    details: { method: sale.method, amount: sale.amount, currency: sale.currency, quantity: sale.quantity, ...more },
    ip: who.ip,
    createdAt: who.now,
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
