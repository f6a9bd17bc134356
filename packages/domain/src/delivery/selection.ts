import { pickWeighted, sampleBeta, type Random } from './random.ts';

/** How a display (desktop or mobile) of a publisher chooses among advertisers' ads. */
export type SelectionMode = 'balancer' | 'autopilot';

/** Days over which remaining credits are spread when the campaign has no AutoFlow cap. */
export const DEFAULT_DELIVERY_DAYS = 30;
/** CTR assumed to turn a click-priced campaign's remaining clicks into impressions to deliver. */
export const DEFAULT_NETWORK_CTR = 0.005;

/** AutoPilot once the display has served that many validated impressions today, Balancer before. */
export function selectionMode(todayImpressions: number, minImpressionsToAutoPilot: number): SelectionMode {
  return todayImpressions >= minImpressionsToAutoPilot ? 'autopilot' : 'balancer';
}

export interface PacingFacts {
  isCpc: boolean;
  remainingImpressions: number;
  remainingClicks: number;
  pauseDailyImpressions: number;
  todayImpressions: number;
}

/**
 * Validated impressions a campaign still needs today to deliver its remaining credits evenly: its AutoFlow
 * cap when it has one, else its remaining credits spread over DEFAULT_DELIVERY_DAYS; less what it had today.
 * Never below 1, so that an eligible campaign keeps a small share.
 */
export function impressionsNeededToday(
  campaign: PacingFacts,
  networkCtr = DEFAULT_NETWORK_CTR,
  deliveryDays = DEFAULT_DELIVERY_DAYS,
): number {
  const remaining = campaign.isCpc
    ? Math.ceil(campaign.remainingClicks / Math.max(networkCtr, 1e-6))
    : campaign.remainingImpressions;
  const daily =
    campaign.pauseDailyImpressions > 0
      ? Math.min(campaign.pauseDailyImpressions, remaining)
      : Math.ceil(remaining / deliveryDays);
  return Math.max(1, daily - campaign.todayImpressions);
}

/** Balancer: each advertiser's share (0..1) proportional to what it still needs today. */
export function balancerShares<K>(needs: ReadonlyMap<K, number>): Map<K, number> {
  let total = 0;
  for (const need of needs.values()) total += Math.max(0, need);
  const shares = new Map<K, number>();
  for (const [key, need] of needs) {
    shares.set(key, total > 0 ? Math.max(0, need) / total : 1 / needs.size);
  }
  return shares;
}

export interface CtrCounts {
  impressions: number;
  clicks: number;
}

/** Thompson sampling: one draw from Beta(clicks + 1, impressions - clicks + 1). */
export function sampleCtr(counts: CtrCounts, random: Random): number {
  const clicks = Math.max(0, Math.min(counts.clicks, counts.impressions));
  return sampleBeta(clicks + 1, Math.max(0, counts.impressions - clicks) + 1, random);
}

/** AutoPilot's choice inside an advertiser: the ad whose sampled CTR is highest. */
export function thompsonPick(ads: readonly CtrCounts[], random: Random): number {
  let best = -1;
  let bestValue = -1;
  for (let index = 0; index < ads.length; index++) {
    const value = sampleCtr(ads[index] as CtrCounts, random);
    if (value > bestValue) {
      best = index;
      bestValue = value;
    }
  }
  return best;
}

/**
 * Steps of the integration grid over each ad's range (thompsonShares): the error falls with the square of the
 * step, about 0.005 percentage point at 600.
 */
const GRID_STEPS_PER_RANGE = 600;
/** How far (in standard deviations) each ad's part of the grid reaches on each side of its mean. */
const GRID_REACH_SD = 12;

/**
 * Each ad's probability of being picked by Thompson sampling (thompsonPick): the probability that its draw
 * from Beta(clicks + 1, impressions - clicks + 1) is the highest, computed by numerical integration of
 * P(i wins) = integral of f_i(x) x product over j != i of F_j(x), not estimated by drawing: within about
 * 0.005 percentage point for up to 10 ads (trapezoids on a grid fine around each ad's mass), the same on every
 * call, so that the admin's fade thresholds (0.01% and 0.1%) and the advertiser's share percentages mean
 * what they say. Sums to 1.
 */
