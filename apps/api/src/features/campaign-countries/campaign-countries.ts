import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { dailyCountryStats, type Database } from '@helium/db';
import { addCounts, metricLine, NO_COUNTS, type Counts } from '@helium/domain/activity';
import type { Locale } from '@helium/domain/format';
import type { TCountryStatLine, TGetCampaignCountriesResponse } from '@helium/contracts';

/** The name of a country code in `locale` (`ZZ` is CLDR's unknown region); the code itself when none is known. */
export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}

function line(counts: Counts) {
  const metrics = metricLine(counts, false);
  return { impressions: metrics.impressions, clicks: metrics.clicks, ctr: metrics.ctr, cost: metrics.costs };
}

/**
 * A campaign's impressions, unique clicks and cost per visitor country over UTC days `from` to `to` (every day
 * when absent), most impressions first, with their total: the same figures as its daily_ad_stats over those days.
 */
export async function campaignCountries(
  db: Database,
  campaignId: number,
  range: { from?: string; to?: string },
  locale: Locale,
): Promise<TGetCampaignCountriesResponse> {
  const conditions: SQL[] = [eq(dailyCountryStats.campaignId, campaignId)];
  if (range.from) conditions.push(gte(dailyCountryStats.day, range.from));
  if (range.to) conditions.push(lte(dailyCountryStats.day, range.to));
  const impressions = sql<number>`coalesce(sum(${dailyCountryStats.impressions}), 0)::int`;
  const rows = await db
    .select({
      country: dailyCountryStats.country,
      impressions,
      clicks: sql<number>`coalesce(sum(${dailyCountryStats.clicks}), 0)::int`,
      cost: sql<string>`coalesce(sum(${dailyCountryStats.cost}), 0)::bigint`,
    })
    .from(dailyCountryStats)
    .where(and(...conditions))
    .groupBy(dailyCountryStats.country)
    .orderBy(desc(impressions), dailyCountryStats.country);
  let total = NO_COUNTS;
  const countries: TCountryStatLine[] = [];
  for (const row of rows) {
    const counts = {
      impressions: Number(row.impressions),
      clicks: Number(row.clicks),
      leads: 0,
      cost: Number(row.cost),
    };
    if (counts.impressions === 0 && counts.clicks === 0 && counts.cost === 0) continue;
    total = addCounts(total, counts);
    countries.push({ country: row.country, name: countryName(row.country, locale), ...line(counts) });
  }
  return { countries, total: line(total) };
}
