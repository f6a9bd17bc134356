import { describe, expect, it } from 'vitest';
import { createFormatter, DEFAULT_FORMAT_SETTINGS, formatSettingsOf } from './formatter.ts';

describe('createFormatter', () => {
  it('formats in the user locale and currency, converting with the user rates', () => {
    const user = { locale: 'fr' as const, currency: 'usd' as const, usd_to_eur: 0.5, btc_to_eur: 50000 };
    const format = createFormatter(formatSettingsOf(user));
    expect(format.number(1234.5, 2)).toBe('1 234,50');
    expect(format.percent(12.345)).toBe('12,3 %');
    expect(format.money(10)).toBe('$20,00');
    expect(format.euros(1234.5)).toBe('1 234,50 €');
    expect(format.micros(2_500_000)).toBe('$5,00');
  });

  it('shows bitcoin with 8 decimals by default and more on request', () => {
    const format = createFormatter(
      formatSettingsOf({ locale: 'en', currency: 'btc', usd_to_eur: 1, btc_to_eur: 50000 }),
    );
    expect(format.money(5)).toBe('₿0.00010000');
    expect(format.money(5, { btcDecimals: 12 })).toBe('₿0.000100000000');
  });

  it('falls back to en and euros without a user', () => {
    expect(formatSettingsOf(undefined)).toBe(DEFAULT_FORMAT_SETTINGS);
    expect(createFormatter(DEFAULT_FORMAT_SETTINGS).money(1234.56)).toBe('1,234.56 €');
  });
});
