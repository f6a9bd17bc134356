import { formatMoney, type Locale } from '@helium/domain/format';
import { formatUnitPrice, formatVatRate, unitPriceExcludingVat, vatSplit } from '@helium/domain/invoice';
import { eurosToMicros, microsToEuros } from '@helium/domain/money';

/** What Add credits says of VAT, in the same figures the invoice and receipt will print (docs/billing.md, VAT). */
export interface VatTexts {
  /** The VAT rate, `20%` (fr `20 %`); null when no VAT applies. */
  rate: string | null;
  excludingVat: string;
  vat: string;
  /** The price excluding VAT of 1,000 impressions or of one click, to 4 decimals, as the invoice's line. */
  unitPrice: string;
}

/**
 * The VAT in a price in euros that includes it (`discounted`: what the buyer pays), split as the invoice splits it,
 * and the unit price excluding VAT the invoice's line will show for this quantity.
 */
export function vatTexts(
  discounted: number,
  vatBp: number,
  quantity: number,
  isCpc: boolean,
  locale: Locale,
): VatTexts {
  const split = vatSplit(eurosToMicros(discounted), vatBp);
  const eur = (micros: number) => formatMoney(microsToEuros(micros), { locale, currency: 'eur' });
  return {
    rate: vatBp > 0 ? formatVatRate(vatBp, locale) : null,
    excludingVat: eur(split.excludingVat),
    vat: eur(split.vat),
    unitPrice: formatUnitPrice(unitPriceExcludingVat(split.excludingVat, quantity, isCpc), 'eur', locale),
  };
}
