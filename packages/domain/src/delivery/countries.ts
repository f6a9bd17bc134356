import type { VisitorLocation } from './eligibility.ts';

/** The country figures are counted under when the visitor's address has no known location (CLDR's "Unknown Region"). */
export const UNKNOWN_COUNTRY = 'ZZ';

/** The country a visitor's impressions and clicks are counted under (daily_country_stats): ISO code, or `ZZ`. */
export function countryOf(location: VisitorLocation | null): string {
  const country = location?.country.toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(country) ? country : UNKNOWN_COUNTRY;
}
