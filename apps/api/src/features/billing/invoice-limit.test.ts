import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { advertisers, auditLog, sales } from '@helium/db';
import { DAY_MS } from '@helium/domain';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint, demoIds, type DemoIds } from '../../../test/call-samples.ts';

/*
 * Unpaid invoices have a ceiling (issue 32): by default 10 x the network's minimum order of direct billing (10,000
 * euros in the demo), per advertiser, editable by admins; beyond it buy-with-bill-to-pay answers 409 with the
 * reason, also under concurrent purchases. The admin's Payments screen lists what each advertiser owes.
 */

const INVOICE = 1_187_500_000; // 500,000 impressions at 2.50 euros CPM, 5 % tier discount

let t: TestApp;
let ids: DemoIds;
let advertiser: TestClient;
let admin: TestClient;
let publisher: TestClient;
let advertiserId: number;

beforeAll(async () => {
  t = await buildTestApp();
  ids = await demoIds(t.db);
  advertiser = t.client();
  await advertiser.signIn('advertiser@demo.test');
  admin = t.client();
  await admin.signIn('admin@demo.test');
  publisher = t.client();
  await publisher.signIn('publisher@demo.test');
  const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  advertiserId = nordvik!.id;
  await advertiser.post('/api/advertiser/update-buy', {
    supercampaign: { id: ids.campaignId, buy_impressions: 500_000 },
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const buyOnInvoice = () =>
  advertiser.post('/api/advertiser/buy-with-bill-to-pay', { campaignExId: ids.campaignId, currency: 'eur' });

async function unpaidTotal() {
  const rows = await t.db
    .select()
    .from(sales)
    .where(and(eq(sales.advertiserId, advertiserId), eq(sales.method, 'invoice'), eq(sales.state, 'unpaid')));
  return rows.reduce((sum, sale) => sum + sale.amount, 0);
}

const fingerprint = () => databaseFingerprint(t.db, ['sessions', 'login_codes']);

type Outstanding = {
  advertiserId: number;
  brand: string;
  outstanding: number;
  outstandingStr: string;
  limitStr: string;
  isDefaultLimit: boolean;
  isOverLimit: boolean;
  overdueCount: number;
  overdueStr: string;
  invoices: Array<{ saleId: number; invoiceNumber: string; amountStr: string; dueAtStr: string; isOverdue: boolean }>;
};

async function outstandingOfNordvik(): Promise<Outstanding | undefined> {
  const response = await admin.post('/api/admin/get-outstanding-invoices');
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().advertisers as Outstanding[]).find((row) => row.advertiserId === advertiserId);
}

describe('the ceiling of unpaid invoices', () => {
  it('ten purchases at once with the default ceiling: those that fit pass, the others are refused with 409', async () => {
    // The demo's unpaid invoice (1,187.50) and 7 more fit under 10,000 euros; the 9th would not.
    expect(await unpaidTotal()).toBe(INVOICE);
    const responses = await Promise.all(Array.from({ length: 10 }, buyOnInvoice));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array(7).fill(200), ...Array(3).fill(409)]);
    for (const refused of responses.filter((response) => response.statusCode === 409)) {
      expect(refused.json().status).toBe('invoiceLimitReached');
    }
    expect(await unpaidTotal()).toBe(8 * INVOICE);
    expect(await unpaidTotal()).toBeLessThanOrEqual(10_000_000_000);
  });

  it('says why in the buyer’s language, and records nothing', async () => {
    const before = await fingerprint();
    const refused = await buyOnInvoice();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'With this invoice your unpaid invoices would come to 10,687.50 €, above your limit of 10,000.00 € (unpaid today: 9,500.00 €). Pay an open invoice, or pay by card.',
    );
    expect((await advertiser.post('/api/common/update-user', { key: 'locale', value: 'fr' })).statusCode).toBe(200);
    try {
      const french = await buyOnInvoice();
      expect(french.statusCode).toBe(409);
      expect(french.json().message).toMatch(
        /^Avec cette facture, vos factures impayées atteindraient 10.687,50 €, au-delà de votre plafond de 10.000,00 € \(impayé à ce jour\u202f: 9.500,00 €\)\. Réglez une facture ouverte ou payez par carte\.$/,
      );
    } finally {
      await advertiser.post('/api/common/update-user', { key: 'locale', value: 'en' });
    }
    expect(await fingerprint()).toEqual(before);
  });

  it('an invoice paid makes room again', async () => {
    const [oldest] = await t.db
      .select()
      .from(sales)
      .where(and(eq(sales.advertiserId, advertiserId), eq(sales.state, 'unpaid')))
      .limit(1);
    expect((await admin.post('/api/admin/update-sale', { saleId: oldest!.id, action: 'confirm' })).statusCode).toBe(
      200,
    );
    expect((await buyOnInvoice()).statusCode).toBe(200);
    expect((await buyOnInvoice()).statusCode).toBe(409);
  });
});

