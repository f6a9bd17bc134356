import {
  balancerShares,
  chooseAd,
  impressionsNeededToday,
  ineligibility,
  isShownAsVideo,
  selectionMode,
  sharesInsideAdvertiser,
  type Channel,
  type Device,
  type IneligibleReason,
  type Random,
  type SelectableAd,
  type SlotFacts,
  type VisitorLocation,
} from '@helium/domain';
import { displayKey, type AdIndexSnapshot, type IndexedAd, type IndexedCampaign } from './ad-index.ts';
import type { CreditBook } from './credits.ts';
import type { Pacing } from './pacing.ts';

/*
 * Choosing an ad for a slot, as a pipeline over what serving knows now (docs/server-behaviour.md, "Choosing an ad"):
 * the candidates (the publisher's ads that pass `ineligibility`), each advertiser's need today (Balancer), then the
 * pick (chooseAd: Balancer, or AutoPilot's Thompson draw). The rules are packages/domain's; this file only gathers
 * their facts from the index, the credits and pacing.
 */

/** What selection reads: the index, the credits and pacing of this instant. */
export interface SelectionState {
  index: AdIndexSnapshot;
  credits: Pick<CreditBook, 'remainingImpressions' | 'remainingClicks' | 'reservedImpressions'>;
  pacing: Pick<Pacing, 'campaignImpressionsToday' | 'displayImpressionsToday' | 'spentOf' | 'ctrOf'>;
  nowMs: number;
}

/** Where the visitor is, for geotargeting: unknown (null: untargeted campaigns only), or `anywhere` (admin view). */
export type SlotLocation = VisitorLocation | null | 'anywhere';

/** A slot to fill: the display, the formats its placement accepts, the ads already on the page, the visitor's place. */
export interface SlotQuery {
  publisherId: number;
  channel: Channel;
  device: Device;
  formatIds: readonly number[] | null;
  exclude: ReadonlySet<number>;
  location: SlotLocation;
}

/** Why an ad cannot fill a slot of this publisher now, or null (docs/decisions.md section 5). */
export function ineligibilityOf(
  state: SelectionState,
  ad: IndexedAd,
  campaign: IndexedCampaign,
  publisherId: number,
  slot: SlotFacts,
): IneligibleReason | null {
  return ineligibility(
    {
      formatId: ad.formatId,
      isWebOnly: ad.isWebOnly,
      isOwlOnly: ad.isOwlOnly,
      isVideo: isShownAsVideo(ad),
      adminValidation: ad.adminValidation,
      publisherValidation: ad.validations.get(publisherId) ?? null,
      isShowing: ad.isShowing,
      isEjected: ad.isEjected,
      isShownOnPublisher: !ad.hiddenOn.has(publisherId),
      budget: ad.budget,
      spent: state.pacing.spentOf(ad.id),
    },
    {
      isCpc: campaign.isCpc,
      remainingImpressions: state.credits.remainingImpressions(campaign.id),
      remainingClicks: state.credits.remainingClicks(campaign.id),
      reservedImpressions: state.credits.reservedImpressions(campaign.id),
      pauseDailyImpressions: campaign.pauseDailyImpressions,
      todayImpressions: state.pacing.campaignImpressionsToday(campaign.id),
      geoTargets: campaign.geoTargets,
    },
    slot,
  );
}

/** Candidates for one slot, with what selection needs to know of each. */
export function candidates(state: SelectionState, query: SlotQuery) {
  const result: Array<{ ad: IndexedAd; selectable: SelectableAd }> = [];
  const slot = {
    channel: query.channel,
    device: query.device,
    formatIds: query.formatIds && query.formatIds.length > 0 ? query.formatIds : null,
    location: query.location === 'anywhere' ? null : query.location,
    now: state.nowMs,
  };
  for (const ad of state.index.adsByPublisher.get(query.publisherId) ?? []) {
    if (query.exclude.has(ad.id)) continue;
    const campaign = state.index.campaigns.get(ad.campaignId);
    if (!campaign) continue;
    const reason = ineligibilityOf(state, ad, campaign, query.publisherId, slot);
    if (reason && !(reason === 'outsideGeotargeting' && query.location === 'anywhere')) continue;
    const week = state.pacing.ctrOf(ad.id);
    result.push({
      ad,
      selectable: {
        advertiserId: ad.advertiserId,
        isAutoPilot: campaign.isAutoPilot,
        impressions: week.impressions,
        clicks: week.clicks,
      },
    });
  }
  return result;
}

/** Validated impressions each advertiser among the candidates still needs today (Balancer). */
export function needs(state: SelectionState, ads: readonly IndexedAd[]): Map<number, number> {
  const result = new Map<number, number>();
  const seen = new Set<number>();
  for (const ad of ads) {
    if (seen.has(ad.campaignId)) continue;
    seen.add(ad.campaignId);
    const campaign = state.index.campaigns.get(ad.campaignId);
    if (!campaign) continue;
    const need = impressionsNeededToday({
      isCpc: campaign.isCpc,
      remainingImpressions: state.credits.remainingImpressions(campaign.id),
      remainingClicks: state.credits.remainingClicks(campaign.id),
      pauseDailyImpressions: campaign.pauseDailyImpressions,
      todayImpressions: state.pacing.campaignImpressionsToday(campaign.id),
    });
    result.set(ad.advertiserId, (result.get(ad.advertiserId) ?? 0) + need);
  }
  return result;
}

/** Chooses one ad for a slot; null when nothing is eligible. */
export function chooseForSlot(state: SelectionState, query: SlotQuery, random: Random): IndexedAd | null {
  const found = candidates(state, query);
  if (found.length === 0) return null;
  const mode = selectionMode(
    state.pacing.displayImpressionsToday(displayKey(query.publisherId, query.channel, query.device)),
    state.index.settings.minImpressionsToAutoPilot,
  );
  const picked = chooseAd(
    found.map((candidate) => candidate.selectable),
    needs(
      state,
      found.map((candidate) => candidate.ad),
    ),
    mode,
    random,
  );
  return picked === -1 ? null : (found[picked]?.ad ?? null);
}

/**
 * How a display (publisher and device) shares its traffic now: its mode, each advertiser's Balancer share
 * and each eligible ad's share of its advertiser (under AutoPilot, its probability of winning the Thompson
 * draw, computed rather than sampled: the admin view is exact and stable between refreshes).
 */
export function displayPlan(state: SelectionState, publisherId: number, device: Device) {
  const found = candidates(state, {
    publisherId,
    channel: 'web',
    device,
    formatIds: null,
    exclude: new Set(),
    location: 'anywhere',
  });
  const today = state.pacing.displayImpressionsToday(displayKey(publisherId, 'web', device));
  const mode = selectionMode(today, state.index.settings.minImpressionsToAutoPilot);
  const shares = balancerShares(
    needs(
      state,
      found.map((candidate) => candidate.ad),
    ),
  );
  const advertisers = [...shares.keys()].map((advertiserId) => {
    const group = found.filter((candidate) => candidate.ad.advertiserId === advertiserId);
    const inside = sharesInsideAdvertiser(
      group.map((candidate) => candidate.selectable),
      mode,
    );
    return {
      advertiserId,
      brand: state.index.advertiserBrand.get(advertiserId) ?? '',
      share: shares.get(advertiserId) ?? 0,
      ads: group.map((candidate, position) => ({ ad: candidate.ad, share: inside[position] ?? 0 })),
    };
  });
  return { mode, today, minImpressionsToAutoPilot: state.index.settings.minImpressionsToAutoPilot, advertisers };
}
