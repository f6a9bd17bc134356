/**
 * The one formatting module for numbers, money, percentages and dates, shared by the API (the `...Str`
 * fields it returns) and the web app. Separators are written out by hand rather than taken from
 * Intl.NumberFormat so that every runtime prints the same characters: en `1,234.56`, fr `1 234,56`.
 */
import { MICROS_PER_EURO, type Micros } from './money.ts';

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const CURRENCIES = ['eur', 'usd', 'btc'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** What converting a euro amount into the user's currency needs: EUR per 1 USD and EUR per 1 BTC. */
export interface CurrencyRates {
  usdToEur: number;
  btcToEur: number;
}

const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  en: { group: ',', decimal: '.' },
  fr: { group: ' ', decimal: ',' },
};

export const BITCOIN_SIGN = '\u20BF';

/** Turns anything into a finite number; what is not numeric counts as 0. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : 0;
  }
  return 0;
}

/**
 * Rounds half away from zero to `decimals` places. Non-numeric input counts as 0.
 * Uses the exponent notation trick so that 1.005 rounds to 1.01, as a person expects.
 */
export function round(value: unknown, decimals = 0): number {
  const n = toNumber(value);
  const places = Math.max(0, Math.min(12, Math.trunc(decimals)));
  const sign = n < 0 ? -1 : 1;
  const shifted = Math.round(Number(`${Math.abs(n)}e${places}`));
  const result = sign * Number(`${shifted}e-${places}`);
  return Object.is(result, -0) ? 0 : result;
}

function groupDigits(integerDigits: string, separator: string): string {
  return integerDigits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** `1234.5` -> en `1,234.50`, fr `1 234,50` (with decimals = 2). */
export function formatNumber(value: unknown, locale: Locale = 'en', decimals = 0): string {
  const rounded = round(value, decimals);
  const { group, decimal } = SEPARATORS[locale] ?? SEPARATORS.en;
  const [integerPart = '0', fractionPart] = Math.abs(rounded)
    .toFixed(Math.max(0, Math.min(12, decimals)))
    .split('.');
  const sign = rounded < 0 ? '-' : '';
  const grouped = groupDigits(integerPart, group);
  return fractionPart ? `${sign}${grouped}${decimal}${fractionPart}` : `${sign}${grouped}`;
}

/** A percentage already expressed in percent: `12.345` -> en `12.3%`, fr `12,3 %`. */
export function formatPercent(value: unknown, locale: Locale = 'en', decimals = 1): string {
  const text = formatNumber(value, locale, decimals);
  return locale === 'fr' ? `${text} %` : `${text}%`;
}

/** Converts a euro amount (in euros, not micros) into the currency it is shown in. */
export function convertEuros(euros: number, currency: Currency, rates: CurrencyRates): number {
  if (currency === 'usd') return rates.usdToEur > 0 ? euros / rates.usdToEur : 0;
  if (currency === 'btc') return rates.btcToEur > 0 ? euros / rates.btcToEur : 0;
  return euros;
}

export interface MoneyFormatOptions {
  locale?: Locale;
  currency?: Currency;
  rates?: CurrencyRates;
  /** Decimals for BTC; 8 by default, 12 in the bitcoin purchase confirmation. */
  btcDecimals?: number;
}

const NO_RATES: CurrencyRates = { usdToEur: 1, btcToEur: 1 };

/** Decimals an amount is shown with in each currency (BTC: 8 by default, see MoneyFormatOptions.btcDecimals). */
export const MONEY_DECIMALS: Readonly<Record<Currency, number>> = { eur: 2, usd: 2, btc: 8 };

/**
 * Shows a euro amount in the user's currency: EUR `1,234.56 €`, USD `$1,234.56`, BTC `₿0.01234567`.
 * Takes euros (a number); use formatMicros for stored amounts.
 */
export function formatMoney(euros: unknown, options: MoneyFormatOptions = {}): string {
  const { locale = 'en', currency = 'eur', rates = NO_RATES, btcDecimals = MONEY_DECIMALS.btc } = options;
  const amount = convertEuros(toNumber(euros), currency, rates);
  if (currency === 'eur') return `${formatNumber(amount, locale, MONEY_DECIMALS.eur)} €`;
  const decimals = currency === 'btc' ? btcDecimals : MONEY_DECIMALS[currency];
  const prefix = currency === 'btc' ? BITCOIN_SIGN : '$';
  const text = formatNumber(amount, locale, decimals);
  return text.startsWith('-') ? `-${prefix}${text.slice(1)}` : `${prefix}${text}`;
}

/** Shows a stored amount of integer micro-euros in the user's currency. */
export function formatMicros(micros: Micros | number | bigint, options: MoneyFormatOptions = {}): string {
  return formatMoney(Number(micros) / MICROS_PER_EURO, options);
}

const DATE_LOCALES: Record<Locale, string> = { en: 'en-US', fr: 'fr-FR' };

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const DAY_OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' };
const MOMENT_OPTIONS: Intl.DateTimeFormatOptions = {
  ...DAY_OPTIONS,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

function formatInUtc(value: Date | string | number, locale: Locale, options: Intl.DateTimeFormatOptions): string {
  const date = toDate(value);
  return date ? new Intl.DateTimeFormat(DATE_LOCALES[locale] ?? 'en-US', options).format(date) : '';
}

/** A calendar day in UTC, the network's time base: en `Nov 22, 2026`, fr `22 nov. 2026`. */
export function formatDate(value: Date | string | number, locale: Locale = 'en'): string {
  return formatInUtc(value, locale, DAY_OPTIONS);
}

/** A moment in UTC: en `Nov 22, 2026, 14:05`, fr `22 nov. 2026, 14:05`. */
export function formatDateTime(value: Date | string | number, locale: Locale = 'en'): string {
  return formatInUtc(value, locale, MOMENT_OPTIONS);
}

/** `YYYY-MM-DD` of a moment, in UTC. */
export function isoDay(value: Date | string | number): string {
  const date = toDate(value);
  return date ? date.toISOString().slice(0, 10) : '';
}
