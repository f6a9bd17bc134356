import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, like } from 'drizzle-orm';
import {
  auditLog,
  campaignCredits,
  campaigns,
  couponRedemptions,
  coupons,
  dailyAdStats,
  ledgerEntries,
  sales,
} from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint, demoIds, type DemoIds } from '../../../test/call-samples.ts';
import { creditMismatches } from './credits-ledger.ts';

/*
 * A Bitcoin or invoice payment that arrives after its sale was cancelled (issue 32, part 2): an admin confirms it,
 * and it is credited (the default) or noted for a refund by hand (the network setting), once, audited and mailed to
 * the admins. Card payments are stripe-claims-and-late-payments.test.ts's.
 */

let t: TestApp;
let ids: DemoIds;
let advertiser: TestClient;
let admin: TestClient;

beforeAll(async () => {
  t = await buildTestApp();
  ids = await demoIds(t.db);
  advertiser = t.client();
  await advertiser.signIn('advertiser@demo.test');
  admin = t.client();
  await admin.signIn('admin@demo.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function remaining(): Promise<number> {
  const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, ids.campaignId));
  return row!.remainingImpressions;
}

async function saleRow(saleId: number) {
  const [row] = await t.db.select().from(sales).where(eq(sales.id, saleId));
  return row!;
}

const updateSale = (client: TestClient, saleId: number, action: string) =>
  client.post('/api/admin/update-sale', { saleId, action });

async function buyInBitcoin() {
  const response = await advertiser.post('/api/advertiser/buy-with-bitcoin', {
    campaignExId: ids.campaignId,
    buyImpressions: 100_000,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().saleId as number;
}

/** 500,000 impressions bought on invoice (credited at once, unpaid): the sale's id. */
async function buyOnInvoice(): Promise<number> {
  await advertiser.post('/api/advertiser/update-buy', {
    supercampaign: { id: ids.campaignId, buy_impressions: 500_000 },
  });
  const bought = await advertiser.post('/api/advertiser/buy-with-bill-to-pay', {
    campaignExId: ids.campaignId,
    currency: 'eur',
  });
  expect(bought.statusCode, bought.body).toBe(200);
  return bought.json().saleId as number;
}

/** A sale's credit entries in order, as [kind, impressions]. */
async function creditsOf(saleId: number) {
  const entries = await t.db
    .select()
    .from(campaignCredits)
    .where(eq(campaignCredits.saleId, saleId))
    .orderBy(asc(campaignCredits.id));
  return entries.map((entry) => [entry.kind, entry.impressions]);
}

async function latePaymentAudits(saleId: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'sale.latePayment'), eq(auditLog.targetId, saleId)));
}

const mailsAbout = (saleId: number) =>
  t.smtp.messages.filter((mail) => mail.subject === `Helium Ads: payment received for cancelled sale ${saleId}`);

describe('a Bitcoin payment confirmed after its sale was cancelled', () => {
  it('is credited once when five admins confirm it at once, audited and mailed', async () => {
    const saleId = await buyInBitcoin();
    expect((await updateSale(admin, saleId, 'cancel')).statusCode).toBe(200);
    const before = await remaining();
    const responses = await Promise.all(Array.from({ length: 5 }, () => updateSale(admin, saleId, 'confirm')));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const answer = responses.find((response) => response.statusCode === 200)!.json();
    expect(answer.sale).toMatchObject({ state: 'paid', latePayment: 'credited' });

    expect(await saleRow(saleId)).toMatchObject({ state: 'paid', latePayment: 'credited' });
    expect(await remaining()).toBe(before + 100_000);
    const credits = await t.db.select().from(campaignCredits).where(eq(campaignCredits.saleId, saleId));
    expect(credits.map((entry) => [entry.kind, entry.impressions])).toEqual([['purchase', 100_000]]);
    const audits = await latePaymentAudits(saleId);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorUserId).not.toBeNull();
    expect(audits[0]!.details).toMatchObject({ outcome: 'credited', method: 'bitcoin' });
    const mails = mailsAbout(saleId);
    expect(mails.map((mail) => mail.to)).toEqual(['admin@demo.test']);
    expect(mails[0]!.text).toContain('A Bitcoin payment of');
    expect(mails[0]!.text).toContain('/admin/payments');
    expect(await creditMismatches(t.db)).toEqual([]);

    const listed = (await admin.post('/api/admin/get-sales', { state: 'paid' })).json().sales as Array<{
      id: number;
      latePayment: string | null;
    }>;
    expect(listed.find((sale) => sale.id === saleId)?.latePayment).toBe('credited');
  });

  it('with the network set to refund, it is noted for a refund by hand: nothing credited', async () => {
    expect((await admin.post('/api/admin/update-network-settings', { latePaymentAction: 'refund' })).statusCode).toBe(
      200,
    );
    try {
      const saleId = await buyInBitcoin();
      expect((await updateSale(admin, saleId, 'cancel')).statusCode).toBe(200);
      const before = await remaining();
      const confirmed = await updateSale(admin, saleId, 'confirm');
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json().sale).toMatchObject({ state: 'cancelled', latePayment: 'refundByHand' });
      expect(await remaining()).toBe(before);
      expect(await t.db.select().from(campaignCredits).where(eq(campaignCredits.saleId, saleId))).toEqual([]);
      expect((await latePaymentAudits(saleId))[0]!.details).toMatchObject({ outcome: 'refundByHand' });
      expect(mailsAbout(saleId)[0]!.text).toContain('The network settings say refund: send ₿');
      // Settled: confirming again is refused and changes nothing.
      expect((await updateSale(admin, saleId, 'confirm')).statusCode).toBe(409);
      expect(await latePaymentAudits(saleId)).toHaveLength(1);
    } finally {
      await admin.post('/api/admin/update-network-settings', { latePaymentAction: 'credit' });
    }
  });
});

