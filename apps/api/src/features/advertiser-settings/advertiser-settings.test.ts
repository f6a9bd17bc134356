import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertisers, campaigns, sales, type Database } from '@helium/db';
import { ZAdvertiserSettingsSchema } from '@helium/contracts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { pdfText } from '../billing-documents/pdf-text.ts';

let t: TestApp;
/** The demo advertiser (advertiser@demo.test) and one of the multi-account user's (multi@demo.test, French). */
let nordvik: number;
let atelier: number;
let nordvikCard: number;
let nordvikBitcoin: number;
let nordvikInvoice: number;
let atelierCard: number;

type NewSale = Partial<typeof sales.$inferInsert> & Pick<typeof sales.$inferInsert, 'advertiserId' | 'campaignId'>;

/** A sale as the purchase flows record one (inserted directly: those flows are the billing feature's). */
async function insertSale(db: Database, sale: NewSale): Promise<number> {
  const [row] = await db
    .insert(sales)
    .values({
      method: 'card',
      state: 'paid',
      quantity: 100_000,
      isCpc: false,
      fullPrice: 1_234_560_000,
      amount: 1_234_560_000,
      currency: 'eur',
      amountInCurrency: 1_234_560_000,
      ...sale,
    })
    .returning({ id: sales.id });
  return row!.id;
}

async function advertiserId(db: Database, brand: string): Promise<number> {
  const [row] = await db.select({ id: advertisers.id }).from(advertisers).where(eq(advertisers.brand, brand));
  return row!.id;
}

async function campaignOf(db: Database, advertiser: number): Promise<number> {
  const [existing] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(eq(campaigns.advertiserId, advertiser));
  if (existing) return existing.id;
  const [created] = await db.insert(campaigns).values({ advertiserId: advertiser, cpm: 2_000_000 }).returning();
  return created!.id;
}

async function billingInformationOf(advertiser: number): Promise<string | null> {
  const [row] = await t.db.select().from(advertisers).where(eq(advertisers.id, advertiser));
  return row!.billingInformation;
}

/** Signed in as `email`, working as advertiser `account` when given. */
async function signedIn(email: string, account?: number): Promise<TestClient> {
  const client = t.client();
  await client.signIn(email);
  if (account) {
    const switched = await client.post('/api/common/update-user', { key: 'type', value: `2,${account}` });
    expect(switched.json()).toEqual({ status: 'ok' });
  }
  return client;
}

beforeAll(async () => {
  t = await buildTestApp();
  nordvik = await advertiserId(t.db, 'Nordvik Outdoor');
  atelier = await advertiserId(t.db, 'Atelier Céramique');
  const nordvikCampaign = await campaignOf(t.db, nordvik);
  const atelierCampaign = await campaignOf(t.db, atelier);
  nordvikCard = await insertSale(t.db, {
    advertiserId: nordvik,
    campaignId: nordvikCampaign,
    paidAt: new Date('2027-01-10T09:00:00Z'),
    createdAt: new Date('2027-01-10T09:00:00Z'),
  });
  nordvikBitcoin = await insertSale(t.db, {
    advertiserId: nordvik,
    campaignId: nordvikCampaign,
    method: 'bitcoin',
    state: 'pending',
    amount: 750_000_000,
    currency: 'btc',
    amountInCurrency: 12_345_678_912,
    rate: '60750.00',
    createdAt: new Date('2027-01-11T09:00:00Z'),
  });
  nordvikInvoice = await insertSale(t.db, {
    advertiserId: nordvik,
    campaignId: nordvikCampaign,
    method: 'invoice',
    state: 'unpaid',
    quantity: 500,
    isCpc: true,
    amount: 1_380_000_000,
    currency: 'usd',
    amountInCurrency: 1_500_000_000,
    rate: '0.92000000',
    invoiceNumber: 900_001,
    billingInformation: 'Nordvik Outdoor SAS\nBilling department\n38000 Grenoble',
    dueAt: new Date('2027-02-11T09:00:00Z'),
    createdAt: new Date('2027-01-12T09:00:00Z'),
  });
  atelierCard = await insertSale(t.db, {
    advertiserId: atelier,
    campaignId: atelierCampaign,
    createdAt: new Date('2027-01-13T09:00:00Z'),
  });
});
afterAll(async () => t?.close());

