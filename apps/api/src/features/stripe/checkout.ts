import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import { advertisers, type Database } from '@helium/db';
import { MICROS_PER_EURO, activityPathOf, formatNumber, type Locale } from '@helium/domain';
import type { ZTestCheckoutSchema } from '@helium/contracts';
import type { z } from 'zod';
import { HttpError, notFound } from '../../http/errors.ts';
import { randomToken } from '../../infra/tokens.ts';
import { charge, checkedQuantity, couponOutcomeText, loadPurchaseContext } from '../billing/purchase.ts';
import {
  attachCheckoutSession,
  cancelUnstartedCardSale,
  centsOf,
  completeCardSale,
  createSale,
  findSaleBySession,
  type CardPaymentOutcome,
  type SaleRow,
} from '../billing/sales.ts';
import { stripeFailure } from './stripe-client.ts';

/*
 * Card payments (specification 02, sections 2.2 and 7; docs/decisions.md section 1). The advertiser's chosen quantity
 * (update-buy) is priced by the server and recorded as a pending card sale, then paid on a Stripe Checkout Session,
 * or, without STRIPE_SECRET_KEY, on the product's own test checkout page. Either way the payment goes through
 * completeCardSale, the sale's compare-and-set, so a session credits its campaign once.
 */

export type CardCurrency = 'eur' | 'usd';

/** Where the advertiser lands after paying: the campaign's Activity screen opens its success modal (section 4). */
export const successPathOf = (campaignId: number) => activityPathOf(campaignId, { event: 'successfulPayment' });
/** Where Stripe sends an advertiser who leaves the checkout without paying: back to the campaign. */
export const cancelPathOf = (campaignId: number) => activityPathOf(campaignId);
/** The local test checkout's session ids; only these can be paid on its page. */
export const LOCAL_SESSION_PREFIX = 'cs_test_local_';
/** Stripe's smallest charge in euros and in dollars, in cents: a smaller amount is refused before any sale. */
export const MIN_CARD_CHARGE_CENTS = 50;

export interface CheckoutRequest {
  advertiserId: number;
  userId: number;
  campaignId: number;
  currency: CardCurrency;
  locale: Locale;
  now: Date;
}

export interface CheckoutDeps {
  db: Database;
  /** Null without STRIPE_SECRET_KEY: the local test checkout. */
  stripe: Stripe | null;
  appUrl: string;
  log: FastifyBaseLogger;
}

/**
 * Starts a card purchase of the campaign's chosen quantity: a pending card sale priced by the server, and its
 * Checkout Session (Stripe's, or the local test checkout's). 404/403 for a campaign that is missing or another
 * advertiser's, 422 for a quantity the campaign does not sell (0 when none was chosen) or an amount below Stripe's
 * minimum: nothing is recorded then. A session Stripe refuses leaves its sale cancelled (502).
 */
export async function startCardCheckout(
  deps: CheckoutDeps,
  request: CheckoutRequest,
): Promise<{ id: string; url: string; couponStr: string | null }> {
  const { db } = deps;
  const context = await loadPurchaseContext(db, request.advertiserId, request.campaignId);
  const quantity = checkedQuantity(context, context.campaign.buyQuantity);
  if (centsOf(charge(context, quantity, request.currency).amountInCurrency) < MIN_CARD_CHARGE_CENTS) {
    throw new HttpError(422, 'amountTooSmall', 'A card payment must be at least 0.50 (euros or dollars).');
  }
  const { sale, coupon } = await createSale(db, {
    context,
    advertiserId: request.advertiserId,
    userId: request.userId,
    method: 'card',
    currency: request.currency,
    quantity,
    billingInformation: await billingInformationOf(db, request.advertiserId),
    locale: request.locale,
    now: request.now,
  });
  const couponStr = couponOutcomeText(coupon, request.locale);

  if (!deps.stripe) {
    const id = `${LOCAL_SESSION_PREFIX}${randomToken(18)}`;
    await attachCheckoutSession(db, sale.id, id);
    return { id, url: `${deps.appUrl}/test-checkout/${id}`, couponStr };
  }

  let session: Stripe.Checkout.Session;
  try {
    session = await deps.stripe.checkout.sessions.create(sessionParams(deps.appUrl, sale, context.brand, request), {
      idempotencyKey: `helium-card-sale-${sale.id}`,
    });
    if (!session.url) throw new Error('The Checkout Session has no url');
  } catch (error) {
    await cancelUnstartedCardSale(db, sale.id, request.now);
    deps.log.error({ saleId: sale.id, stripe: stripeFailure(error) }, 'stripe: creating the Checkout Session failed');
    throw new HttpError(502, 'paymentProviderUnavailable', 'The card payment service did not answer. Try again.');
  }
  await attachCheckoutSession(db, sale.id, session.id);
  return { id: session.id, url: session.url, couponStr };
}

