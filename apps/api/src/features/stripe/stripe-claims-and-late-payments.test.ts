import { and, asc, count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  advertisers,
  auditLog,
  campaignCredits,
  campaigns,
  couponRedemptions,
  coupons,
  sales,
  users,
} from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { capturedLog } from '../../../test/captured-log.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.ts';
import { creditMismatches } from '../billing/credits-ledger.ts';

/*
 * Card payments with a Stripe key (the real SDK against the local stand-in), issue 32: a coupon priced into a
 * Checkout Session is claimed by it and comes back when the session expires or is refused; a payment for a sale
 * cancelled meanwhile is never dropped: credited (the default) or refunded through Stripe, once whatever the
 * deliveries, audited and mailed to every admin.
 */

const WEBHOOK_SECRET = 'whsec_test_helium_late_payments';
const QUANTITY = 100_000;
/** 100,000 impressions at the demo CPM of 2.50 euros, no tier discount: 250 euros, in cents. */
const FULL_CENTS = 25_000;

let t: TestApp;
let stripe: StripeStandIn;
let owner: TestClient;
let admin: TestClient;
let campaignId: number;
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
  const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  const [campaign] = await t.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, nordvik!.id))
    .orderBy(asc(campaigns.id))
    .limit(1);
  campaignId = campaign!.id;
  owner = t.client();
  await owner.signIn('advertiser@demo.test');
  admin = t.client();
  await admin.signIn('admin@demo.test');
  // A second admin, who reads French: every admin is told of a late payment, in the admin's language.
  await t.db
    .insert(users)
    .values({ name: 'Anne Martin', email: 'second-admin@demo.test', locale: 'fr', isAdmin: true, currentType: 0 });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

beforeEach(async () => {
  await t.db.update(campaigns).set({ buyQuantity: QUANTITY }).where(eq(campaigns.id, campaignId));
});

const checkoutUrl = `/api/stripe2/create-checkout-session-campaignex?campaignExId=${0}&currency=eur`;
const createSession = () => owner.post(checkoutUrl.replace('campaignExId=0', `campaignExId=${campaignId}`));

async function newSession() {
  const response = await createSession();
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string; couponStr: string | null };
}

/** Sends a webhook as Stripe does: the exact bytes, signed with the endpoint's secret. */
function deliver(payload: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe2/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  });
}

async function saleOf(sessionId: string) {
  const [row] = await t.db.select().from(sales).where(eq(sales.stripeSessionId, sessionId));
  return row!;
}

async function remaining() {
  const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  return row!.remainingImpressions;
}

async function creditsOf(saleId: number) {
  return t.db.select().from(campaignCredits).where(eq(campaignCredits.saleId, saleId));
}

async function latePaymentAudits(saleId: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'sale.latePayment'), eq(auditLog.targetId, saleId)));
}

const mailsAbout = (saleId: number) =>
  t.smtp.messages.filter((mail) => new RegExp(`(sale|vente annulée) ${saleId}$`).test(mail.subject));

async function cancelByAdmin(saleId: number) {
  const response = await admin.post('/api/admin/update-sale', { saleId, action: 'cancel' });
  expect(response.statusCode, response.body).toBe(200);
}

async function setLatePaymentAction(latePaymentAction: 'credit' | 'refund') {
  const response = await admin.post('/api/admin/update-network-settings', { latePaymentAction });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().settings.latePaymentAction).toBe(latePaymentAction);
}

async function applyCoupon(code: string, percentOff: number) {
  expect((await admin.post('/api/admin/create-coupon', { code, percentOff })).statusCode).toBe(200);
  const applied = await owner.post('/api/advertiser/apply-coupon', { campaignExId: campaignId, code });
  expect(applied.statusCode, applied.body).toBe(200);
  const [coupon] = await t.db.select().from(coupons).where(eq(coupons.code, code));
  return coupon!.id;
}

async function claimOf(couponId: number) {
  const [row] = await t.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, couponId));
  return row!.saleId;
}

