import {
  formatDate,
  formatDateTime,
  formatMicros,
  formatMoney,
  formatNumber,
  formatPercent,
  round,
  type CurrencyRates,
  type Currency,
  type Locale,
} from '@helium/domain/format';
import type { TUser } from '@helium/contracts';

export interface FormatSettings {
  locale: Locale;
  currency: Currency;
  rates: CurrencyRates;
}

export const DEFAULT_FORMAT_SETTINGS: FormatSettings = {
  locale: 'en',
  currency: 'eur',
  rates: { usdToEur: 1, btcToEur: 1 },
};

export function formatSettingsOf(
  user: Pick<TUser, 'locale' | 'currency' | 'usd_to_eur' | 'btc_to_eur'> | undefined,
): FormatSettings {
  if (!user) return DEFAULT_FORMAT_SETTINGS;
  return {
    locale: user.locale,
    currency: user.currency,
    rates: { usdToEur: user.usd_to_eur, btcToEur: user.btc_to_eur },
  };
}

/** The domain formatting functions with the user's locale, currency and rates already applied. */
export interface Formatter extends FormatSettings {
  number: (value: unknown, decimals?: number) => string;
  percent: (value: unknown, decimals?: number) => string;
  /** A euro amount (in euros) in the user's currency. */
  money: (euros: unknown, options?: { btcDecimals?: number }) => string;
  /** A euro amount always in euros, whatever the user's currency (prices are set in EUR). */
  euros: (euros: unknown) => string;
  /** A stored amount of integer micro-euros in the user's currency. */
  micros: (micros: number | bigint, options?: { btcDecimals?: number }) => string;
  date: (value: Date | string | number) => string;
  dateTime: (value: Date | string | number) => string;
  round: typeof round;
}

export function createFormatter(settings: FormatSettings): Formatter {
  const { locale, currency, rates } = settings;
  return {
    ...settings,
    number: (value, decimals = 0) => formatNumber(value, locale, decimals),
    percent: (value, decimals) => formatPercent(value, locale, decimals),
    money: (euros, options) => formatMoney(euros, { locale, currency, rates, ...options }),
    euros: (euros) => formatMoney(euros, { locale, currency: 'eur' }),
    micros: (micros, options) => formatMicros(micros, { locale, currency, rates, ...options }),
    date: (value) => formatDate(value, locale),
    dateTime: (value) => formatDateTime(value, locale),
    round,
  };
}
