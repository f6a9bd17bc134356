import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { userQueryOptions } from '../../user/hooks/useCurrentUser.ts';
import { createFormatter, formatSettingsOf, type Formatter } from '../utils/formatter.ts';

/**
 * Formatting bound to the signed-in user's locale, currency and rates. Reads the cached user
 * without requiring one, so it also works (in en/EUR) where nobody is signed in.
 */
export function useFormat(): Formatter {
  const { data: user } = useQuery({ ...userQueryOptions, enabled: false });
  const locale = user?.locale;
  const currency = user?.currency;
  const usdToEur = user?.usd_to_eur;
  const btcToEur = user?.btc_to_eur;
  return useMemo(
    () =>
      createFormatter(
        formatSettingsOf(
          locale && currency && usdToEur !== undefined && btcToEur !== undefined
            ? { locale, currency, usd_to_eur: usdToEur, btc_to_eur: btcToEur }
            : undefined,
        ),
      ),
    [locale, currency, usdToEur, btcToEur],
  );
}