describe('a coupon and Checkout Sessions', () => {
  it('five sessions created at once: one at the coupon price, four at full price', async () => {
    const couponId = await applyCoupon('STRIPE40', 40);
    const responses = await Promise.all(Array.from({ length: 5 }, createSession));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(5).fill(200));
    const amounts = responses.map((response) => stripe.sessions.get(response.json().id)!.amount_total).sort();
    expect(amounts).toEqual([15_000, FULL_CENTS, FULL_CENTS, FULL_CENTS, FULL_CENTS]);
    const holders = [];
    for (const response of responses) {
      const sale = await saleOf(response.json().id);
      if (sale.couponId === couponId) holders.push(sale.id);
    }
    expect(holders).toHaveLength(1);
    expect(await claimOf(couponId)).toBe(holders[0]);
  });

  it('the discounted session expires: its sale is cancelled, the coupon comes back for the next session', async () => {
    const [coupon] = await t.db.select().from(coupons).where(eq(coupons.code, 'STRIPE40'));
    const holder = await t.db
      .select()
      .from(sales)
      .where(eq(sales.id, (await claimOf(coupon!.id))!));
    const expired = stripe.event('checkout.session.expired', holder[0]!.stripeSessionId!, {
      status: 'expired',
      payment_status: 'unpaid',
    });
    expect((await deliver(expired.payload)).statusCode).toBe(200);
    expect((await deliver(expired.payload)).statusCode).toBe(200);
    expect(await saleOf(holder[0]!.stripeSessionId!)).toMatchObject({ state: 'cancelled' });
    expect(await claimOf(coupon!.id)).toBeNull();
    expect(log.text()).toMatch(/"outcome":"expired"/);

    const next = await newSession();
    expect(next.couponStr).toBe('Coupon STRIPE40: 40% off this purchase.');
    expect(stripe.sessions.get(next.id)!.amount_total).toBe(15_000);
    expect(await claimOf(coupon!.id)).toBe((await saleOf(next.id)).id);
  });

  it('a session Stripe refuses gives the coupon back', async () => {
    const couponId = await applyCoupon('REFUSED30', 30);
    // STRIPE40 is held by the session above: this advertiser's free coupon is REFUSED30.
    stripe.failNext(500);
    const refused = await createSession();
    expect(refused.statusCode).toBe(502);
    expect(await claimOf(couponId)).toBeNull();
    const next = await newSession();
    expect(stripe.sessions.get(next.id)!.amount_total).toBe(17_500);
    expect(await claimOf(couponId)).toBe((await saleOf(next.id)).id);
  });
});

