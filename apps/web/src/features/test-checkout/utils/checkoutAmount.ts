import { formatMoney, type Locale } from '@helium/domain/format';

/** An amount already in the currency charged (euros or dollars), as the checkout prints it. */
export function checkoutAmount(amount: number, currency: 'eur' | 'usd', locale: Locale): string {
  return formatMoney(amount, { locale, currency, rates: { usdToEur: 1, btcToEur: 1 } });
}
