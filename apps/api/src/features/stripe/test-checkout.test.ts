import { and, asc, count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advertisers, campaignCredits, campaigns, sales } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { centsOf } from '../billing/sales.ts';

/*
 * Card payments without STRIPE_SECRET_KEY (what `npm start` runs on a fresh clone): the product's own test
 * checkout. Its Pay button credits through the same compare-and-set as Stripe's webhook.
 */

const QUANTITY = 200_000;

let t: TestApp;
let owner: TestClient;
let other: TestClient;
let advertiserId: number;
let campaignId: number;

beforeAll(async () => {
  t = await buildTestApp();
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
  const [atelier] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Atelier Céramique'));
  expect((await other.post('/api/common/update-user', { key: 'type', value: `2,${atelier!.id}` })).statusCode).toBe(
    200,
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  await t.db.update(campaigns).set({ buyQuantity: QUANTITY }).where(eq(campaigns.id, campaignId));
});

const checkoutUrl = (currency = 'eur') =>
  `/api/stripe2/create-checkout-session-campaignex?campaignExId=${campaignId}&currency=${currency}`;

async function createSession(currency = 'eur') {
  const response = await owner.post(checkoutUrl(currency));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string; url: string };
}

const getCheckout = (client: TestClient, sessionId: string) =>
  client.post('/api/stripe2/get-test-checkout', { sessionId });
const pay = (client: TestClient, sessionId: string) => client.post('/api/stripe2/pay-test-checkout', { sessionId });

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

async function snapshot() {
  const [credits] = await t.db.select({ n: count() }).from(campaignCredits);
  const [sold] = await t.db.select({ n: count() }).from(sales);
  return { sales: sold!.n, credits: credits!.n, remaining: await remaining() };
}

describe('the local test checkout (no STRIPE_SECRET_KEY)', () => {
  it('creates a local session whose page is served by the product', async () => {
    const session = await createSession();
    expect(session.id).toMatch(/^cs_test_local_[A-Za-z0-9_-]{20,}$/);
    expect(session.url).toBe(`${t.app.ctx.config.appUrl}/test-checkout/${session.id}`);
    expect(await saleOf(session.id)).toMatchObject({ method: 'card', state: 'pending', quantity: QUANTITY });
  });

  it('shows the amount, and pays once however many times Pay is pressed', async () => {
    const session = await createSession();
    const sale = await saleOf(session.id);
    const shown = await getCheckout(owner, session.id);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      id: session.id,
      brand: 'Nordvik Outdoor',
      quantity: QUANTITY,
      is_cpc: false,
      currency: 'eur',
      amount: centsOf(sale.amountInCurrency) / 100,
      state: 'pending',
    });
    // 200,000 impressions at 2.50 euros per 1,000: at most 500 euros.
    expect(shown.json().amount).toBeGreaterThan(0);
    expect(shown.json().amount).toBeLessThanOrEqual(500);

    const start = await remaining();
    const paid = await pay(owner, session.id);
    expect(paid.statusCode).toBe(200);
    // Back on the campaign paid for, whose Activity opens the thanks.
    expect(paid.json()).toEqual({ url: `/advertiser/activity?event=successfulPayment&campaign=${campaignId}` });
    expect(await remaining()).toBe(start + QUANTITY);
    expect((await saleOf(session.id)).state).toBe('paid');
    expect(await purchaseCredits(sale.id)).toHaveLength(1);

    const again = await pay(owner, session.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ url: `/advertiser/activity?event=successfulPayment&campaign=${campaignId}` });
    expect(await remaining()).toBe(start + QUANTITY);
    expect(await purchaseCredits(sale.id)).toHaveLength(1);
    expect((await getCheckout(owner, session.id)).json()).toMatchObject({ state: 'paid' });
  });

  it('credits once when Pay is pressed in several tabs at the same time', async () => {
    const session = await createSession();
    const sale = await saleOf(session.id);
    const start = await remaining();
    const responses = await Promise.all(Array.from({ length: 8 }, () => pay(owner, session.id)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    expect(await remaining()).toBe(start + QUANTITY);
    expect(await purchaseCredits(sale.id)).toHaveLength(1);
  });

  it('charges dollars in dollars', async () => {
    const session = await createSession('usd');
    const sale = await saleOf(session.id);
    expect(sale.currency).toBe('usd');
    const shown = (await getCheckout(owner, session.id)).json();
    expect(shown).toMatchObject({ currency: 'usd', amount: centsOf(sale.amountInCurrency) / 100 });
  });

  it('is not found for another advertiser, an unknown session or a Stripe session id: nothing changes', async () => {
    const session = await createSession();
    const before = await snapshot();
    for (const call of [getCheckout, pay]) {
      const foreign = await call(other, session.id);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ status: 'notFound' });
      expect((await call(owner, 'cs_test_local_nothing_here')).statusCode).toBe(404);
      expect((await call(owner, 'cs_test_a1b2c3')).statusCode).toBe(404);
    }
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    expect((await pay(publisher, session.id)).statusCode).toBe(403);
    expect((await pay(t.client(), session.id)).statusCode).toBe(401);
    expect((await owner.post('/api/stripe2/pay-test-checkout', {})).statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
    expect((await saleOf(session.id)).state).toBe('pending');
  });

  it('refuses a purchase without a chosen quantity, and a currency other than eur or usd', async () => {
    const before = await snapshot();
    expect((await owner.post(checkoutUrl('btc'))).statusCode).toBe(422);
    await t.db.update(campaigns).set({ buyQuantity: 0 }).where(eq(campaigns.id, campaignId));
    const none = await owner.post(checkoutUrl());
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ status: 'quantity.notPositive' });
    expect((await other.post(checkoutUrl())).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 503 to webhooks while STRIPE_WEBHOOK_SECRET is not set, changing nothing', async () => {
    const session = await createSession();
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: session.id, object: 'checkout.session', payment_status: 'paid' } },
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/stripe2/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_guess' }),
      },
      payload,
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'stripeWebhookNotConfigured' });
    expect((await saleOf(session.id)).state).toBe('pending');
  });
});