/**
 * The Checkout Session of a sale: one line whose amount is the sale's, priced by the server. The line's quantity is
 * 1 and its name says how many impressions or clicks are bought: a price per impression is a fraction of a cent,
 * which Stripe's integer `unit_amount` cannot carry, and the total Stripe charges must be the sale's to the cent.
 */
export function sessionParams(
  appUrl: string,
  sale: SaleRow,
  brand: string,
  request: Pick<CheckoutRequest, 'advertiserId' | 'campaignId' | 'locale'>,
): Stripe.Checkout.SessionCreateParams {
  const unit = sale.isCpc ? (request.locale === 'fr' ? 'clics' : 'clicks') : 'impressions';
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: sale.currency,
          unit_amount: centsOf(sale.amountInCurrency),
          product_data: {
            name: `${formatNumber(sale.quantity, request.locale)} ${unit}`,
            description: `${brand}, campaign ${request.campaignId}`,
          },
        },
      },
    ],
    client_reference_id: `advertiser-${request.advertiserId}-campaign-${request.campaignId}-sale-${sale.id}`,
    metadata: {
      saleId: String(sale.id),
      campaignExId: String(request.campaignId),
      advertiserId: String(request.advertiserId),
      quantity: String(sale.quantity),
      isCpc: String(sale.isCpc),
    },
    locale: request.locale,
    success_url: `${appUrl}${successPathOf(request.campaignId)}`,
    cancel_url: `${appUrl}${cancelPathOf(request.campaignId)}`,
  };
}

async function billingInformationOf(db: Database, advertiserId: number): Promise<string | null> {
  const [row] = await db
    .select({ billingInformation: advertisers.billingInformation })
    .from(advertisers)
    .where(eq(advertisers.id, advertiserId));
  return row?.billingInformation ?? null;
}

/** What a webhook event says was paid, or null when the event pays nothing (other types, a payment not settled). */
export function paymentOfEvent(event: Stripe.Event): {
  sessionId: string;
  amountTotal: number | null;
  currency: string | null;
  /** The payment to refund, when it must be (a payment for a sale cancelled meanwhile). */
  paymentIntent: string | null;
} | null {
  if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') {
    return null;
  }
  const session = event.data.object;
  // A delayed method (a bank debit) completes the session unpaid; its async_payment_succeeded event pays it.
  if (session.payment_status !== 'paid') return null;
  const intent = session.payment_intent;
  return {
    sessionId: session.id,
    amountTotal: session.amount_total,
    currency: session.currency,
    paymentIntent: typeof intent === 'string' ? intent : (intent?.id ?? null),
  };
}

/** The session an event says expired unpaid (its sale is then cancelled), or null. */
export function expiredSessionOfEvent(event: Stripe.Event): string | null {
  return event.type === 'checkout.session.expired' ? event.data.object.id : null;
}

/** The sessions whose payment is told by an event, paid or not, for the log. */
export function sessionIdOfEvent(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; id?: string };
  return object.object === 'checkout.session' && typeof object.id === 'string' ? object.id : null;
}

/**
 * A local test checkout's sale, for the advertiser who owns it: 404 for any other id or advertiser (whether the
 * session exists is not told to someone else).
 */
export async function findLocalCheckout(db: Database, advertiserId: number, sessionId: string): Promise<SaleRow> {
  const sale = sessionId.startsWith(LOCAL_SESSION_PREFIX) ? await findSaleBySession(db, sessionId) : null;
  if (!sale || sale.method !== 'card' || sale.advertiserId !== advertiserId) {
    throw notFound('This test checkout does not exist.');
  }
  return sale;
}

/** What the test checkout page shows. */
export async function testCheckoutView(db: Database, sale: SaleRow): Promise<z.input<typeof ZTestCheckoutSchema>> {
  const [advertiser] = await db
    .select({ brand: advertisers.brand })
    .from(advertisers)
    .where(eq(advertisers.id, sale.advertiserId));
  return {
    id: sale.stripeSessionId ?? '',
    brand: advertiser?.brand ?? '',
    quantity: sale.quantity,
    is_cpc: sale.isCpc,
    currency: cardCurrency(sale),
    amount: sale.amountInCurrency / MICROS_PER_EURO,
    state: sale.state,
  };
}

/**
 * The local test checkout's Pay button: the same crediting as Stripe's webhook (completeCardSale), with no amount
 * to compare since nobody else charged one. Paying twice credits once; a cancelled sale cannot be paid (409).
 */
export async function payLocalCheckout(
  db: Database,
  sale: SaleRow,
  now: Date,
): Promise<{ outcome: CardPaymentOutcome; sale: SaleRow | null }> {
  if (sale.state === 'cancelled') {
    throw new HttpError(409, 'saleCancelled', 'This purchase was cancelled.');
  }
  return completeCardSale(db, sale.stripeSessionId!, { amountTotal: null, currency: null }, now);
}

function cardCurrency(sale: SaleRow): CardCurrency {
  if (sale.currency === 'eur' || sale.currency === 'usd') return sale.currency;
  throw new Error(`Card sale ${sale.id} is in ${sale.currency}`);
}
