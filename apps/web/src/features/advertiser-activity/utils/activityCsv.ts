import type { TMetrics, TUrlStatLine } from '@helium/contracts';
import { toCsv } from './csv.ts';
import { METRIC_KEYS } from './metricKeys.ts';

interface TotalsSource {
  stats: { total: TMetrics };
  ads: ReadonlyArray<{
    id: number;
    stats: { total: TMetrics; byPublisher: ReadonlyArray<TMetrics & { brand: string }> | null };
  }>;
}

/**
 * The campaign's export: the totals line (labelled `totalLabel`, in the advertiser's language), then each ad and,
 * when read by publisher, each of its publishers.
 */
export function totalsCsv(campaign: TotalsSource, totalLabel: string): string {
  const rows = [
    [totalLabel, ...METRIC_KEYS.map((key) => campaign.stats.total[key])],
    ...campaign.ads.flatMap((ad) => [
      [`ad ${ad.id}`, ...METRIC_KEYS.map((key) => ad.stats.total[key])],
      ...(ad.stats.byPublisher ?? []).map((line) => [
        `ad ${ad.id} / ${line.brand}`,
        ...METRIC_KEYS.map((key) => line[key]),
      ]),
    ]),
  ];
  return toCsv(['line', ...METRIC_KEYS], rows);
}

/** The statistics by URL as a CSV file, one line per URL. */
export function byUrlCsv(rows: readonly TUrlStatLine[]): string {
  return toCsv(
    ['url', ...METRIC_KEYS],
    rows.map((row) => [row.url, ...METRIC_KEYS.map((key) => row[key])]),
  );
}