export function thompsonShares(ads: readonly CtrCounts[]): number[] {
  if (ads.length === 0) return [];
  if (ads.length === 1) return [1];
  const params = ads.map((counts) => {
    const clicks = Math.max(0, Math.min(counts.clicks, counts.impressions));
    const a = clicks + 1;
    const b = Math.max(0, counts.impressions - clicks) + 1;
    return { a, b };
  });
  // The grid: over each ad's mean +/- GRID_REACH_SD standard deviations, as fine as the narrowest ad there
  // needs (GRID_STEPS_PER_RANGE steps over its range). Ads with close CTRs share their points.
  const ranges = params.map(({ a, b }) => {
    const mean = a / (a + b);
    const sd = Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1)));
    const low = Math.max(0, mean - GRID_REACH_SD * sd);
    const high = Math.min(1, mean + GRID_REACH_SD * sd);
    return { low, high, step: (high - low) / GRID_STEPS_PER_RANGE };
  });
  const bounds = [...new Set(ranges.flatMap((range) => [range.low, range.high]))].sort((x, y) => x - y);
  const grid: number[] = [];
  for (let index = 0; index + 1 < bounds.length; index++) {
    const from = bounds[index] as number;
    const to = bounds[index + 1] as number;
    let step = Infinity;
    for (const range of ranges) if (range.low <= from && range.high >= to) step = Math.min(step, range.step);
    const steps = Number.isFinite(step) ? Math.max(1, Math.ceil((to - from) / step)) : 1;
    for (let point = 0; point < steps; point++) grid.push(from + ((to - from) * point) / steps);
  }
  grid.push(bounds[bounds.length - 1] as number);
  const size = grid.length;
  // Each ad's density on the grid (scaled to its peak, then normalised by its trapezoid integral) and its CDF,
  // computed over its own range only: beyond it the density is 0 and the CDF 0 before, 1 after.
  const densities: Float64Array[] = [];
  const cdfs: Float64Array[] = [];
  params.forEach(({ a, b }, index) => {
    const { low, high } = ranges[index] as (typeof ranges)[number];
    let first = 0;
    while ((grid[first] as number) < low) first++;
    let last = first;
    while (last + 1 < size && (grid[last + 1] as number) <= high) last++;
    const density = new Float64Array(size);
    let peak = -Infinity;
    for (let k = first; k <= last; k++) {
      const x = grid[k] as number;
      const value = (a === 1 ? 0 : (a - 1) * Math.log(x)) + (b === 1 ? 0 : (b - 1) * Math.log1p(-x));
      density[k] = value;
      if (value > peak) peak = value;
    }
    for (let k = first; k <= last; k++) density[k] = Math.exp((density[k] as number) - peak);
    const cdf = new Float64Array(size);
    for (let k = first + 1; k <= last; k++) {
      const width = (grid[k] as number) - (grid[k - 1] as number);
      cdf[k] = (cdf[k - 1] as number) + (((density[k] as number) + (density[k - 1] as number)) / 2) * width;
    }
    const total = cdf[last] as number;
    for (let k = first; k <= last; k++) {
      density[k] = (density[k] as number) / total;
      cdf[k] = (cdf[k] as number) / total;
    }
    cdf.fill(1, last + 1);
    densities.push(density);
    cdfs.push(cdf);
  });
  // The integrand of each ad at each point, the other ads' CDFs multiplied from both sides (no division by 0).
  const count = ads.length;
  const wins = new Array<number>(count).fill(0);
  const before = new Float64Array(count + 1);
  let previous: number[] | null = null;
  for (let k = 0; k < size; k++) {
    before[0] = 1;
    for (let i = 0; i < count; i++) before[i + 1] = (before[i] as number) * ((cdfs[i] as Float64Array)[k] as number);
    const integrand: number[] = new Array<number>(count);
    let after = 1;
    for (let i = count - 1; i >= 0; i--) {
      integrand[i] = ((densities[i] as Float64Array)[k] as number) * (before[i] as number) * after;
      after *= (cdfs[i] as Float64Array)[k] as number;
    }
    if (previous) {
      const width = (grid[k] as number) - (grid[k - 1] as number);
      for (let i = 0; i < count; i++)
        wins[i] = (wins[i] as number) + (((integrand[i] as number) + (previous[i] as number)) / 2) * width;
    }
    previous = integrand;
  }
  const total = wins.reduce((sum, value) => sum + value, 0);
  return total > 0 ? wins.map((value) => value / total) : ads.map(() => 1 / count);
}

export interface SelectableAd extends CtrCounts {
  advertiserId: number;
  /** The ad's campaign has AutoPilot on. */
  isAutoPilot: boolean;
}

/**
 * Ad shares inside one advertiser's group (sum 1): equal under Balancer or when the advertiser has
 * AutoPilot off, Thompson-sampled otherwise.
 */
export function sharesInsideAdvertiser(ads: readonly SelectableAd[], mode: SelectionMode): number[] {
  if (ads.length === 0) return [];
  if (mode === 'autopilot' && ads.every((ad) => ad.isAutoPilot)) return thompsonShares(ads);
  return ads.map(() => 1 / ads.length);
}

/**
 * Chooses one ad among eligible candidates: the advertiser by its Balancer share (`needs` per advertiser),
 * then, inside it, equally (Balancer) or by Thompson sampling (AutoPilot). Returns the candidate's index,
 * or -1 when there is none.
 */
export function chooseAd(
  candidates: readonly SelectableAd[],
  needs: ReadonlyMap<number, number>,
  mode: SelectionMode,
  random: Random,
): number {
  if (candidates.length === 0) return -1;
  const advertisers = [...new Set(candidates.map((ad) => ad.advertiserId))];
  const shares = balancerShares(new Map(advertisers.map((id) => [id, needs.get(id) ?? 1])));
  const advertiserIndex = pickWeighted(
    advertisers.map((id) => shares.get(id) ?? 0),
    random,
  );
  const advertiserId = advertisers[advertiserIndex === -1 ? 0 : advertiserIndex];
  const indexes: number[] = [];
  candidates.forEach((ad, index) => {
    if (ad.advertiserId === advertiserId) indexes.push(index);
  });
  const group = indexes.map((index) => candidates[index] as SelectableAd);
  if (group.length === 1) return indexes[0] as number;
  if (mode === 'autopilot' && group.every((ad) => ad.isAutoPilot)) {
    return indexes[thompsonPick(group, random)] as number;
  }
  return indexes[Math.floor(random() * group.length)] as number;
}
