import { and, asc, count, desc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advertisers, campaignCredits, campaigns, sales } from '@helium/db';
import { MINUTE_MS } from '@helium/domain';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { capturedLog } from '../../../test/captured-log.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.ts';
import { charge, loadPurchaseContext } from '../billing/purchase.ts';
import { centsOf } from '../billing/sales.ts';

/*
 * Card payments with a Stripe key: the real `stripe` SDK talks to a local stand-in of Stripe's API
 * (STRIPE_API_URL), and webhooks are signed as Stripe signs them. A Checkout Session credits its campaign once,
 * whatever the deliveries, replays and concurrent events.
 */

const WEBHOOK_SECRET = 'whsec_test_helium_stand_in_secret';
const QUANTITY = 100_000;
const WEBHOOK = '/api/stripe2/webhook';

let t: TestApp;
let stripe: StripeStandIn;
let owner: TestClient;
let other: TestClient;
let advertiserId: number;
let campaignId: number;
let appUrl: string;
const log = capturedLog('info');

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await buildTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_helium_stand_in',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_helium_stand_in',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    },
    loggerInstance: log.logger,
  });
  appUrl = t.app.ctx.config.appUrl;
  const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  advertiserId = nordvik!.id;
  const [campaign] = await t.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, advertiserId))
    .orderBy(asc(campaigns.id))
    .limit(1);
  campaignId = campaign!.id;
  owner = t.client();
  await owner.signIn('advertiser@demo.test');
  other = t.client();
  await other.signIn('multi@demo.test');
  const [velo] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Vélo Urbain'));
  expect((await other.post('/api/common/update-user', { key: 'type', value: `2,${velo!.id}` })).statusCode).toBe(200);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

beforeEach(async () => {
  await t.db.update(campaigns).set({ buyQuantity: QUANTITY }).where(eq(campaigns.id, campaignId));
});

const checkoutUrl = (id: number | string, currency = 'eur') =>
  `/api/stripe2/create-checkout-session-campaignex?campaignExId=${id}&currency=${currency}`;

async function createSession(currency = 'eur') {
  const response = await owner.post(checkoutUrl(campaignId, currency));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string; url: string };
}

/** Sends a webhook as Stripe does: the exact bytes, signed with the endpoint's secret (or another). */
function deliver(payload: string, options: { secret?: string; signature?: string | null; timestamp?: number } = {}) {
  const signature =
    options.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? WEBHOOK_SECRET,
          ...(options.timestamp ? { timestamp: options.timestamp } : {}),
        })
      : options.signature;
  return t.app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
}

async function remaining() {
  const [row] = await t.db
    .select({ impressions: campaigns.remainingImpressions })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return row!.impressions;
}

async function saleOf(sessionId: string) {
  const [row] = await t.db.select().from(sales).where(eq(sales.stripeSessionId, sessionId));
  return row!;
}

async function purchaseCredits(saleId: number) {
  return t.db
    .select()
    .from(campaignCredits)
    .where(and(eq(campaignCredits.saleId, saleId), eq(campaignCredits.kind, 'purchase')));
}

async function saleCount() {
  const [row] = await t.db.select({ n: count() }).from(sales);
  return row!.n;
}

/** Everything a refused request must leave as it was. */
async function snapshot() {
  const [credits] = await t.db.select({ n: count() }).from(campaignCredits);
  return { sales: await saleCount(), credits: credits!.n, remaining: await remaining() };
}

