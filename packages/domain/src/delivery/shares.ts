import { sharesInsideAdvertiser, type SelectableAd, type SelectionMode } from './selection.ts';

/** A share as a percentage with `decimals` decimals (one by default: 12.34% -> 12.3); 0 when the total is 0. */
export function sharePct(part: number, total: number, decimals = 1): number {
  if (total <= 0 || part <= 0) return 0;
  const scale = 10 ** decimals;
  return Math.round((part / total) * 100 * scale) / scale;
}

/** Ranks by weight, 1 for the largest; equal weights share a rank (1, 2, 2, 4). */
export function weightRanks(weights: readonly number[]): number[] {
  return weights.map((weight) => 1 + weights.filter((other) => other > weight).length);
}

/** One display (a web publisher's desktop or mobile, or a newsletter) as one advertiser sees it. */
export interface AdvertiserDisplay<Id> {
  mode: SelectionMode;
  /** The advertiser's ads eligible on the display, in a stable order. */
  ads: ReadonlyArray<SelectableAd & { id: Id }>;
  /** How much of the advertiser's traffic goes through the display (its validated impressions there). */
  weight: number;
}

/**
 * Each ad's share (0..1) of its advertiser's traffic over its displays. On each display the delivery engine's
 * rule applies (`sharesInsideAdvertiser`: equal shares under Balancer or while one of the ads has AutoPilot
 * off, Thompson sampling on the CTR window otherwise); the displays are averaged with their weights, or
 * equally when no display has any. Displays with the same mode and ads are computed once, their weights
 * added. Ads eligible nowhere are absent (share 0).
 */
export function advertiserAdShares<Id>(displays: ReadonlyArray<AdvertiserDisplay<Id>>): Map<Id, number> {
  type Group = { mode: SelectionMode; ads: AdvertiserDisplay<Id>['ads']; weight: number; displays: number };
  const groups = new Map<string, Group>();
  for (const display of displays) {
    if (display.ads.length === 0) continue;
    const key = `${display.mode}|${display.ads.map((ad) => String(ad.id)).join(',')}`;
    const group = groups.get(key) ?? { mode: display.mode, ads: display.ads, weight: 0, displays: 0 };
    group.weight += Math.max(0, display.weight);
    group.displays += 1;
    groups.set(key, group);
  }
  const list = [...groups.values()];
  const totalWeight = list.reduce((total, group) => total + group.weight, 0);
  const totalDisplays = list.reduce((total, group) => total + group.displays, 0);
  const shares = new Map<Id, number>();
  for (const group of list) {
    const weight = totalWeight > 0 ? group.weight / totalWeight : group.displays / totalDisplays;
    const inside = sharesInsideAdvertiser(group.ads, group.mode);
    group.ads.forEach((ad, position) => {
      shares.set(ad.id, (shares.get(ad.id) ?? 0) + weight * (inside[position] ?? 0));
    });
  }
  return shares;
}