describe('an invoice paid after it was cancelled', () => {
  it('gets its credits back (a reinstatement) and takes its coupon again when still free', async () => {
    await admin.post('/api/admin/create-coupon', { code: 'LATE10', percentOff: 10 });
    expect(
      (await advertiser.post('/api/advertiser/apply-coupon', { campaignExId: ids.campaignId, code: 'LATE10' }))
        .statusCode,
    ).toBe(200);
    const saleId = await buyOnInvoice();
    const [coupon] = await t.db.select().from(coupons).where(eq(coupons.code, 'LATE10'));
    const claim = async () =>
      (await t.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon!.id)))[0]!.saleId;
    expect(await claim()).toBe(saleId);

    const start = await remaining();
    expect((await updateSale(admin, saleId, 'cancel')).statusCode).toBe(200);
    expect(await remaining()).toBe(start - 500_000);
    expect(await claim()).toBeNull();

    expect((await updateSale(admin, saleId, 'confirm')).statusCode).toBe(200);
    expect(await saleRow(saleId)).toMatchObject({ state: 'paid', latePayment: 'credited' });
    expect(await remaining()).toBe(start);
    expect(await creditsOf(saleId)).toEqual([
      ['purchase', 500_000],
      ['cancellation', -500_000],
      ['reinstatement', 500_000],
    ]);
    const money = await t.db
      .select()
      .from(ledgerEntries)
      .where(like(ledgerEntries.note, `invoice sale ${saleId}%`))
      .orderBy(asc(ledgerEntries.id));
    expect(money.map((entry) => [entry.kind, entry.amount])).toEqual([
      ['purchase', 1_062_500_000],
      ['reversal', -1_062_500_000],
      ['purchase', 1_062_500_000],
    ]);
    expect(await claim()).toBe(saleId);
    expect((await latePaymentAudits(saleId))[0]!.details).toMatchObject({
      outcome: 'credited',
      couponTakenAgain: true,
    });
    expect(await creditMismatches(t.db)).toEqual([]);
    // The standing audit finds every invariant held: a cancelled invoice paid late is credited once, not twice.
    const audit = await t.app.ctx.moneyAudit.run('admin');
    expect(audit.checks.filter((check) => !check.ok)).toEqual([]);
  });

  it.each([200_000, 0])(
    'gets back only what the cancellation took (%i left then): what was delivered before is not credited twice',
    async (left) => {
      const saleId = await buyOnInvoice();
      // Delivery consumes the campaign down to 200,000 left (the same count a batch moves, with the summary it writes).
      const delivered = (await remaining()) - left;
      const { advertiserId } = await saleRow(saleId);
      await t.db.transaction(async (tx) => {
        await tx.update(campaigns).set({ remainingImpressions: left }).where(eq(campaigns.id, ids.campaignId));
        await tx.insert(dailyAdStats).values({
          day: left > 0 ? '2026-11-20' : '2026-11-21',
          adId: ids.adId,
          publisherId: ids.publisherId,
          device: 'desktop',
          campaignId: ids.campaignId,
          advertiserId,
          impressions: delivered,
        });
      });
      expect(await creditMismatches(t.db)).toEqual([]);

      expect((await updateSale(admin, saleId, 'cancel')).statusCode).toBe(200);
      expect(await remaining()).toBe(0);
      expect((await updateSale(admin, saleId, 'confirm')).statusCode).toBe(200);
      expect(await remaining()).toBe(left);
      expect(await creditsOf(saleId)).toEqual([
        ['purchase', 500_000],
        ['cancellation', left === 0 ? 0 : -left],
        ['reinstatement', left],
      ]);
      expect(await creditMismatches(t.db)).toEqual([]);
      const audit = await t.app.ctx.moneyAudit.run('admin');
      expect(audit.checks.find((check) => check.name === 'salesCreditedOnce')).toMatchObject({ ok: true });
    },
  );
});

describe('update-sale refusals', () => {
  it('refuses other roles, bad input, a card sale and a paid sale, changing nothing', async () => {
    const saleId = await buyInBitcoin();
    expect((await updateSale(admin, saleId, 'cancel')).statusCode).toBe(200);
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    const before = await databaseFingerprint(t.db, ['sessions', 'login_codes']);
    expect((await updateSale(advertiser, saleId, 'confirm')).statusCode).toBe(403);
    expect((await updateSale(publisher, saleId, 'confirm')).statusCode).toBe(403);
    expect((await updateSale(t.client(), saleId, 'confirm')).statusCode).toBe(401);
    const refund = await updateSale(admin, saleId, 'refund');
    expect(refund.statusCode).toBe(422);
    expect((await admin.post('/api/admin/update-sale', { saleId: 'x', action: 'confirm' })).statusCode).toBe(422);
    const [card] = await t.db.select().from(sales).where(eq(sales.method, 'card')).limit(1);
    const cardConfirm = await updateSale(admin, card!.id, 'confirm');
    expect(cardConfirm.statusCode).toBe(409);
    expect(cardConfirm.json().status).toBe('cardSale');
    const [paid] = await t.db
      .select()
      .from(sales)
      .where(and(eq(sales.method, 'bitcoin'), eq(sales.state, 'paid')))
      .limit(1);
    expect((await updateSale(admin, paid!.id, 'confirm')).statusCode).toBe(409);
    expect(await databaseFingerprint(t.db, ['sessions', 'login_codes'])).toEqual(before);
  });
});
