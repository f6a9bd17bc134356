import { formatMoney, formatNumber, type Currency, type Locale, type MoneyFormatOptions } from './format.ts';
import { MICROS_PER_CENT, PICO_BTC_PER_BTC } from './pricing.ts';
import { DAY_MS } from './time.ts';

/*
 * What invoices and receipts print (specification 02, sections 2.4 and 9; design decisions section 3).
 *
 * VAT, stated once: the amount a sale charges is the price the buyer was quoted, and it INCLUDES VAT. An invoice
 * or a receipt splits it: VAT = total - total / (1 + rate), rounded to the cent (halves away from zero), and the
 * amount excluding VAT is the rest, so the two always add up to exactly what the buyer pays.
 */

const WHOLE_BP = 10_000;

/** A VAT-inclusive total split into its amount excluding VAT and its VAT (all in micro-units of one currency). */
export interface VatSplit {
  excludingVat: number;
  vat: number;
  total: number;
}

/**
 * Splits a total that includes VAT at `vatBp` (2000 = 20 %) into excluding-VAT and VAT parts. The VAT is
 * total x rate / (1 + rate) rounded to the cent; exact integer arithmetic, so no amount is off by a float.
 */
export function vatSplit(totalMicros: number, vatBp: number): VatSplit {
  if (!Number.isSafeInteger(totalMicros)) throw new RangeError(`Not an amount in micro-units: ${totalMicros}`);
  if (!Number.isInteger(vatBp) || vatBp < 0) throw new RangeError(`Not a VAT rate in basis points: ${vatBp}`);
  const sign = totalMicros < 0 ? -1n : 1n;
  const total = BigInt(Math.abs(totalMicros));
  // VAT in cents = total x bp / ((10000 + bp) x micros per cent), rounded half up.
  const numerator = total * BigInt(vatBp);
  const denominator = BigInt(WHOLE_BP + vatBp) * BigInt(MICROS_PER_CENT);
  const vatCents = (numerator * 2n + denominator) / (denominator * 2n);
  const vat = Number(sign * vatCents * BigInt(MICROS_PER_CENT));
  const excludingVat = totalMicros - vat;
  return { excludingVat: excludingVat === 0 ? 0 : excludingVat, vat: vat === 0 ? 0 : vat, total: totalMicros };
}

/**
 * An invoice number as printed: the year it was issued and the sequential number (without gaps, across years)
 * on six digits: 2026-000001.
 */
export function formatInvoiceNumber(n: number, year: number): string {
  if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`Not an invoice number: ${n}`);
  return `${year}-${String(n).padStart(6, '0')}`;
}

/** The due date of an invoice issued at `issuedAt`: `days` (30, section 9) later. */
export function invoiceDueDate(issuedAt: Date, days: number): Date {
  return new Date(issuedAt.getTime() + days * DAY_MS);
}

/**
 * An amount stored in the currency it was charged in, for display: micro-euros and micro-dollars, pico-bitcoins
 * (the units of `sales.amount_in_currency`). EUR `1,234.56 €` (fr `1 234,56 €`), USD `$1,234.56`, BTC `₿0.01234568`
 * (8 decimals unless `btcDecimals` says otherwise).
 */
export function formatAmountInCurrency(
  amount: number,
  currency: Currency,
  locale: Locale,
  options: Pick<MoneyFormatOptions, 'btcDecimals'> = {},
): string {
  const units = currency === 'btc' ? amount / PICO_BTC_PER_BTC : amount / 1_000_000;
  // No rates: the amount is already in its currency (formatMoney converts euros only when given rates).
  return formatMoney(units, { locale, currency, btcDecimals: options.btcDecimals });
}

/** Decimals of a bitcoin amount as stored (pico-bitcoins). */
export const BTC_DECIMALS_STORED = 12;

/**
 * A sale's amount in the currency it is paid in. In bitcoin, all 12 decimals: the e-mail asks for that exact amount
 * (it tells the payment apart), so the screens, the receipt and the audit log show it the same way.
 */
export function formatSaleAmount(amount: number, currency: Currency, locale: Locale): string {
  return formatAmountInCurrency(amount, currency, locale, { btcDecimals: BTC_DECIMALS_STORED });
}

/** Impressions are priced per 1,000 (CPM), clicks one by one (CPC): the unit an invoice line's price is for. */
export const unitSizeOf = (isCpc: boolean): 1 | 1000 => (isCpc ? 1 : 1000);

/**
 * The unit price excluding VAT of a purchase, in micro-units per unit size (1,000 impressions or 1 click): what the
 * invoice's line says and what Add credits shows before buying, so the two agree (docs/billing.md, VAT).
 */
export function unitPriceExcludingVat(excludingVat: number, quantity: number, isCpc: boolean): number {
  return quantity > 0 ? (excludingVat * unitSizeOf(isCpc)) / quantity : 0;
}

/** A unit price to 4 decimals (a price per impression or per thousand is rarely a whole number of cents). */
export function formatUnitPrice(micros: number, currency: 'eur' | 'usd', locale: Locale): string {
  const value = formatNumber(micros / 1_000_000, locale, 4);
  return currency === 'usd' ? `$${value}` : `${value} €`;
}

/** A VAT rate: `20%`, fr `20 %`, `5.5%`. */
export function formatVatRate(vatBp: number, locale: Locale): string {
  const decimals = vatBp % 100 === 0 ? 0 : vatBp % 10 === 0 ? 1 : 2;
  const text = formatNumber(vatBp / 100, locale, decimals);
  return locale === 'fr' ? `${text} %` : `${text}%`;
}
