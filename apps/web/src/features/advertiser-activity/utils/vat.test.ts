import { describe, expect, it } from 'vitest';
import { vatTexts } from './vat.ts';

describe('vatTexts', () => {
  it('splits a VAT-inclusive price as the invoice does, with its unit price excluding VAT', () => {
    // 100,000 impressions at 2.50 EUR per 1,000 with 5 % off: 237.50 EUR, of which 20 % VAT.
    expect(vatTexts(237.5, 2000, 100_000, false, 'en')).toEqual({
      rate: '20%',
      excludingVat: '197.92 €',
      vat: '39.58 €',
      unitPrice: '1.9792 €',
    });
    expect(vatTexts(237.5, 550, 100_000, false, 'fr')).toMatchObject({ rate: '5,5 %', unitPrice: '2,2512 €' });
  });

  it('says no rate when no VAT applies, and prices clicks one by one', () => {
    expect(vatTexts(40, 0, 100, true, 'en')).toEqual({
      rate: null,
      excludingVat: '40.00 €',
      vat: '0.00 €',
      unitPrice: '0.4000 €',
    });
  });
});
