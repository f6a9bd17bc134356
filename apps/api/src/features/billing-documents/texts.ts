import { formatNumber, type Locale } from '@helium/domain/format';

/** What a sale bought, counted: en `100,000 impressions`, fr `100 000 impressions`; `500 clicks`, `500 clics`. */
export function quantityText(quantity: number, isCpc: boolean, locale: Locale): string {
  const count = formatNumber(quantity, locale);
  const one = quantity === 1;
  if (isCpc) return locale === 'fr' ? `${count} ${one ? 'clic' : 'clics'}` : `${count} ${one ? 'click' : 'clicks'}`;
  return `${count} ${one ? 'impression' : 'impressions'}`;
}

/** The line an invoice or a receipt prints: `100,000 impressions — campaign Nordvik Outdoor`. */
export function saleDescription(options: { quantity: number; isCpc: boolean; brand: string; locale: Locale }): string {
  const { quantity, isCpc, brand, locale } = options;
  return `${quantityText(quantity, isCpc, locale)} \u2014 ${locale === 'fr' ? 'campagne' : 'campaign'} ${brand}`;
}
