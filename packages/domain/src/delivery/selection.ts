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

/** Each ad's probability of being picked by Thompson sampling, estimated with `draws` rounds. */
export function thompsonShares(ads: readonly CtrCounts[], random: Random, draws = 400): number[] {
  const wins = ads.map(() => 0);
  if (ads.length === 0) return wins;
  for (let round = 0; round < draws; round++) {
    const index = thompsonPick(ads, random);
    wins[index] = (wins[index] ?? 0) + 1;
  }
  return wins.map((count) => count / draws);
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
export function sharesInsideAdvertiser(
  ads: readonly SelectableAd[],
  mode: SelectionMode,
  random: Random,
  draws = 400,
): number[] {
  if (ads.length === 0) return [];
  if (mode === 'autopilot' && ads.every((ad) => ad.isAutoPilot)) return thompsonShares(ads, random, draws);
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