describe('a payment for a card sale cancelled meanwhile', () => {
  it('is credited once (the default) when ten deliveries arrive at once, audited and mailed to every admin', async () => {
    const session = await newSession();
    const sale = await saleOf(session.id);
    await cancelByAdmin(sale.id);
    const before = await remaining();
    const paid = stripe.event('checkout.session.completed', session.id);
    const responses = await Promise.all(Array.from({ length: 10 }, () => deliver(paid.payload)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(200));

    expect(await saleOf(session.id)).toMatchObject({ state: 'paid', latePayment: 'credited', refundId: null });
    expect(await remaining()).toBe(before + QUANTITY);
    expect((await creditsOf(sale.id)).map((entry) => [entry.kind, entry.impressions])).toEqual([
      ['purchase', QUANTITY],
    ]);
    const audits = await latePaymentAudits(sale.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorUserId: null, details: expect.objectContaining({ outcome: 'credited' }) });
    const mails = mailsAbout(sale.id);
    expect(mails.map((mail) => mail.to).sort()).toEqual(['admin@demo.test', 'second-admin@demo.test']);
    const english = mails.find((mail) => mail.to === 'admin@demo.test')!;
    expect(english.subject).toBe(`Helium Ads: payment received for cancelled sale ${sale.id}`);
    expect(english.text).toContain('The campaign was credited with 100,000 impressions');
    const french = mails.find((mail) => mail.to === 'second-admin@demo.test')!;
    expect(french.subject).toBe(`Helium Ads\u202f: paiement reçu pour la vente annulée ${sale.id}`);
    expect(french.language).toBe('fr');
    expect(log.lines.some((line) => line.outcome === 'lateCredited' && line.level === 40)).toBe(true);

    // Stripe's later deliveries and the session's other events change nothing more.
    expect((await deliver(paid.payload)).statusCode).toBe(200);
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', session.id);
    expect((await deliver(succeeded.payload)).statusCode).toBe(200);
    expect(await remaining()).toBe(before + QUANTITY);
    expect(await latePaymentAudits(sale.id)).toHaveLength(1);
    expect(mailsAbout(sale.id)).toHaveLength(2);
    expect(await creditMismatches(t.db)).toEqual([]);
  });

  it('a session that expired and is paid later (a delayed payment) is credited too', async () => {
    const session = await newSession();
    const expired = stripe.event('checkout.session.expired', session.id, {
      status: 'expired',
      payment_status: 'unpaid',
    });
    expect((await deliver(expired.payload)).statusCode).toBe(200);
    const sale = await saleOf(session.id);
    expect(sale.state).toBe('cancelled');
    const before = await remaining();
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', session.id);
    expect((await deliver(succeeded.payload)).statusCode).toBe(200);
    expect(await saleOf(session.id)).toMatchObject({ state: 'paid', latePayment: 'credited' });
    expect(await remaining()).toBe(before + QUANTITY);
    expect(await latePaymentAudits(sale.id)).toHaveLength(1);
  });

  it('with the network set to refund: refunded through Stripe once under ten deliveries, nothing credited', async () => {
    await setLatePaymentAction('refund');
    try {
      const session = await newSession();
      const sale = await saleOf(session.id);
      await cancelByAdmin(sale.id);
      const before = await remaining();
      const paid = stripe.event('checkout.session.completed', session.id);
      const intent = stripe.sessions.get(session.id)!.payment_intent as string;
      const responses = await Promise.all(Array.from({ length: 10 }, () => deliver(paid.payload)));
      expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(200));

      const refunds = stripe.refunds.filter((refund) => refund.payment_intent === intent);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ amount: FULL_CENTS, metadata: { saleId: String(sale.id) } });
      const calls = stripe.requests.filter((request) => request.path === '/v1/refunds');
      expect(new Set(calls.map((call) => call.headers['idempotency-key']))).toEqual(
        new Set([`helium-late-refund-sale-${sale.id}`]),
      );
      expect(await saleOf(session.id)).toMatchObject({
        state: 'cancelled',
        latePayment: 'refunded',
        refundId: refunds[0]!.id,
      });
      expect(await remaining()).toBe(before);
      expect(await creditsOf(sale.id)).toEqual([]);
      expect(await latePaymentAudits(sale.id)).toHaveLength(1);
      const mails = mailsAbout(sale.id);
      expect(mails).toHaveLength(2);
      expect(mails.find((mail) => mail.to === 'admin@demo.test')!.text).toContain(
        `The payment was refunded through Stripe (refund ${refunds[0]!.id})`,
      );

      // A delivery after it was settled does not even ask Stripe.
      const asked = calls.length;
      expect((await deliver(paid.payload)).statusCode).toBe(200);
      expect(stripe.requests.filter((request) => request.path === '/v1/refunds')).toHaveLength(asked);
    } finally {
      await setLatePaymentAction('credit');
    }
  });

  it('a refund Stripe refuses leaves the sale as it was (502, delivered again later), then refunds', async () => {
    await setLatePaymentAction('refund');
    try {
      const session = await newSession();
      const sale = await saleOf(session.id);
      await cancelByAdmin(sale.id);
      const paid = stripe.event('checkout.session.completed', session.id);
      stripe.failNextRefund(500);
      const failed = await deliver(paid.payload);
      expect(failed.statusCode).toBe(502);
      expect(await saleOf(session.id)).toMatchObject({ state: 'cancelled', latePayment: null });
      expect(await latePaymentAudits(sale.id)).toEqual([]);
      expect(mailsAbout(sale.id)).toEqual([]);
      expect(log.text()).not.toContain('sk_test_helium_stand_in');

      expect((await deliver(paid.payload)).statusCode).toBe(200);
      expect(await saleOf(session.id)).toMatchObject({ state: 'cancelled', latePayment: 'refunded' });
      expect(await latePaymentAudits(sale.id)).toHaveLength(1);
    } finally {
      await setLatePaymentAction('credit');
    }
  });

  it('a cancelled sale paid with another amount is left for an admin, not settled', async () => {
    const session = await newSession();
    const sale = await saleOf(session.id);
    await cancelByAdmin(sale.id);
    const cheaper = stripe.event('checkout.session.completed', session.id, { amount_total: 100 });
    expect((await deliver(cheaper.payload)).statusCode).toBe(200);
    expect(await saleOf(session.id)).toMatchObject({ state: 'cancelled', latePayment: null });
    const [audits] = await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.targetId, sale.id));
    expect(audits!.n).toBe(1); // the cancellation only
  });
});
