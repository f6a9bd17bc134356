import type { TMetrics, TUrlStatLine } from '@helium/contracts';
import { convertEuros, MONEY_DECIMALS, round, type Currency, type CurrencyRates } from '@helium/domain/format';
import { toCsv } from './csv.ts';
import { METRIC_KEYS, MONEY_KEYS, PERCENT_DECIMALS, type MetricKey } from './metricKeys.ts';

/** The currency the screen shows amounts in: the export says the same figures. */
export interface CsvMoney {
  currency: Currency;
  rates: CurrencyRates;
}

interface TotalsSource {
  stats: { total: TMetrics };
  ads: ReadonlyArray<{
    id: number;
    stats: { total: TMetrics; byPublisher: ReadonlyArray<TMetrics & { brand: string }> | null };
  }>;
}

/** The metric columns' names; amounts name their currency (`costs (EUR)`). */
const metricHeader = (money: CsvMoney) =>
  METRIC_KEYS.map((key) => (MONEY_KEYS.has(key) ? `${key} (${money.currency.toUpperCase()})` : key));

/**
 * One line's figures as the screen shows them, still numbers for the spreadsheet: percentages to
 * PERCENT_DECIMALS, amounts in the user's currency to its decimals (MONEY_DECIMALS), counts as they are.
 */
export function csvMetrics(metrics: TMetrics, money: CsvMoney): Array<number | null> {
  const value = (key: MetricKey): number | null => {
    const raw = metrics[key];
    if (raw === null) return null;
    if (MONEY_KEYS.has(key))
      return round(convertEuros(raw, money.currency, money.rates), MONEY_DECIMALS[money.currency]);
    if (key === 'ctr' || key === 'lr') return round(raw, PERCENT_DECIMALS);
    return raw;
  };
  return METRIC_KEYS.map(value);
}

/**
 * The campaign's export: the totals line (labelled `totalLabel`, in the advertiser's language), then each ad and,
 * when read by publisher, each of its publishers.
 */
export function totalsCsv(campaign: TotalsSource, totalLabel: string, money: CsvMoney): string {
  const rows = [
    [totalLabel, ...csvMetrics(campaign.stats.total, money)],
    ...campaign.ads.flatMap((ad) => [
      [`ad ${ad.id}`, ...csvMetrics(ad.stats.total, money)],
      ...(ad.stats.byPublisher ?? []).map((line) => [`ad ${ad.id} / ${line.brand}`, ...csvMetrics(line, money)]),
    ]),
  ];
  return toCsv(['line', ...metricHeader(money)], rows);
}

/** The statistics by URL as a CSV file, one line per URL. */
export function byUrlCsv(rows: readonly TUrlStatLine[], money: CsvMoney): string {
  return toCsv(
    ['url', ...metricHeader(money)],
    rows.map((row) => [row.url, ...csvMetrics(row, money)]),
  );
}
