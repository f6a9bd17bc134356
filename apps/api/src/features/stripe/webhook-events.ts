import type Stripe from 'stripe';
import { HttpError } from '../../http/errors.ts';
import { settleLatePayment, type LatePaymentDeps, type ProcessorRefund } from '../billing/late-payments.ts';
import { completeCardSale, expireCardSale, type CardPaymentOutcome, type SaleRow } from '../billing/sales.ts';
import { expiredSessionOfEvent, paymentOfEvent } from './checkout.ts';
import { stripeFailure } from './stripe-client.ts';

export type WebhookOutcome =
  CardPaymentOutcome | 'ignored' | 'expired' | 'lateCredited' | 'lateRefunded' | 'lateRefundByHand';

export interface WebhookDeps extends LatePaymentDeps {
  /** Null without STRIPE_SECRET_KEY: a late payment cannot be refunded through Stripe then. */
  stripe: Stripe | null;
}

const LATE_OUTCOMES = {
  credited: 'lateCredited',
  refunded: 'lateRefunded',
  refundByHand: 'lateRefundByHand',
} as const satisfies Record<string, WebhookOutcome>;

/**
 * What one of Stripe's events does (docs/billing.md): a paid Checkout Session credits its pending sale once; one
 * whose sale was cancelled meanwhile is settled as a late payment (credited, or refunded); an expired session
 * cancels its pending sale and gives its coupon back; other events change nothing. `creditsChanged` tells the
 * caller to refresh serving.
 */
export async function handleStripeEvent(
  deps: WebhookDeps,
  event: Stripe.Event,
  now: Date,
): Promise<{ outcome: WebhookOutcome; saleId: number | null; creditsChanged: boolean }> {
  const expiredSession = expiredSessionOfEvent(event);
  if (expiredSession) {
    const expired = await expireCardSale(deps.db, expiredSession, now);
    return { outcome: expired ? 'expired' : 'ignored', saleId: expired?.id ?? null, creditsChanged: false };
  }
  const paid = paymentOfEvent(event);
  if (!paid) return { outcome: 'ignored', saleId: null, creditsChanged: false };
  const { outcome, sale } = await completeCardSale(
    deps.db,
    paid.sessionId,
    { amountTotal: paid.amountTotal, currency: paid.currency },
    now,
  );
  if (outcome !== 'saleCancelled' || !sale) {
    return { outcome, saleId: sale?.id ?? null, creditsChanged: outcome === 'credited' };
  }
  const refund = deps.stripe && paid.paymentIntent ? refundThroughStripe(deps, sale, paid.paymentIntent) : null;
  const settled = await settleLatePayment(deps, sale, { now, admin: null, refund });
  if (!settled) return { outcome: 'alreadySettled', saleId: sale.id, creditsChanged: false };
  return {
    outcome: LATE_OUTCOMES[settled.outcome],
    saleId: sale.id,
    creditsChanged: settled.outcome === 'credited',
  };
}

/**
 * A sale's card payment refunded in full through Stripe's refund call. One idempotency key per sale: concurrent
 * or repeated deliveries of the event make one refund. A failure is a 502, so that Stripe delivers the event again.
 */
function refundThroughStripe(deps: WebhookDeps, sale: SaleRow, paymentIntent: string): ProcessorRefund {
  const stripe = deps.stripe!;
  return async () => {
    try {
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntent, metadata: { saleId: String(sale.id) } },
        { idempotencyKey: `helium-late-refund-sale-${sale.id}` },
      );
      return refund.id;
    } catch (error) {
      deps.log.error({ saleId: sale.id, stripe: stripeFailure(error) }, 'stripe: refunding a late payment failed');
      throw new HttpError(502, 'paymentProviderUnavailable', 'The card payment service did not answer. Try again.');
    }
  };
}
