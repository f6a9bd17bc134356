import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { advertisers, campaignCredits, ledgerEntries, sales, users, type Database } from '@helium/db';
import { latePaymentOutcome, type LatePaymentOutcome, type Locale } from '@helium/domain';
import { formatSaleAmount } from '@helium/domain/invoice';
import { HttpError, notFound } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';
import type { Mailer } from '../../infra/mailer.ts';
import { quantityText } from '../billing-documents/texts.ts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';
import { reclaimCoupon } from './coupons.ts';
import { addCredits } from './credits-ledger.ts';
import { latePaymentMail } from './late-payment-mail.ts';
import {
  auditSale,
  confirmSale,
  creditSale,
  findSale,
  notAwaitingPayment,
  type AdminAction,
  type SaleRow,
  type Transaction,
} from './sales.ts';

/*
 * A payment that arrives for a sale cancelled meanwhile (an admin cancelled it, or its Checkout Session expired) is
 * never dropped (docs/billing.md): the money was taken, so the campaign is credited, unless the network setting
 * `latePaymentAction` says refund (through Stripe for a card, by hand otherwise). Either way the sale's row records it
 * once (a compare-and-set on `late_payment IS NULL`), the audit log says so and every admin is e-mailed.
 */

export interface LatePaymentDeps {
  db: Database;
  mailer: Mailer;
  hashIds: HashIds;
  log: FastifyBaseLogger;
  appUrl: string;
}

/**
 * Refunds a card payment through the card processor and answers the refund's id. Called with the same idempotency
 * key by every delivery of the event, so concurrent or repeated deliveries make one refund.
 */
export type ProcessorRefund = () => Promise<string>;

export interface SettledLatePayment {
  outcome: LatePaymentOutcome;
  sale: SaleRow;
}

/**
 * Settles a payment for a cancelled sale, once: null when it was settled already (another delivery, another admin).
 * A refund through the processor is made before the row is marked, so that a failure leaves the sale as it was and
 * the event is delivered again.
 */
export async function settleLatePayment(
  deps: LatePaymentDeps,
  sale: SaleRow,
  options: { now: Date; admin: AdminAction | null; refund: ProcessorRefund | null },
): Promise<SettledLatePayment | null> {
  if (sale.state !== 'cancelled' || sale.latePayment !== null) return null;
  const { now } = options;
  const settings = await latestNetworkSettings(deps.db);
  const outcome = latePaymentOutcome(settings.latePaymentAction, sale.method, options.refund !== null);
  const refundId = outcome === 'refunded' ? await options.refund!() : null;
  const who = { userId: options.admin?.userId ?? null, ip: options.admin?.ip ?? null, now };
  const settled = await deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(sales)
      .set(
        outcome === 'credited'
          ? { state: 'paid', paidAt: now, latePayment: outcome, latePaymentAt: now }
          : { latePayment: outcome, latePaymentAt: now, refundId },
      )
      .where(and(eq(sales.id, sale.id), eq(sales.state, 'cancelled'), isNull(sales.latePayment)))
      .returning();
    if (!moved) return null;
    const couponTakenAgain = outcome === 'credited' ? await creditLatePayment(tx, moved, who) : null;
    await auditSale(tx, who, 'sale.latePayment', moved, {
      outcome,
      refundId,
      cancelledAt: moved.cancelledAt?.toISOString() ?? null,
      ...(moved.couponId !== null && couponTakenAgain !== null ? { couponTakenAgain } : {}),
    });
    return moved;
  });
  if (!settled) return null;
  await mailAdmins(deps, settled);
  return { outcome, sale: settled };
}

/**
 * The credits and money of a late payment: a Bitcoin or card sale is credited as if paid in time; a cancelled
 * invoice gets back the credits its cancellation reversed (a reinstatement), which may be fewer than it sold. The coupon the sale was priced with is
 * taken again when still free (answers whether it was).
 */
async function creditLatePayment(
  tx: Transaction,
  sale: SaleRow,
  who: { userId: number | null; now: Date },
): Promise<boolean> {
  if (sale.method !== 'invoice') {
    await creditSale(tx, sale, who.now, who.userId);
  } else {
    const note = `invoice sale ${sale.id} paid after cancellation`;
    // What the cancellation took back, not the sale's quantity: what was delivered before it stayed delivered, so
    // giving back the whole quantity would credit those impressions twice (credited must equal the quantity sold).
    const [cancellation] = await tx
      .select({ impressions: campaignCredits.impressions, clicks: campaignCredits.clicks })
      .from(campaignCredits)
      .where(and(eq(campaignCredits.saleId, sale.id), eq(campaignCredits.kind, 'cancellation')));
    // Written even when it gives back nothing (all was delivered before the cancellation), as the cancellation's
    // own entry is: the money audit pairs each reinstatement with its cancellation.
    if (cancellation) {
      const reversed = -(cancellation.impressions + cancellation.clicks);
      await addCredits(tx, {
        campaignId: sale.campaignId,
        isCpc: sale.isCpc,
        kind: 'reinstatement',
        quantity: reversed,
        saleId: sale.id,
        note,
        createdBy: who.userId,
        createdAt: who.now,
      });
    }
    await tx.insert(ledgerEntries).values({
      accountType: 'advertiser',
      accountId: sale.advertiserId,
      kind: 'purchase',
      amount: sale.amount,
      note,
      createdBy: who.userId,
      createdAt: who.now,
    });
  }
  return reclaimCoupon(tx, sale);
}

/** Every admin is told, in the admin's language; a mail that cannot go out is logged, the payment stays settled. */
async function mailAdmins(deps: LatePaymentDeps, sale: SaleRow): Promise<void> {
  const admins = await deps.db
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .where(eq(users.isAdmin, true));
  const [advertiser] = await deps.db
    .select({ brand: advertisers.brand })
    .from(advertisers)
    .where(eq(advertisers.id, sale.advertiserId));
  for (const admin of admins) {
    const locale = admin.locale as Locale;
    try {
      await deps.mailer.send(
        latePaymentMail({
          to: admin.email,
          locale,
          saleId: sale.id,
          reference: deps.hashIds.encodeSale(sale.id),
          brand: advertiser?.brand ?? '',
          method: sale.method,
          amountStr: formatSaleAmount(sale.amountInCurrency, sale.currency, locale),
          quantityStr: quantityText(sale.quantity, sale.isCpc, locale),
          outcome: sale.latePayment!,
          refundId: sale.refundId,
          paymentsUrl: `${deps.appUrl}/admin/payments`,
        }),
      );
    } catch (error) {
      deps.log.error({ err: error, saleId: sale.id }, 'billing: the late-payment mail to an admin could not be sent');
    }
  }
}

/**
 * An admin confirms that a Bitcoin or invoice payment arrived: an awaiting sale is confirmed (sales.ts); a
 * cancelled one is a late payment, settled once (409 when it was already). Card payments are Stripe's to confirm.
 */
export async function confirmPayment(deps: LatePaymentDeps, saleId: number, admin: AdminAction): Promise<SaleRow> {
  const sale = await findSale(deps.db, saleId);
  if (!sale) throw notFound('This sale does not exist.');
  if (sale.method === 'card') {
    throw new HttpError(409, 'cardSale', 'Card payments are confirmed by the card processor.');
  }
  if (sale.state !== 'cancelled') return confirmSale(deps.db, sale, admin);
  const settled = await settleLatePayment(deps, sale, { now: admin.now, admin, refund: null });
  if (!settled) throw notAwaitingPayment();
  return settled.sale;
}
