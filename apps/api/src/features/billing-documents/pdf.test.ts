import { describe, expect, it } from 'vitest';
import { vatSplit } from '@helium/domain/invoice';
import {
  formatInvoiceNumber,
  renderInvoicePdf,
  renderReceiptPdf,
  type InvoiceDocument,
  type ReceiptDocument,
} from './pdf.ts';
import { picoBtcText } from '../billing/purchase.ts';
import { pdfText as linesOf } from './pdf-text.ts';

/** The document's text on one line: a long description wraps. */
const pdfText = (pdf: Buffer) => linesOf(pdf).replace(/\s+/g, ' ');

const SELLER = 'Helium Ads SAS\n10 rue de la Paix\n75002 Paris, France\nVAT FR00123456789';
const BUYER = 'Nordvik Outdoor SAS\n12 rue des Alpes\n38000 Grenoble\nFrance';

function invoice(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  // 100,000 impressions at 2.125 € per thousand, 212.50 € including 20 % VAT.
  const split = vatSplit(212_500_000, 2000);
  return {
    locale: 'en',
    invoiceNumber: formatInvoiceNumber(1, 2026),
    issueDate: new Date('2026-11-20T10:00:00Z'),
    dueDate: new Date('2026-12-20T10:00:00Z'),
    seller: SELLER,
    buyer: BUYER,
    buyerVatNumber: 'FR 40 123456824',
    lines: [
      {
        description: '100,000 impressions \u2014 campaign Nordvik Outdoor',
        quantity: 100_000,
        unitPrice: (split.excludingVat * 1000) / 100_000,
        unitSize: 1000,
        amount: split.excludingVat,
      },
    ],
    currency: 'eur',
    subtotal: split.excludingVat,
    vatBp: 2000,
    vat: split.vat,
    total: split.total,
    bankDetails: 'IBAN FR76 3000 6000 0112 3456 7890 189\nBIC AGRIFRPP',
    reference: 'K7M2QX9P4B',
    ...overrides,
  };
}

function receipt(overrides: Partial<ReceiptDocument> = {}): ReceiptDocument {
  return {
    locale: 'en',
    reference: 'K7M2QX9P4B',
    date: new Date('2026-11-20T10:00:00Z'),
    paidAt: new Date('2026-11-20T10:05:00Z'),
    seller: SELLER,
    buyer: BUYER,
    description: '100,000 impressions \u2014 campaign Nordvik Outdoor',
    method: 'card',
    state: 'paid',
    currency: 'eur',
    amount: 1_234_560_000,
    vat: { ...vatSplit(1_234_560_000, 2000), currency: 'eur', vatBp: 2000 },
    ...overrides,
  };
}

describe('the invoice PDF', () => {
  it('is a PDF with the number, the dates, the lines, the totals and how to pay, in English', async () => {
    const pdf = await renderInvoicePdf(invoice());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      'Invoice',
      'Invoice number: 2026-000001',
      'Issue date: Nov 20, 2026',
      'Due date: Dec 20, 2026',
      'Helium Ads SAS',
      'Nordvik Outdoor SAS',
      'VAT number: FR 40 123456824',
      '100,000 impressions \u2014 campaign Nordvik Outdoor',
      '100,000',
      '1.7708 \u20AC per 1,000',
      'Subtotal excluding VAT',
      '177.08 \u20AC',
      'VAT (20%)',
      '35.42 \u20AC',
      'Total including VAT',
      '212.50 \u20AC',
      'Payment by bank transfer within 30 days, quoting reference K7M2QX9P4B.',
      'IBAN FR76 3000 6000 0112 3456 7890 189',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Paid on');
  });

  it('is in French for a French buyer', async () => {
    const text = pdfText(await renderInvoicePdf(invoice({ locale: 'fr', vatBp: 550 })));
    for (const expected of [
      'Facture',
      'Facture n° : 2026-000001',
      "Date d'échéance : 20 déc. 2026",
      'Total HT',
      'TVA (5,5 %)',
      'Total TTC',
      '212,50 \u20AC',
      'Paiement par virement bancaire sous 30 jours, en indiquant la référence K7M2QX9P4B.',
      'Coordonnées bancaires',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('prints dollars with the dollar sign, and a paid stamp once paid', async () => {
    const split = vatSplit(1_234_560_000, 2000);
    const text = pdfText(
      await renderInvoicePdf(
        invoice({
          currency: 'usd',
          subtotal: split.excludingVat,
          vat: split.vat,
          total: split.total,
          paidAt: new Date('2026-12-01T00:00:00Z'),
        }),
      ),
    );
    expect(text).toContain('$1,234.56');
    expect(text).toContain('$205.76');
    expect(text).toContain('Paid on Dec 1, 2026');
  });

  it('can be written without compression, the text then readable as is', async () => {
    const pdf = await renderInvoicePdf(invoice(), { compress: false });
    expect(pdf.toString('latin1')).not.toContain('/FlateDecode');
    expect(pdfText(pdf)).toContain('2026-000001');
  });
});

describe('the receipt PDF', () => {
  it('says receipt, the reference, the method, the state and the amount with its VAT', async () => {
    const pdf = await renderReceiptPdf(receipt());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      'Receipt',
      'Reference: K7M2QX9P4B',
      'Date: Nov 20, 2026',
      'Card',
      'Paid',
      'Amount paid',
      '1,234.56 \u20AC',
      'Of which VAT (20%)',
      '205.76 \u20AC',
      '1,028.80 \u20AC',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('says not yet paid, in French, for a pending bitcoin sale, with its euro value', async () => {
    const text = pdfText(
      await renderReceiptPdf(
        receipt({
          locale: 'fr',
          method: 'bitcoin',
          state: 'pending',
          paidAt: null,
          currency: 'btc',
          amount: 12_345_678_912,
          vat: { ...vatSplit(750_000_000, 2000), currency: 'eur', vatBp: 2000 },
        }),
      ),
    );
    for (const expected of [
      'Reçu',
      'Référence : K7M2QX9P4B',
      'Bitcoin',
      'Pas encore payé',
      'Montant dû',
      // To the pico-bitcoin, as the e-mail asked for it (picoBtcText).
      `BTC ${picoBtcText(12_345_678_912).replace('.', ',')}`,
      'Contre-valeur en euros',
      '750,00 \u20AC',
      'Dont TVA (20 %)',
      '125,00 \u20AC',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('\u20BF');
  });

  it('names the invoice of an invoice sale', async () => {
    const text = pdfText(
      await renderReceiptPdf(receipt({ method: 'invoice', state: 'unpaid', invoiceNumber: '2026-000007' })),
    );
    expect(text).toContain('Invoice number: 2026-000007');
    expect(text).toContain('Bank transfer (invoice)');
    expect(text).toContain('Not yet paid');
  });
});