describe("an advertiser's own ceiling (update-advertiser)", () => {
  it('an admin raises it: audited, listed, and the purchase passes; null goes back to the default', async () => {
    const raised = await admin.post('/api/admin/update-advertiser', { advertiserId, invoiceLimit: 20_000 });
    expect(raised.statusCode, raised.body).toBe(200);
    const [row] = await t.db.select().from(advertisers).where(eq(advertisers.id, advertiserId));
    expect(row!.invoiceLimit).toBe(20_000_000_000);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'advertiser.update'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit!.details).toEqual({ changes: { invoiceLimit: { from: null, to: 20_000_000_000 } } });
    const accounts = await admin.post('/api/admin/get-accounts', { search: 'Nordvik' });
    expect(accounts.json().advertisers[0]).toMatchObject({ id: advertiserId, invoiceLimit: 20_000 });
    expect((await buyOnInvoice()).statusCode).toBe(200);
    expect(await outstandingOfNordvik()).toMatchObject({ limitStr: '20,000.00 €', isDefaultLimit: false });

    expect((await admin.post('/api/admin/update-advertiser', { advertiserId, invoiceLimit: null })).statusCode).toBe(
      200,
    );
    const back = await admin.post('/api/admin/get-accounts', { search: 'Nordvik' });
    expect(back.json().advertisers[0].invoiceLimit).toBeNull();
    // Above the default now: listed as such, and refused.
    expect(await outstandingOfNordvik()).toMatchObject({ isDefaultLimit: true, isOverLimit: true });
    expect((await buyOnInvoice()).statusCode).toBe(409);
  });

  it('refuses bad input and other roles, changing nothing', async () => {
    const before = await fingerprint();
    for (const invoiceLimit of [-1, 'ten', 2_000_000_000]) {
      const response = await admin.post('/api/admin/update-advertiser', { advertiserId, invoiceLimit });
      expect(response.statusCode).toBe(422);
      expect(JSON.stringify(response.json().issues)).toContain('invoiceLimit');
    }
    expect(
      (await admin.post('/api/admin/update-advertiser', { advertiserId: 999_999, invoiceLimit: 5 })).statusCode,
    ).toBe(404);
    for (const client of [advertiser, publisher]) {
      expect((await client.post('/api/admin/update-advertiser', { advertiserId, invoiceLimit: 1e6 })).statusCode).toBe(
        403,
      );
    }
    expect(
      (await t.client().post('/api/admin/update-advertiser', { advertiserId, invoiceLimit: 1e6 })).statusCode,
    ).toBe(401);
    expect(await fingerprint()).toEqual(before);
  });
});

describe('get-outstanding-invoices', () => {
  it("lists each advertiser's unpaid invoices against its ceiling, those past due marked overdue", async () => {
    const listed = await outstandingOfNordvik();
    expect(listed).toMatchObject({ brand: 'Nordvik Outdoor', overdueCount: 0, overdueStr: '0.00 €' });
    expect(listed!.outstanding * 1e6).toBe(await unpaidTotal());
    expect(listed!.limitStr).toBe('10,000.00 €');
    expect(listed!.invoices.every((invoice) => !invoice.isOverdue && invoice.invoiceNumber !== null)).toBe(true);

    // Two invoices issued more than 30 days ago.
    const late = listed!.invoices.slice(0, 2).map((invoice) => invoice.saleId);
    for (const saleId of late) {
      await t.db
        .update(sales)
        .set({ dueAt: new Date(t.clock.now().getTime() - DAY_MS) })
        .where(eq(sales.id, saleId));
    }
    const after = await outstandingOfNordvik();
    expect(after!.overdueCount).toBe(2);
    expect(after!.overdueStr).toBe('2,375.00 €');
    expect(
      after!.invoices
        .filter((invoice) => invoice.isOverdue)
        .map((invoice) => invoice.saleId)
        .sort(),
    ).toEqual(late.sort());
  });

  it('is for admins only', async () => {
    expect((await advertiser.post('/api/admin/get-outstanding-invoices')).statusCode).toBe(403);
    expect((await publisher.post('/api/admin/get-outstanding-invoices')).statusCode).toBe(403);
    expect((await t.client().post('/api/admin/get-outstanding-invoices')).statusCode).toBe(401);
  });
});
