/**
 * The figures of the admin's Activity screens (specification 01, sections 3 and 7): the campaign cards of the
 * advertiser view and the ad cards of the publisher view (their share and fading are `adCardShare` in
 * activity.ts). Pure functions; money in micro-euros in, euros out.
 */
import { daysToEmpty, isAdShowing, isCampaignFinished, type AdSwitchFacts } from './activity.ts';
import { isMobileCompatible, isNewsletterFormat } from './ads.ts';
import { ctrOf } from './delivery/ctr.ts';
import type { Device } from './delivery/eligibility.ts';
import { weightRanks } from './delivery/shares.ts';
import { microsToCentEuros } from './money.ts';

/** A part of a whole in percent, rounded to one decimal; 0 when the whole is 0. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/** A CTR in percent, rounded to two decimals, as the admin's cards show it; 0 without impressions. */
export function ctrPct(impressions: number, clicks: number): number {
  return Math.round(ctrOf(impressions, clicks) * 10_000) / 100;
}

/**
 * Days until the remaining impressions run out at yesterday's pace (`daysToEmpty`), rounded down to two
 * decimals, never up: 6.96 days must not read (and be coloured) as 7. null without impressions yesterday.
 */
export function daysToEmptyRoundedDown(remainingImpressions: number, yesterdayImpressions: number): number | null {
  const days = daysToEmpty(remainingImpressions, yesterdayImpressions);
  return days === null ? null : Math.floor(days * 100) / 100;
}

/**
 * A campaign shows when one of its ads that is not ejected shows, by the advertiser's rule (`isAdShowing`,
 * specification 02, section 4).
 */
export function isCampaignShowing(ads: Iterable<AdSwitchFacts & { isEjected: boolean }>): boolean {
  for (const ad of ads) if (!ad.isEjected && isAdShowing(ad)) return true;
  return false;
}

/** What a campaign card is computed from. */
export interface CampaignCardFacts {
  isCpc: boolean;
  /** Delivered over the campaign's life, and what it cost in micro-euros (cost plus trial cost). */
  impressions: number;
  clicks: number;
  cost: number;
  /** Credits left, as the delivery engine counts them now; below 0 counts as 0. */
  remainingImpressions: number;
  remainingClicks: number;
  /** Impressions delivered yesterday: the pace the days to empty are counted at. */
  yesterdayImpressions: number;
}

/**
 * A campaign card's figures: CTR (percent, 2 decimals), effective CPM and CPC (euros, to the cent), what is
 * left and its share of what was bought (percent, 1 decimal), and the days to empty. A campaign with no
 * credits left is finished (the screen hides it unless asked).
 */
export function campaignCardFigures(facts: CampaignCardFacts) {
  const { impressions, clicks, cost } = facts;
  const remainingImpressions = Math.max(0, facts.remainingImpressions);
  const remainingClicks = Math.max(0, facts.remainingClicks);
  return {
    isFinished: isCampaignFinished({ isCpc: facts.isCpc, remainingImpressions, remainingClicks }),
    total: {
      impressions,
      clicks,
      ctr: ctrPct(impressions, clicks),
      cpm: impressions > 0 ? microsToCentEuros((cost * 1000) / impressions) : 0,
      cpc: clicks > 0 ? microsToCentEuros(cost / clicks) : 0,
      remainingClicks,
      remainingClicksPct: percentOf(remainingClicks, remainingClicks + clicks),
      remainingImpressions,
      remainingImpressionsPct: percentOf(remainingImpressions, remainingImpressions + impressions),
    },
    inventory: {
      yesterdayThisCpmCampaignImpressions: facts.yesterdayImpressions,
      daysToEmptyImpressions: daysToEmptyRoundedDown(remainingImpressions, facts.yesterdayImpressions),
    },
  };
}

/** Whether an ad can be shown on a website's display: never a newsletter ad, and no vertical ad on mobile. */
export function fitsWebDisplay(ad: { formatId: number; isOwlOnly: boolean }, device: Device): boolean {
  if (ad.isOwlOnly || isNewsletterFormat(ad.formatId)) return false;
  return device === 'desktop' || isMobileCompatible(ad.formatId);
}

/** A display's plan as the ranks need it: each advertiser's share and each of its ads' share of it. */
export interface DisplayShares {
  share: number;
  ads: ReadonlyArray<{ ad: { id: number }; share: number }>;
}

/**
 * Each ad's rank on a display by the share of the display's traffic it gets (its advertiser's share times its
 * share of the advertiser), 1 for the largest; equal shares share a rank.
 */
export function displayAdRanks(advertisers: readonly DisplayShares[]): Map<number, number> {
  const entries = advertisers.flatMap((advertiser) =>
    advertiser.ads.map((entry) => ({ id: entry.ad.id, weight: advertiser.share * entry.share })),
  );
  const ranks = weightRanks(entries.map((entry) => entry.weight));
  return new Map(entries.map((entry, position) => [entry.id, ranks[position] as number]));
}
