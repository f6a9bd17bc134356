import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatMicros,
  formatMoney,
  formatNumber,
  formatPercent,
  isoDay,
  round,
  toNumber,
} from '../src/format.ts';

const rates = { usdToEur: 0.92, btcToEur: 80_000 };

describe('round', () => {
  it.each([
    [1.005, 2, 1.01],
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [1234.5678, 2, 1234.57],
    [0.125, 2, 0.13],
    [10, 2, 10],
    [-0.0001, 2, 0],
    ['3.456', 1, 3.5],
    ['abc', 2, 0],
    [null, 2, 0],
    [undefined, 2, 0],
    [Number.NaN, 2, 0],
    [Number.POSITIVE_INFINITY, 2, 0],
    [{}, 2, 0],
    ['', 2, 0],
  ])('round(%j, %i) = %s', (value, decimals, expected) => {
    expect(round(value, decimals)).toBe(expected);
  });

  it('treats bigint as its number', () => {
    expect(toNumber(12n)).toBe(12);
  });
});

describe('formatNumber', () => {
  it.each([
    [1234.56, 'en', 2, '1,234.56'],
    [1234.56, 'fr', 2, '1 234,56'],
    [1234567.891, 'en', 2, '1,234,567.89'],
    [1234567.891, 'fr', 2, '1 234 567,89'],
    [999, 'en', 0, '999'],
    [1000, 'fr', 0, '1 000'],
    [0, 'en', 2, '0.00'],
    [-1234.5, 'en', 1, '-1,234.5'],
    [-1234.5, 'fr', 1, '-1 234,5'],
    ['not a number', 'en', 2, '0.00'],
    [null, 'fr', 0, '0'],
    [0.000012345, 'en', 8, '0.00001235'],
  ] as const)('formatNumber(%j, %s, %i) = %s', (value, locale, decimals, expected) => {
    expect(formatNumber(value, locale, decimals)).toBe(expected);
  });
});

describe('formatPercent', () => {
  it.each([
    [12.345, 'en', 1, '12.3%'],
    [12.345, 'fr', 1, '12,3 %'],
    [0.05, 'en', 2, '0.05%'],
    ['x', 'en', 1, '0.0%'],
  ] as const)('formatPercent(%j, %s, %i) = %s', (value, locale, decimals, expected) => {
    expect(formatPercent(value, locale, decimals)).toBe(expected);
  });
});

describe('formatMoney', () => {
  it.each([
    [1234.56, 'en', 'eur', '1,234.56 €'],
    [1234.56, 'fr', 'eur', '1 234,56 €'],
    [0.5, 'en', 'eur', '0.50 €'],
    [-12.3, 'fr', 'eur', '-12,30 €'],
    [92, 'en', 'usd', '$100.00'],
    [920, 'fr', 'usd', '$1 000,00'],
    [-9.2, 'en', 'usd', '-$10.00'],
    [80_000, 'en', 'btc', '₿1.00000000'],
    [1000, 'en', 'btc', '₿0.01250000'],
    [1000, 'fr', 'btc', '₿0,01250000'],
    ['oops', 'en', 'eur', '0.00 €'],
  ] as const)('formatMoney(%j, %s, %s) = %s', (euros, locale, currency, expected) => {
    expect(formatMoney(euros, { locale, currency, rates })).toBe(expected);
  });

  it('shows 12 bitcoin decimals for the purchase confirmation', () => {
    expect(formatMoney(1, { currency: 'btc', rates, btcDecimals: 12 })).toBe('₿0.000012500000');
  });

  it('formats stored micro-euros', () => {
    expect(formatMicros(2_500_000, { locale: 'fr' })).toBe('2,50 €');
    expect(formatMicros(1_234_567_890, { locale: 'en' })).toBe('1,234.57 €');
    expect(formatMicros(50_000_000n, { locale: 'en', currency: 'usd', rates })).toBe('$54.35');
  });

  it('shows 0 rather than Infinity when a rate is missing', () => {
    expect(formatMoney(10, { currency: 'usd', rates: { usdToEur: 0, btcToEur: 0 } })).toBe('$0.00');
  });
});

describe('dates (UTC)', () => {
  const moment = '2026-11-22T23:30:00Z';
  it.each([
    ['en', 'Nov 22, 2026'],
    ['fr', '22 nov. 2026'],
  ] as const)('formatDate in %s', (locale, expected) => {
    expect(formatDate(moment, locale)).toBe(expected);
  });

  it('formats a moment with a 24-hour time', () => {
    expect(formatDateTime(moment, 'en')).toContain('23:30');
    expect(formatDateTime(moment, 'fr')).toContain('23:30');
  });

  it('answers an empty text for an invalid date', () => {
    expect(formatDate('not a date', 'en')).toBe('');
    expect(isoDay('nope')).toBe('');
  });

  it('gives the UTC day', () => {
    expect(isoDay(moment)).toBe('2026-11-22');
  });
});
