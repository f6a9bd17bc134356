import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { auditLog, campaignCredits, campaigns, coupons, ledgerEntries, sales } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint, demoIds, type DemoIds } from '../../../test/call-samples.ts';
import { counts, decide, publisherId, view } from '../../../test/serve-support.ts';
import { creditMismatches } from './credits-ledger.ts';

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
});
afterAll(async () => {
  await t?.close();
});

async function remaining(): Promise<number> {
  const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, ids.campaignId));
  return row!.remainingImpressions;
}

const chooseQuantity = (buy_impressions: number) =>
  advertiser.post('/api/advertiser/update-buy', { supercampaign: { id: ids.campaignId, buy_impressions } });

describe('the ledger of credits', () => {
  it('holds for the demo data: remaining = credited - consumed, for every campaign', async () => {
    expect(await creditMismatches(t.db)).toEqual([]);
    const kinds = await t.db.select({ kind: campaignCredits.kind }).from(campaignCredits);
    expect(new Set(kinds.map((row) => row.kind))).toEqual(new Set(['opening', 'purchase', 'trial']));
  });

  it('still holds after delivery consumed credits', async () => {
    const before = await counts(t.db);
    const blog = await publisherId(t.db, 'Demo Blog');
    for (let visitor = 1; visitor <= 5; visitor += 1) {
      const who = { ip: `198.51.100.${visitor}` };
      const { ads } = await decide(t, blog, who);
      for (const ad of ads) await view(t, ad.view, who);
    }
    await t.app.delivery.recorder.flush();
    expect((await counts(t.db)).impressions).toBeGreaterThan(before.impressions);
    expect(await creditMismatches(t.db)).toEqual([]);
  });

  it('names a campaign whose remaining credits were changed outside the ledger', async () => {
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, ids.campaignId));
    await t.db
      .update(campaigns)
      .set({ remainingImpressions: row!.remainingImpressions + 1 })
      .where(eq(campaigns.id, ids.campaignId));
    expect((await creditMismatches(t.db)).map((mismatch) => mismatch.campaignId)).toEqual([ids.campaignId]);
    await t.db
      .update(campaigns)
      .set({ remainingImpressions: row!.remainingImpressions })
      .where(eq(campaigns.id, ids.campaignId));
    await t.app.delivery.refresh();
  });
});

describe('the add-credits modal', () => {
  it('answers the purchase fields of the campaign, priced by the server', async () => {
    await chooseQuantity(0);
    const response = await advertiser.post('/api/advertiser/get-purchase', { campaignExId: ids.campaignId });
    expect(response.statusCode).toBe(200);
    const purchase = response.json();
    expect(purchase).toMatchObject({
      is_cpc: false,
      buy_impressions: 0,
      buy_impressions_step: 100_000,
      buyImpressionsMax: 2_000_000,
      buyCpm: 2.5,
      discountAmountPct1: 5,
      discountAmountPct2: 10,
      discountAmountPct3: 15,
      extraDiscountForBtc: 5,
      canBuyInBtc: true,
      canBillToPay: true,
      billToPayMinOrder: 1000,
    });
    expect(purchase.price.full).toBe(0);
  });

  it('update-buy stores the quantity and answers its breakdown', async () => {
    const response = await chooseQuantity(500_000);
    expect(response.statusCode).toBe(200);
    expect(response.json().buy_impressions).toBe(500_000);
    expect(response.json().price).toMatchObject({
      full: 1250,
      discounted: 1187.5,
      discounted2: 1125,
      discountPct: 5,
    });
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, ids.campaignId));
    expect(row!.buyQuantity).toBe(500_000);
  });

  it.each([
    [150_000, 'quantity.notAStep'],
    [2_100_000, 'quantity.aboveMax'],
  ])('refuses quantity %d (%s) and changes nothing', async (quantity, status) => {
    await chooseQuantity(500_000);
    const before = await databaseFingerprint(t.db, ['sessions', 'login_codes']);
    const response = await chooseQuantity(quantity);
    expect(response.statusCode).toBe(422);
    expect(response.json().status).toBe(status);
    expect(await databaseFingerprint(t.db, ['sessions', 'login_codes'])).toEqual(before);
  });

  it("refuses another advertiser's campaign", async () => {
    const [other] = await t.db
      .select()
      .from(campaigns)
      .where(eq(campaigns.isCpc, true))
      .orderBy(asc(campaigns.id))
      .limit(1);
    const response = await advertiser.post('/api/advertiser/update-buy', {
      supercampaign: { id: other!.id, buy_clicks: 500 },
    });
    expect(response.statusCode).toBe(403);
    const [after] = await t.db.select().from(campaigns).where(eq(campaigns.id, other!.id));
    expect(after!.buyQuantity).toBe(0);
  });
});

