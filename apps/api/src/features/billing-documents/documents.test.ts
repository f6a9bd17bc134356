import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertisers, campaigns, networkSettings, sales } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  invoiceDocumentFor,
  invoiceNumberOf,
  invoicePdfForSale,
  mailInvoice,
  receiptDocumentFor,
  saleDocumentPdf,
} from './documents.ts';
import { pdfText } from './pdf-text.ts';

let t: TestApp;
let advertiserId: number;
let campaignId: number;
let invoiceSale: number;
let cardSale: number;
let bitcoinSale: number;
let settings: typeof networkSettings.$inferSelect;

beforeAll(async () => {
  t = await buildTestApp();
  const [advertiser] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  advertiserId = advertiser!.id;
  const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.advertiserId, advertiserId));
  campaignId = campaign!.id;
  [settings] = (await t.db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1)) as [
    typeof networkSettings.$inferSelect,
  ];
  const base = { advertiserId, campaignId, quantity: 100_000, isCpc: false, fullPrice: 250_000_000 };
  const rows = await t.db
    .insert(sales)
    .values([
      {
        ...base,
        method: 'invoice',
        state: 'unpaid',
        amount: 240_000_000,
        currency: 'eur',
        amountInCurrency: 240_000_000,
        invoiceNumber: 800_042,
        billingInformation: 'Nordvik Outdoor SAS\nAs billed then',
        createdAt: new Date('2027-03-01T08:00:00Z'),
      },
      {
        ...base,
        method: 'card',
        state: 'paid',
        amount: 240_000_000,
        currency: 'usd',
        amountInCurrency: 260_870_000,
        rate: '0.92000000',
        paidAt: new Date('2027-03-02T08:00:00Z'),
        createdAt: new Date('2027-03-02T08:00:00Z'),
      },
      {
        ...base,
        method: 'bitcoin',
        state: 'cancelled',
        amount: 228_000_000,
        currency: 'btc',
        amountInCurrency: 3_722_448_979,
        rate: '61250.00',
        cancelledAt: new Date('2027-03-04T08:00:00Z'),
        createdAt: new Date('2027-03-03T08:00:00Z'),
      },
    ])
    .returning({ id: sales.id });
  [invoiceSale, cardSale, bitcoinSale] = rows.map((row) => row.id) as [number, number, number];
});
afterAll(async () => t?.close());

describe('invoiceDocumentFor', () => {
  it("builds an invoice sale's invoice from the sale and the network settings, VAT included in the amount", async () => {
    const invoice = await invoiceDocumentFor(t.db, invoiceSale, t.app.ctx.hashIds);
    expect(invoice).toMatchObject({
      locale: 'en',
      invoiceNumber: '2027-800042',
      issueDate: new Date('2027-03-01T08:00:00Z'),
      // No due date stored: 30 days after the issue.
      dueDate: new Date('2027-03-31T08:00:00Z'),
      seller: settings.sellerDetails,
      buyer: 'Nordvik Outdoor SAS\nAs billed then',
      buyerVatNumber: 'FR 40 123456824',
      currency: 'eur',
      subtotal: 200_000_000,
      vatBp: settings.vatBp,
      vat: 40_000_000,
      total: 240_000_000,
      bankDetails: settings.bankDetails,
      reference: t.app.ctx.hashIds.encodeSale(invoiceSale),
      paidAt: null,
      cancelledAt: null,
    });
    expect(invoice?.lines).toEqual([
      {
        description: '100,000 impressions \u2014 campaign Nordvik Outdoor',
        quantity: 100_000,
        unitPrice: 2_000_000,
        unitSize: 1000,
        amount: 200_000_000,
      },
    ]);
  });

  it('is null for a sale without an invoice number, and for no sale', async () => {
    expect(await invoiceDocumentFor(t.db, cardSale, t.app.ctx.hashIds)).toBeNull();
    expect(await invoiceDocumentFor(t.db, 2_000_000_000, t.app.ctx.hashIds)).toBeNull();
  });

  it('prints the same number everywhere: invoiceNumberOf', () => {
    expect(invoiceNumberOf({ invoiceNumber: 7, createdAt: new Date('2026-12-31T23:59:59Z') })).toBe('2026-000007');
    expect(invoiceNumberOf({ invoiceNumber: null, createdAt: new Date() })).toBeNull();
  });
});

describe('receiptDocumentFor', () => {
  it('states a dollar sale in dollars, its VAT split in dollars', async () => {
    const receipt = await receiptDocumentFor(t.db, cardSale, t.app.ctx.hashIds);
    expect(receipt).toMatchObject({
      method: 'card',
      state: 'paid',
      currency: 'usd',
      amount: 260_870_000,
      paidAt: new Date('2027-03-02T08:00:00Z'),
      invoiceNumber: null,
      vat: { currency: 'usd', total: 260_870_000, vat: 43_480_000, excludingVat: 217_390_000 },
    });
  });

  it("states a bitcoin sale's VAT on its euro value", async () => {
    const receipt = await receiptDocumentFor(t.db, bitcoinSale, t.app.ctx.hashIds);
    expect(receipt).toMatchObject({
      currency: 'btc',
      amount: 3_722_448_979,
      state: 'cancelled',
      paidAt: null,
      vat: { currency: 'eur', total: 228_000_000, vat: 38_000_000, excludingVat: 190_000_000 },
    });
  });
});

describe('saleDocumentPdf', () => {
  it('is the invoice for an invoice sale, the receipt otherwise', async () => {
    const invoice = await saleDocumentPdf(t.db, invoiceSale, t.app.ctx.hashIds);
    expect(invoice?.kind).toBe('invoice');
    expect(pdfText(invoice!.pdf)).toContain('2027-800042');
    const receipt = await saleDocumentPdf(t.db, bitcoinSale, t.app.ctx.hashIds);
    expect(receipt?.kind).toBe('receipt');
    expect(pdfText(receipt!.pdf)).toContain('Cancelled');
    expect(await saleDocumentPdf(t.db, 2_000_000_000, t.app.ctx.hashIds)).toBeNull();
  });
});

describe('for the billing feature', () => {
  it('invoicePdfForSale renders the invoice, and refuses a sale without one', async () => {
    const pdf = await invoicePdfForSale(t.db, invoiceSale, t.app.ctx.hashIds);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(invoicePdfForSale(t.db, cardSale, t.app.ctx.hashIds)).rejects.toThrow('has no invoice');
  });

  it("mailInvoice mails the invoice to the advertiser's user", async () => {
    const before = t.smtp.messages.length;
    await mailInvoice({ db: t.db, mailer: t.app.ctx.mailer, hashIds: t.app.ctx.hashIds }, invoiceSale);
    const mail = await t.smtp.waitForMail('advertiser@demo.test', before);
    expect(mail.subject).toBe('Helium Ads: invoice 2027-800042');
    expect(mail.text).toContain('240.00 € including VAT');
    expect(mail.text).toContain('by Mar 31, 2027');
    expect(mail.text).toContain(`quoting reference ${t.app.ctx.hashIds.encodeSale(invoiceSale)}`);
  });
});