describe('create-checkout-session-campaignex with a Stripe key', () => {
  it('creates a Checkout Session of the chosen quantity at the server price, and a pending card sale', async () => {
    const before = stripe.requests.length;
    const session = await createSession();
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.id}`);

    const sale = await saleOf(session.id);
    expect(sale).toMatchObject({ advertiserId, campaignId, method: 'card', state: 'pending', currency: 'eur' });
    expect(sale.quantity).toBe(QUANTITY);
    const context = await loadPurchaseContext(t.db, advertiserId, campaignId);
    const cents = centsOf(charge(context, QUANTITY, 'eur').amountInCurrency);
    expect(centsOf(sale.amountInCurrency)).toBe(cents);
    // 100,000 impressions at the demo CPM of 2.50 euros: 250 euros before any discount.
    expect(cents).toBeGreaterThan(0);
    expect(cents).toBeLessThanOrEqual(25_000);

    const sent = stripe.requests.slice(before);
    expect(sent).toHaveLength(1);
    const request = sent[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.headers.authorization).toBe('Bearer sk_test_helium_stand_in');
    expect(request.headers['idempotency-key']).toBe(`helium-card-sale-${sale.id}`);
    expect(request.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': String(cents),
      'metadata[saleId]': String(sale.id),
      'metadata[campaignExId]': String(campaignId),
      'metadata[advertiserId]': String(advertiserId),
      'metadata[quantity]': String(QUANTITY),
      client_reference_id: `advertiser-${advertiserId}-campaign-${campaignId}-sale-${sale.id}`,
      success_url: `${appUrl}/advertiser/activity?event=successfulPayment&campaign=${campaignId}`,
      cancel_url: `${appUrl}/advertiser/activity?campaign=${campaignId}`,
    });
    expect(request.form['line_items[0][price_data][product_data][name]']).toBe('100,000 impressions');
    expect(stripe.sessions.get(session.id)).toMatchObject({ amount_total: cents, payment_status: 'unpaid' });
  });

  it('charges dollars at the dollar price', async () => {
    const session = await createSession('usd');
    const sale = await saleOf(session.id);
    expect(sale.currency).toBe('usd');
    const context = await loadPurchaseContext(t.db, advertiserId, campaignId);
    expect(centsOf(sale.amountInCurrency)).toBe(centsOf(charge(context, QUANTITY, 'usd').amountInCurrency));
    expect(stripe.sessions.get(session.id)).toMatchObject({
      currency: 'usd',
      amount_total: centsOf(sale.amountInCurrency),
    });
  });

  it('refuses another advertiser, another currency, no quantity, a publisher and a signed-out caller: no sale', async () => {
    const before = await snapshot();
    const stripeCalls = stripe.requests.length;

    const foreign = await other.post(checkoutUrl(campaignId));
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ status: 'notYourCampaign' });

    const gbp = await owner.post(checkoutUrl(campaignId, 'gbp'));
    expect(gbp.statusCode).toBe(422);
    expect(gbp.json()).toMatchObject({ status: 'invalidRequest' });
    expect(
      (await owner.post(`/api/stripe2/create-checkout-session-campaignex?campaignExId=${campaignId}`)).statusCode,
    ).toBe(422);
    expect((await owner.post(checkoutUrl('abc'))).statusCode).toBe(422);
    expect((await owner.post(checkoutUrl(999_999))).statusCode).toBe(404);

    await t.db.update(campaigns).set({ buyQuantity: 0 }).where(eq(campaigns.id, campaignId));
    const none = await owner.post(checkoutUrl(campaignId));
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ status: 'quantity.notPositive' });

    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    expect((await publisher.post(checkoutUrl(campaignId))).statusCode).toBe(403);
    expect((await t.client().post(checkoutUrl(campaignId))).statusCode).toBe(401);

    expect(await snapshot()).toEqual(before);
    expect(stripe.requests.length).toBe(stripeCalls);
  });

  it('answers 502 and leaves the sale cancelled, unpayable, when Stripe refuses the session', async () => {
    const before = await saleCount();
    stripe.failNext(500);
    const response = await owner.post(checkoutUrl(campaignId));
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ status: 'paymentProviderUnavailable' });
    expect(await saleCount()).toBe(before + 1);
    const [last] = await t.db.select().from(sales).orderBy(desc(sales.id)).limit(1);
    expect(last).toMatchObject({ state: 'cancelled', stripeSessionId: null });
    expect(log.text()).not.toContain('sk_test_helium_stand_in');
  });

  it('has no local test checkout', async () => {
    const session = await createSession();
    for (const path of ['get-test-checkout', 'pay-test-checkout']) {
      const response = await owner.post(`/api/stripe2/${path}`, { sessionId: session.id });
      expect(response.statusCode).toBe(404);
    }
    expect((await saleOf(session.id)).state).toBe('pending');
  });
});

describe('the Stripe webhook', () => {
  it('credits the campaign once for a paid checkout.session.completed, then never again', async () => {
    const session = await createSession();
    const sale = await saleOf(session.id);
    const start = await remaining();
    const { payload } = stripe.event('checkout.session.completed', session.id, {
      customer_details: { email: 'buyer@example.com', name: 'Private Buyer' },
    });

    const first = await deliver(payload);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await remaining()).toBe(start + QUANTITY);
    expect(await saleOf(session.id)).toMatchObject({ state: 'paid' });
    expect((await saleOf(session.id)).paidAt).not.toBeNull();
    expect(await purchaseCredits(sale.id)).toHaveLength(1);
    expect((await purchaseCredits(sale.id))[0]).toMatchObject({ campaignId, impressions: QUANTITY });

    // Stripe delivers again (a replay within the tolerance), ten times at once, and the session's other events.
    expect((await deliver(payload)).statusCode).toBe(200);
    const burst = await Promise.all(Array.from({ length: 10 }, () => deliver(payload)));
    expect(burst.map((response) => response.statusCode)).toEqual(Array(10).fill(200));
    const async = stripe.event('checkout.session.async_payment_succeeded', session.id);
    expect((await deliver(async.payload)).statusCode).toBe(200);
    const expired = stripe.event('checkout.session.expired', session.id, { status: 'expired' });
    expect((await deliver(expired.payload)).statusCode).toBe(200);

    expect(await remaining()).toBe(start + QUANTITY);
    expect(await purchaseCredits(sale.id)).toHaveLength(1);

    // The outcome is logged with the session id, never the buyer's personal data.
    const logged = log.text();
    expect(logged).toContain(session.id);
    expect(logged).toMatch(/"outcome":"credited"/);
    expect(logged).toMatch(/"outcome":"alreadyCredited"/);
    expect(logged).not.toContain('buyer@example.com');
    expect(logged).not.toContain('Private Buyer');
    expect(logged).not.toContain(WEBHOOK_SECRET);
  });

  it('credits once when its first deliveries and the session’s other events all arrive at the same time', async () => {
    const session = await createSession();
    const sale = await saleOf(session.id);
    const start = await remaining();
    const completed = stripe.event('checkout.session.completed', session.id);
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', session.id);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => deliver(index % 2 === 0 ? completed.payload : succeeded.payload)),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(200));
    expect(await remaining()).toBe(start + QUANTITY);
    expect(await purchaseCredits(sale.id)).toHaveLength(1);
    expect((await saleOf(session.id)).state).toBe('paid');
  });

  it('waits for async_payment_succeeded when the session completes unpaid (a delayed payment method)', async () => {
    const session = await createSession();
    const sale = await saleOf(session.id);
    const start = await remaining();
    const unpaid = stripe.event('checkout.session.completed', session.id, { payment_status: 'unpaid' });
    expect((await deliver(unpaid.payload)).statusCode).toBe(200);
    expect(await remaining()).toBe(start);
    expect((await saleOf(session.id)).state).toBe('pending');

    const failed = stripe.event('checkout.session.async_payment_failed', session.id, { payment_status: 'unpaid' });
    expect((await deliver(failed.payload)).statusCode).toBe(200);
    expect((await saleOf(session.id)).state).toBe('pending');

    const succeeded = stripe.event('checkout.session.async_payment_succeeded', session.id);
    expect((await deliver(succeeded.payload)).statusCode).toBe(200);
    expect(await remaining()).toBe(start + QUANTITY);
    expect(await purchaseCredits(sale.id)).toHaveLength(1);
  });

  it('refuses a forged, tampered, unsigned or stale event with 400 and changes nothing', async () => {
    const session = await createSession();
    const { payload } = stripe.event('checkout.session.completed', session.id);
    const before = await snapshot();

    const forged = await deliver(payload, { secret: 'whsec_someone_else' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ status: 'badSignature' });

    const missing = await deliver(payload, { signature: null });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ status: 'badSignature' });

    expect((await deliver(payload, { signature: 'garbage' })).statusCode).toBe(400);

    // Signed, then changed on the way: the signature covers the exact bytes.
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = payload.replace('"amount_total": ', '"amount_total": 1');
    expect(tampered).not.toBe(payload);
    expect((await deliver(tampered, { signature })).statusCode).toBe(400);
    // Same JSON, other bytes (re-serialised): still refused.
    expect((await deliver(JSON.stringify(JSON.parse(payload)), { signature })).statusCode).toBe(400);

    // An event signed more than 5 minutes ago (a captured delivery replayed later).
    const stale = Math.floor(t.clock.now().getTime() / 1000) - 10 * 60;
    expect((await deliver(payload, { timestamp: stale })).statusCode).toBe(400);

    // Not JSON at all.
    const text = await t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: { 'content-type': 'text/plain', 'stripe-signature': signature },
      payload,
    });
    expect(text.statusCode).toBe(415);

    expect(await snapshot()).toEqual(before);
    expect((await saleOf(session.id)).state).toBe('pending');
  });

  it('leaves the sale pending when Stripe reports another amount or currency, and ignores unknown sessions', async () => {
    const session = await createSession();
    const sale = await saleOf(session.id);
    const before = await snapshot();
    const cheaper = stripe.event('checkout.session.completed', session.id, {
      amount_total: centsOf(sale.amountInCurrency) - 1,
    });
    expect((await deliver(cheaper.payload)).statusCode).toBe(200);
    const dollars = stripe.event('checkout.session.completed', session.id, { currency: 'usd' });
    expect((await deliver(dollars.payload)).statusCode).toBe(200);
    expect((await saleOf(session.id)).state).toBe('pending');

    const elsewhere = stripe.event('checkout.session.completed', session.id, { id: 'cs_test_not_ours' });
    expect((await deliver(elsewhere.payload)).statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);
    expect(log.text()).toMatch(/"outcome":"amountMismatch"/);
  });

  it('needs no session cookie nor anti-forgery token, and a browser cannot pass for Stripe', async () => {
    const session = await createSession();
    const { payload } = stripe.event('checkout.session.completed', session.id);
    // A signed-in browser posting the event without the signature is refused like anyone else.
    const browser = await owner.post(WEBHOOK, JSON.parse(payload));
    expect(browser.statusCode).toBe(400);
    expect((await saleOf(session.id)).state).toBe('pending');
  });

  it('refuses a delivery signed before the tolerance on the server clock', async () => {
    const session = await createSession();
    const { payload } = stripe.event('checkout.session.completed', session.id);
    t.clock.advance(6 * MINUTE_MS);
    try {
      expect((await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) })).statusCode).toBe(400);
    } finally {
      t.clock.advance(-6 * MINUTE_MS);
    }
    expect((await saleOf(session.id)).state).toBe('pending');
  });
});