describe('get-settings', () => {
  it("answers the advertiser, its billing information and its sales, newest first, in the user's language", async () => {
    const client = await signedIn('advertiser@demo.test');
    const response = await client.post('/api/advertiser/get-settings');
    expect(response.statusCode).toBe(200);
    const settings = ZAdvertiserSettingsSchema.parse(response.json());
    expect(settings.advertiser).toMatchObject({ id: nordvik, brand: 'Nordvik Outdoor', type: 2 });
    expect(settings.advertiser.createdAtStr).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(settings.form.billingInformation.address).toBe(await billingInformationOf(nordvik));

    const stored = await t.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.advertiserId, nordvik))
      .orderBy(desc(sales.createdAt), desc(sales.id));
    expect(settings.sales.map((sale) => sale.id)).toEqual(stored.map((sale) => sale.id));
    expect(settings.sales.slice(0, 3).map((sale) => sale.id)).toEqual([nordvikInvoice, nordvikBitcoin, nordvikCard]);

    const byId = new Map(settings.sales.map((sale) => [sale.id, sale]));
    expect(byId.get(nordvikCard)).toEqual({
      id: nordvikCard,
      hash_id: t.app.ctx.hashIds.encodeSale(nordvikCard),
      createdAtStr: 'Jan 10, 2027',
      amountStr: '1,234.56 €',
      is_paid: true,
      method: 'card',
      state: 'paid',
      quantity: 100_000,
      is_cpc: false,
    });
    expect(byId.get(nordvikBitcoin)).toMatchObject({
      amountStr: '\u20BF0.012345678912',
      is_paid: false,
      state: 'pending',
    });
    expect(byId.get(nordvikInvoice)).toMatchObject({
      amountStr: '$1,500.00',
      is_paid: false,
      method: 'invoice',
      state: 'unpaid',
      quantity: 500,
      is_cpc: true,
    });
  });

  it('gives another advertiser only its own data (in French for a French user)', async () => {
    const client = await signedIn('multi@demo.test', atelier);
    const response = await client.post('/api/advertiser/get-settings');
    expect(response.statusCode).toBe(200);
    const settings = ZAdvertiserSettingsSchema.parse(response.json());
    expect(settings.advertiser).toMatchObject({ id: atelier, brand: 'Atelier Céramique', type: 2 });
    expect(settings.form.billingInformation.address).toBe((await billingInformationOf(atelier)) ?? '');
    expect(settings.sales.map((sale) => sale.id)).toEqual([atelierCard]);
    expect(settings.sales[0]).toMatchObject({ createdAtStr: '13 janv. 2027', amountStr: '1 234,56 €' });
  });

  it('refuses a publisher (403) and a signed-out caller (401)', async () => {
    const publisher = await signedIn('publisher@demo.test');
    expect((await publisher.post('/api/advertiser/get-settings')).statusCode).toBe(403);
    expect((await t.client().post('/api/advertiser/get-settings')).statusCode).toBe(401);
  });
});

