import { describe, expect, it } from 'vitest';
import { formatAmountInCurrency, formatInvoiceNumber, invoiceDueDate, vatSplit } from '../src/invoice.ts';

describe('vatSplit: the charged amount includes VAT', () => {
  it.each([
    // total (micros), VAT bp, excluding VAT, VAT
    [120_000_000, 2000, 100_000_000, 20_000_000],
    [100_000_000, 2000, 83_330_000, 16_670_000], // 16.666… rounds up to 16.67
    [1_000_000, 2000, 830_000, 170_000], // 0.1666… -> 0.17
    [212_500_000, 2000, 177_080_000, 35_420_000], // 35.4166… -> 35.42
    [10_000, 2000, 10_000, 0], // one cent: VAT 0.17 cent rounds to 0
    [60_000, 2000, 50_000, 10_000], // six cents: exactly one cent of VAT
    [30_000, 2000, 20_000, 10_000], // exactly half a cent (3 x 2000 / 12000) rounds up to one cent
    [105_500_000, 550, 100_000_000, 5_500_000], // 5.5 %
    [123_456_789, 0, 123_456_789, 0], // no VAT
    [0, 2000, 0, 0],
    [-120_000_000, 2000, -100_000_000, -20_000_000], // a reversal mirrors the sale
  ] as const)('%i micros at %i bp = %i + %i', (total, bp, excludingVat, vat) => {
    expect(vatSplit(total, bp)).toEqual({ excludingVat, vat, total });
  });

  it('always adds up to the total, whatever the amount', () => {
    for (let total = 0; total < 5_000_000; total += 7_919) {
      const split = vatSplit(total, 2000);
      expect(split.excludingVat + split.vat).toBe(total);
      expect(split.vat % 10_000).toBe(0);
    }
  });

  it('stays exact beyond what floating point products could hold', () => {
    const total = 9_000_000_000_000_000; // 9 billion euros
    const split = vatSplit(total, 2000);
    expect(split).toEqual({ excludingVat: 7_500_000_000_000_000, vat: 1_500_000_000_000_000, total });
  });

  it.each([
    [1.5, 2000],
    [100, -1],
    [100, 12.5],
  ])('refuses %j micros at %j bp', (total, bp) => {
    expect(() => vatSplit(total, bp)).toThrow(RangeError);
  });
});

describe('formatInvoiceNumber', () => {
  it.each([
    [1, 2026, '2026-000001'],
    [42, 2027, '2027-000042'],
    [1_234_567, 2026, '2026-1234567'],
  ] as const)('%i in %i is %s', (n, year, text) => {
    expect(formatInvoiceNumber(n, year)).toBe(text);
  });

  it.each([0, -3, 1.5])('refuses %j', (n) => {
    expect(() => formatInvoiceNumber(n, 2026)).toThrow(RangeError);
  });
});

describe('invoiceDueDate', () => {
  it('is 30 days after the issue', () => {
    expect(invoiceDueDate(new Date('2026-11-20T10:00:00Z'), 30).toISOString()).toBe('2026-12-20T10:00:00.000Z');
  });
});

describe('formatAmountInCurrency: an amount in the currency it was charged in', () => {
  it.each([
    [1_234_560_000, 'eur', 'en', '1,234.56 €'],
    [1_234_560_000, 'eur', 'fr', '1 234,56 €'],
    [1_234_560_000, 'usd', 'en', '$1,234.56'],
    [1_234_560_000, 'usd', 'fr', '$1 234,56'],
    [12_345_678_912, 'btc', 'en', '\u20BF0.01234568'],
    [12_345_678_912, 'btc', 'fr', '\u20BF0,01234568'],
  ] as const)('%i %s in %s = %s', (amount, currency, locale, text) => {
    expect(formatAmountInCurrency(amount, currency, locale)).toBe(text);
  });

  it('shows 12 decimals of bitcoin when asked', () => {
    expect(formatAmountInCurrency(12_345_678_912, 'btc', 'en', { btcDecimals: 12 })).toBe('\u20BF0.012345678912');
  });
});