describe('Bitcoin', () => {
  it('records a pending sale at the server price, mails the instructions, and credits only on confirmation', async () => {
    const before = await remaining();
    const mails = t.smtp.messages.length;
    const response = await advertiser.post('/api/advertiser/buy-with-bitcoin', {
      campaignExId: ids.campaignId,
      buyImpressions: 100_000,
      price: 1, // what a tampered browser shows: never charged
      priceInBitcoin: '0.000000000001',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.amountInBtc).toBe('0.002896341463');
    const [sale] = await t.db.select().from(sales).where(eq(sales.id, body.saleId));
    expect(sale).toMatchObject({ method: 'bitcoin', state: 'pending', amount: 237_500_000, currency: 'btc' });
    expect(await remaining()).toBe(before);

    const mail = await t.smtp.waitForMail('advertiser@demo.test', mails);
    expect(mail.text).toContain('0.002896341463');
    expect(mail.text).toContain(body.reference);
    expect(mail.text).toContain(body.address);

    // Five admins pressing Confirm at once: one credit.
    const confirms = await Promise.all(
      Array.from({ length: 5 }, () => admin.post('/api/admin/update-sale', { saleId: body.saleId, action: 'confirm' })),
    );
    expect(confirms.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await remaining()).toBe(before + 100_000);
    const credits = await t.db.select().from(campaignCredits).where(eq(campaignCredits.saleId, body.saleId));
    expect(credits).toHaveLength(1);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sale.confirm'), eq(auditLog.targetId, body.saleId)));
    expect(audits).toHaveLength(1);
    expect(await creditMismatches(t.db)).toEqual([]);
  });

  it('refuses a quantity that is not a step, and records nothing', async () => {
    const before = await t.db.select().from(sales);
    const response = await advertiser.post('/api/advertiser/buy-with-bitcoin', {
      campaignExId: ids.campaignId,
      buyImpressions: 123,
    });
    expect(response.statusCode).toBe(422);
    expect(await t.db.select().from(sales)).toHaveLength(before.length);
  });

  it('refuses a price shown in bitcoin longer than any price (it is logged as sent), naming it', async () => {
    const before = await t.db.select().from(sales);
    const response = await advertiser.post('/api/advertiser/buy-with-bitcoin', {
      campaignExId: ids.campaignId,
      buyImpressions: 100_000,
      priceInBitcoin: '0.'.padEnd(100_000, '1'),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().issues.map((issue: { path: string }) => issue.path)).toEqual(['priceInBitcoin']);
    expect(await t.db.select().from(sales)).toHaveLength(before.length);
  });
});

describe('direct billing', () => {
  beforeEach(async () => {
    await chooseQuantity(500_000);
  });

  it('credits at once, numbers invoices without gaps, and mails the PDF invoice', async () => {
    const before = await remaining();
    const mails = t.smtp.messages.length;
    const first = await advertiser.post('/api/advertiser/buy-with-bill-to-pay', {
      campaignExId: ids.campaignId,
      currency: 'eur',
    });
    expect(first.statusCode).toBe(200);
    const mail = await t.smtp.waitForMail('advertiser@demo.test', mails);
    const pdf = mail.attachments.find((file) => file.contentType === 'application/pdf');
    expect(pdf?.content.subarray(0, 5).toString()).toBe('%PDF-');
    const second = await advertiser.post('/api/advertiser/buy-with-bill-to-pay', {
      campaignExId: ids.campaignId,
      currency: 'usd',
    });
    expect(second.statusCode).toBe(200);
    const numbers = [first.json().invoiceNumber, second.json().invoiceNumber];
    const invoices = await t.db.select().from(sales).where(eq(sales.method, 'invoice')).orderBy(asc(sales.id));
    const issued = invoices.map((sale) => sale.invoiceNumber);
    expect(issued).toEqual(issued.map((_, index) => index + 1));
    expect(numbers.every((text) => typeof text === 'string' && text.length > 0)).toBe(true);
    expect(await remaining()).toBe(before + 1_000_000);
    const usd = invoices.at(-1)!;
    expect(usd).toMatchObject({ state: 'unpaid', currency: 'usd', amount: 1_187_500_000 });
    expect(usd.dueAt!.getTime() - usd.createdAt.getTime()).toBe(30 * 86_400_000);
  });

  it('is refused under the minimum order, with nothing recorded', async () => {
    await chooseQuantity(100_000);
    const before = await t.db.select().from(sales);
    const response = await advertiser.post('/api/advertiser/buy-with-bill-to-pay', {
      campaignExId: ids.campaignId,
      currency: 'eur',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().status).toBe('billToPayNotAllowed');
    expect(await t.db.select().from(sales)).toHaveLength(before.length);
  });

  it('a cancelled invoice is reversed by new entries, once', async () => {
    const bought = await advertiser.post('/api/advertiser/buy-with-bill-to-pay', {
      campaignExId: ids.campaignId,
      currency: 'eur',
    });
    const saleId = bought.json().saleId as number;
    const before = await remaining();
    const results = await Promise.all(
      Array.from({ length: 3 }, () => admin.post('/api/admin/update-sale', { saleId, action: 'cancel' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await remaining()).toBe(before - 500_000);
    const entries = await t.db.select().from(campaignCredits).where(eq(campaignCredits.saleId, saleId));
    expect(entries.map((entry) => [entry.kind, entry.impressions]).sort()).toEqual([
      ['cancellation', -500_000],
      ['purchase', 500_000],
    ]);
    const money = await t.db
      .select()
      .from(ledgerEntries)
      .where(
        and(eq(ledgerEntries.accountType, 'advertiser'), eq(ledgerEntries.note, `invoice sale ${saleId} cancelled`)),
      );
    expect(money).toHaveLength(1);
    expect(money[0]!.amount).toBe(-1_187_500_000);
    expect(money[0]!.reversesId).not.toBeNull();
    expect(await creditMismatches(t.db)).toEqual([]);
  });
});

describe('admin: payments to confirm', () => {
  it('lists pending Bitcoin sales and unpaid invoices', async () => {
    const response = await admin.post('/api/admin/get-sales', { state: 'toConfirm' });
    expect(response.statusCode).toBe(200);
    const list = response.json().sales as Array<{ method: string; state: string; brand: string }>;
    expect(list.length).toBeGreaterThan(0);
    for (const sale of list) {
      expect(sale.state === 'unpaid' || (sale.method === 'bitcoin' && sale.state === 'pending')).toBe(true);
    }
    expect(list.some((sale) => sale.brand === 'Nordvik Outdoor')).toBe(true);
  });

  it('refuses to confirm a card sale (Stripe confirms those)', async () => {
    const [card] = await t.db.select().from(sales).where(eq(sales.method, 'card')).limit(1);
    const response = await admin.post('/api/admin/update-sale', { saleId: card!.id, action: 'confirm' });
    expect(response.statusCode).toBe(409);
  });

  it('answers 404 for an unknown sale', async () => {
    const response = await admin.post('/api/admin/update-sale', { saleId: 999_999, action: 'confirm' });
    expect(response.statusCode).toBe(404);
  });
});

describe('coupons', () => {
  it('an admin creates one; a code taken is a 409', async () => {
    const created = await admin.post('/api/admin/create-coupon', { code: 'free50k', freeQuantity: 50_000 });
    expect(created.statusCode).toBe(200);
    expect(created.json().coupon).toMatchObject({ code: 'FREE50K', freeQuantity: 50_000, percentOff: null });
    const again = await admin.post('/api/admin/create-coupon', { code: 'FREE50K', percentOff: 5 });
    expect(again.statusCode).toBe(409);
    const both = await admin.post('/api/admin/create-coupon', { code: 'BOTH', percentOff: 5, freeQuantity: 5 });
    expect(both.statusCode).toBe(422);
  });

  it('free credits are added once per advertiser, even with concurrent applies', async () => {
    const before = await remaining();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        advertiser.post('/api/advertiser/apply-coupon', { campaignExId: ids.campaignId, code: 'free50k' }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await remaining()).toBe(before + 50_000);
    expect(await creditMismatches(t.db)).toEqual([]);
  });

  it('a percentage coupon says what applies and lowers the next purchase', async () => {
    await chooseQuantity(500_000);
    const applied = await advertiser.post('/api/advertiser/apply-coupon', {
      campaignExId: ids.campaignId,
      code: 'welcome10',
    });
    expect(applied.statusCode).toBe(200);
    expect(applied.json().couponStr).toBe('Coupon WELCOME10: 10% off your next purchase.');
    expect(applied.json().price).toMatchObject({ full: 1250, discounted: 1062.5, discountPct: 15 });
    const campaignEx = await advertiser.post('/api/advertiser/get-campaignex', { campaignId: ids.campaignId });
    expect(campaignEx.json().couponStr).toContain('WELCOME10');

    const bought = await advertiser.post('/api/advertiser/buy-with-bill-to-pay', {
      campaignExId: ids.campaignId,
      currency: 'eur',
    });
    expect(bought.statusCode).toBe(200);
    const [sale] = await t.db.select().from(sales).where(eq(sales.id, bought.json().saleId));
    expect(sale!.amount).toBe(1_062_500_000);
    // The unpaid invoice holds the coupon (it comes back if the invoice is cancelled): the next purchase is at
    // full price, and says why.
    const after = await advertiser.post('/api/advertiser/get-purchase', { campaignExId: ids.campaignId });
    expect(after.json().couponStr).toBe(
      'Coupon WELCOME10 is held by a purchase awaiting payment: this purchase is at full price. The coupon comes back if that purchase is cancelled or expires.',
    );
    expect(after.json().couponPercentOff).toBe(0);
    const reuse = await advertiser.post('/api/advertiser/apply-coupon', {
      campaignExId: ids.campaignId,
      code: 'WELCOME10',
    });
    expect(reuse.statusCode).toBe(409);
  });

  it('refuses an unknown or expired code', async () => {
    expect(
      (await advertiser.post('/api/advertiser/apply-coupon', { campaignExId: ids.campaignId, code: 'NOPE' }))
        .statusCode,
    ).toBe(404);
    await t.db
      .insert(coupons)
      .values({ code: 'OLD', percentOffBp: 500, expiresAt: new Date(t.clock.now().getTime() - 1000) });
    const expired = await advertiser.post('/api/advertiser/apply-coupon', {
      campaignExId: ids.campaignId,
      code: 'old',
    });
    expect(expired.statusCode).toBe(410);
  });
});

describe('the ledger of credits', () => {
  it('is append-only in the database: an update, a delete or a truncation is refused and changes nothing', async () => {
    const [entry] = await t.db.select().from(campaignCredits).orderBy(asc(campaignCredits.id)).limit(1);
    expect(entry).toBeDefined();
    for (const statement of [
      sql`update campaign_credits set impressions = impressions + 1 where id = ${entry!.id}`,
      sql`delete from campaign_credits where id = ${entry!.id}`,
      sql`truncate campaign_credits`,
    ]) {
      // drizzle wraps the database's reason in a "Failed query" error.
      const refused = await t.db.execute(statement).then(
        () => 'accepted',
        (error: Error) => `${error.message} / ${(error.cause as Error | undefined)?.message}`,
      );
      expect(refused).toMatch(/campaign_credits is append-only/);
      const [after] = await t.db.select().from(campaignCredits).where(eq(campaignCredits.id, entry!.id));
      expect(after).toEqual(entry);
    }
    expect(await creditMismatches(t.db)).toEqual([]);
  });
});
