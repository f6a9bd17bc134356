import type { Micros } from './money.ts';

/*
 * The admin's Stats (specification 01, sections 2 and 9; docs/decisions.md section 6): the rules of its figures.
 */

/** Minimum share of pageviews that must become validated impressions (percent); below it the missing share is red. */
export const MIN_VALIDATED_PAGEVIEWS_PCT = 60;

/** Monthly projection = daily figure x 30. */
export const MONTHLY_PROJECTION_DAYS = 30;

/** Days averaged in Stats when the network settings do not say (the footnote's N). */
export const DEFAULT_STATS_DAYS_AVERAGED = 7;

/** Validated impressions as a percent of pageviews, one decimal; 0 without pageviews. */
export function validatedPct(pageviews: number, impressions: number): number {
  return pageviews > 0 ? Math.round((impressions / pageviews) * 1000) / 10 : 0;
}

/** What is missing to reach the 60 % rule (percent, one decimal); 0 when the rule is met or without pageviews. */
export function missingValidatedPct(pageviews: number, impressions: number): number {
  if (pageviews <= 0) return 0;
  return Math.max(0, Math.round((MIN_VALIDATED_PAGEVIEWS_PCT - validatedPct(pageviews, impressions)) * 10) / 10);
}

/** The money of some deliveries as `daily_ad_stats` stores it (micro-euros). */
export interface DeliveredMoney {
  /** What advertisers were charged (0 for trial credits). */
  cost: Micros;
  publisherRevenue: Micros;
  salesRepRevenue: Micros;
  /** cost + trialCost - publisher - sales reps. */
  companyRevenue: Micros;
  trialCost: Micros;
}

/** The company (h), publishers (p), sales reps (s) and total, in micro-euros: h + p + s = total, exactly. */
export interface RevenueParts {
  h: Micros;
  p: Micros;
  s: Micros;
  total: Micros;
}

/**
 * The Stats split: trial costs are subtracted from the company's figure, so that the parts add up to what
 * advertisers were charged (docs/decisions.md section 6).
 */
export function revenueParts(money: DeliveredMoney): RevenueParts {
  return {
    h: money.companyRevenue - money.trialCost,
    p: money.publisherRevenue,
    s: money.salesRepRevenue,
    total: money.cost,
  };
}

/** Parts scaled by `numerator / denominator` (an average, a projection), still adding up exactly. */
export function scaleParts(parts: RevenueParts, numerator: number, denominator: number): RevenueParts {
  const scale = (micros: Micros) => Math.floor((micros * numerator) / denominator);
  const p = scale(parts.p);
  const s = scale(parts.s);
  const total = scale(parts.total);
  return { h: total - p - s, p, s, total };
}

/**
 * Parts in euros rounded to the cent so that h + p + s = total to the cent: the total is rounded, each part
 * is rounded down and the missing cents go to the parts with the largest remainders (largest remainder method).
 */
export function partsToEuros(parts: RevenueParts): { h: number; p: number; s: number; total: number } {
  const MICROS_PER_CENT = 10_000;
  const keys = ['h', 'p', 's'] as const;
  const totalCents = Math.round(parts.total / MICROS_PER_CENT);
  const floors = keys.map((key) => Math.floor(parts[key] / MICROS_PER_CENT));
  let missing = totalCents - floors.reduce((sum, cents) => sum + cents, 0);
  const order = keys
    .map((key, index) => ({ index, remainder: parts[key] - (floors[index] as number) * MICROS_PER_CENT }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  const cents = [...floors];
  for (const { index } of order) {
    if (missing <= 0) break;
    cents[index] = (cents[index] as number) + 1;
    missing -= 1;
  }
  const [h, p, s] = cents.map((value) => value / 100) as [number, number, number];
  return { h, p, s, total: totalCents / 100 };
}
