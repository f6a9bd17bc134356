import { shiftDay } from '../activity.ts';

/** Days in the CTR window, "the last 7 days" of docs/decisions.md section 5: today and the 6 days before it. */
export const CTR_WINDOW_DAYS = 7;

/**
 * First UTC day (`YYYY-MM-DD`) of the CTR window that ends with `today` (a UTC day `YYYY-MM-DD`, included):
 * 2026-03-10 -> 2026-03-04, so that `day >= ctrWindowStartDay(today)` covers 7 days. CTR ranks, their
 * thresholds, Thompson sampling and the admin's ad cards all count over this window.
 */
export function ctrWindowStartDay(today: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || Number.isNaN(Date.parse(`${today}T00:00:00Z`))) {
    throw new RangeError(`Not a UTC day (YYYY-MM-DD): ${today}`);
  }
  return shiftDay(today, -(CTR_WINDOW_DAYS - 1));
}

/** Click-through rate as a fraction (0.0123 = 1.23%); 0 without impressions. */
export function ctrOf(impressions: number, clicks: number): number {
  return impressions > 0 ? clicks / impressions : 0;
}

/** The p-th percentile (0..100) with linear interpolation between closest ranks; null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

export interface CtrThresholds {
  /** The network's 25th CTR percentile: at or below is `low`. */
  lower: number;
  /** The network's 75th CTR percentile: at or above is `high`. */
  higher: number;
}

export interface AdCtrCounts {
  impressions: number;
  clicks: number;
}

/**
 * Thresholds from the ads that have at least `minImpressions` over the period (last 7 days); null when
 * no ad qualifies.
 */
export function ctrThresholds(ads: readonly AdCtrCounts[], minImpressions: number): CtrThresholds | null {
  const ctrs = ads.filter((ad) => ad.impressions >= minImpressions).map((ad) => ctrOf(ad.impressions, ad.clicks));
  if (ctrs.length === 0) return null;
  return { lower: percentile(ctrs, 25) as number, higher: percentile(ctrs, 75) as number };
}

export type CtrRank = 'high' | 'medium' | 'low';

/** An ad's rank, or null while it has fewer than `minImpressions` or no thresholds exist. */
export function ctrRank(ad: AdCtrCounts, thresholds: CtrThresholds | null, minImpressions: number): CtrRank | null {
  if (!thresholds || ad.impressions < minImpressions) return null;
  const ctr = ctrOf(ad.impressions, ad.clicks);
  if (ctr >= thresholds.higher) return 'high';
  if (ctr <= thresholds.lower) return 'low';
  return 'medium';
}