describe('save-settings', () => {
  it('stores the billing information of the advertiser in use, and only it', async () => {
    const client = await signedIn('advertiser@demo.test');
    const atelierBefore = await billingInformationOf(atelier);
    const address = 'Nordvik Outdoor SAS\n1 avenue Neuve\n38000 Grenoble';
    const response = await client.post('/api/advertiser/save-settings', {
      field: 'billingInformation',
      data: { address: `  ${address}  ` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(await billingInformationOf(nordvik)).toBe(address);
    expect(await billingInformationOf(atelier)).toBe(atelierBefore);
    const settings = (await client.post('/api/advertiser/get-settings')).json();
    expect(settings.form.billingInformation.address).toBe(address);
  });

  it.each([
    ['an empty address', { field: 'billingInformation', data: { address: '' } }],
    ['an address of spaces', { field: 'billingInformation', data: { address: '   \n ' } }],
    ['no address', { field: 'billingInformation', data: {} }],
    ['another field', { field: 'bitcoin', data: { address: 'x' } }],
    ['an address too long', { field: 'billingInformation', data: { address: 'x'.repeat(2001) } }],
  ])('refuses %s with a 422 and changes nothing', async (_case, body) => {
    const client = await signedIn('advertiser@demo.test');
    const before = await billingInformationOf(nordvik);
    const response = await client.post('/api/advertiser/save-settings', body);
    expect(response.statusCode).toBe(422);
    expect(await billingInformationOf(nordvik)).toBe(before);
  });

  it('says errorAddress for an empty address', async () => {
    const client = await signedIn('advertiser@demo.test');
    const response = await client.post('/api/advertiser/save-settings', {
      field: 'billingInformation',
      data: { address: ' ' },
    });
    expect(JSON.stringify(response.json().issues)).toContain('errorAddress');
  });

  it('refuses a publisher (403), a signed-out caller (401) and a missing anti-forgery token (419)', async () => {
    const before = await billingInformationOf(nordvik);
    const body = { field: 'billingInformation', data: { address: 'Somewhere else' } };
    const publisher = await signedIn('publisher@demo.test');
    expect((await publisher.post('/api/advertiser/save-settings', body)).statusCode).toBe(403);
    expect((await t.client().post('/api/advertiser/save-settings', body)).statusCode).toBe(401);
    const advertiser = await signedIn('advertiser@demo.test');
    expect((await advertiser.post('/api/advertiser/save-settings', body, { xsrf: false })).statusCode).toBe(419);
    expect(await billingInformationOf(nordvik)).toBe(before);
  });
});

describe('GET /advertiser/receipt/:hashId', () => {
  const receiptUrl = (saleId: number) => `/advertiser/receipt/${t.app.ctx.hashIds.encodeSale(saleId)}`;

  it("downloads a card sale's receipt as a PDF for its owner", async () => {
    const client = await signedIn('advertiser@demo.test');
    const hashId = t.app.ctx.hashIds.encodeSale(nordvikCard);
    const response = await client.get(`/advertiser/receipt/${hashId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="receipt-${hashId}.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(response.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Receipt');
    expect(text).toContain(`Reference: ${hashId}`);
    expect(text).toContain('1,234.56 €');
    expect(text).toContain('Paid');
  });

  it("downloads a pending bitcoin sale's receipt saying it is not yet paid", async () => {
    const client = await signedIn('advertiser@demo.test');
    const response = await client.get(receiptUrl(nordvikBitcoin));
    expect(response.statusCode).toBe(200);
    const text = pdfText(response.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Not yet paid');
    expect(text).toContain('BTC 0.012345678912');
  });

  it("downloads an invoice sale's invoice: its number, the dollars, the VAT it includes and how to pay", async () => {
    const client = await signedIn('advertiser@demo.test');
    const response = await client.get(receiptUrl(nordvikInvoice));
    expect(response.statusCode).toBe(200);
    const text = pdfText(response.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Invoice number: 2027-900001');
    expect(text).toContain('Due date: Feb 11, 2027');
    expect(text).toContain('Billing department');
    expect(text).toContain('500 clicks \u2014 campaign Nordvik Outdoor');
    expect(text).toContain('$1,250.00'); // excluding VAT
    expect(text).toContain('$250.00'); // VAT at 20 %
    expect(text).toContain('$1,500.00');
    expect(text).toContain(`quoting reference ${t.app.ctx.hashIds.encodeSale(nordvikInvoice)}`);
  });

  it('answers 404 to another advertiser, and to a user working as a publisher', async () => {
    const other = await signedIn('multi@demo.test', atelier);
    expect((await other.get(receiptUrl(nordvikCard))).statusCode).toBe(404);
    expect((await other.get(receiptUrl(atelierCard))).statusCode).toBe(200);
    const publisher = await signedIn('publisher@demo.test');
    expect((await publisher.get(receiptUrl(nordvikCard))).statusCode).toBe(404);
  });

  it("downloads any receipt for an admin, in the buyer's language", async () => {
    const admin = await signedIn('admin@demo.test');
    const response = await admin.get(receiptUrl(atelierCard));
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfText(response.rawPayload)).toContain('Reçu');
    expect((await admin.get(receiptUrl(nordvikInvoice))).statusCode).toBe(200);
  });

  it('answers 404, not 401 nor a redirect, when signed out', async () => {
    const response = await t.client().get(receiptUrl(nordvikCard));
    expect(response.statusCode).toBe(404);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['content-type']).not.toBe('application/pdf');
  });

  it('answers 404 to an unknown or malformed hash id, even for an admin', async () => {
    const admin = await signedIn('admin@demo.test');
    const [last] = await t.db.select({ id: sales.id }).from(sales).orderBy(desc(sales.id)).limit(1);
    for (const url of [
      receiptUrl(last!.id + 1000),
      '/advertiser/receipt/not-a-hash',
      `/advertiser/receipt/${t.app.ctx.hashIds.encodeAd(nordvikCard)}`,
      `/advertiser/receipt/${'A'.repeat(80)}`,
    ]) {
      expect((await admin.get(url)).statusCode, url).toBe(404);
    }
  });

  it('reads the sale only: downloading changes nothing', async () => {
    const client = await signedIn('advertiser@demo.test');
    const before = await t.db
      .select()
      .from(sales)
      .where(and(eq(sales.id, nordvikInvoice)));
    await client.get(receiptUrl(nordvikInvoice));
    expect(await t.db.select().from(sales).where(eq(sales.id, nordvikInvoice))).toEqual(before);
  });
});
