import { countryOf, linkWithClickId, type IneligibleReason } from '@helium/domain';
import type { IndexedAd } from './ad-index.ts';
import { countClick, countImpression, invalidEvent, type ClickOutcome, type ViewOutcome } from './counting.ts';
import { decisionRecord, type DecisionState } from './decisions.ts';
import type { DeliveryEvent } from './events.ts';
import { reserve } from './pageviews.ts';
import { selectionState, type DeliveryParts, type Requester } from './parts.ts';
import { mediaUrl } from './served-ads.ts';
import { chooseForSlot, ineligibilityOf } from './slot-selection.ts';
import { utcDay } from './visitor.ts';

const OWL_FORMATS = [2];

/** Reasons an ad is not served that concern what can still be billed, which counting itself checks. */
const BILLING_LIMITS: ReadonlySet<IneligibleReason> = new Set(['noCredits', 'dailyCapReached', 'budgetSpent']);

/** A newsletter issue's banner: the publisher, banner 1 or 2, and the issue's name from the link. */
export interface IssueBanner {
  publisherId: number;
  bannerIndex: number;
  issue: string;
}

/** The issue's ad (chosen at its first open among untargeted campaigns: readers' places are unknown), if any. */
async function issueAd(parts: DeliveryParts, banner: IssueBanner, at: Date, events: DeliveryEvent[]) {
  const choose = () =>
    chooseForSlot(
      selectionState(parts),
      {
        publisherId: banner.publisherId,
        channel: 'owl',
        device: 'desktop',
        formatIds: OWL_FORMATS,
        exclude: new Set(),
        location: null,
      },
      parts.random,
    );
  const adId = await parts.issues.adOf(banner, choose, at, events);
  return adId === null ? null : (parts.index.snapshot().ads.get(adId) ?? null);
}

/**
 * An issue keeps its ad, but an ad since ejected, switched off or no longer validated bills nothing more: the
 * reader still sees the banner the newsletter was sent with, and its link still leads to the ad's page.
 * Credits, the daily cap and the budget are checked where the open or the click is counted.
 */
function billableInIssue(parts: DeliveryParts, ad: IndexedAd, publisherId: number, at: Date): boolean {
  const state = selectionState(parts);
  const campaign = state.index.campaigns.get(ad.campaignId);
  const reason = campaign
    ? ineligibilityOf(state, ad, campaign, publisherId, {
        channel: 'owl',
        device: 'desktop',
        formatIds: OWL_FORMATS,
        location: null,
        now: at.getTime(),
      })
    : 'noCredits';
  return !reason || BILLING_LIMITS.has(reason);
}

/**
 * A newsletter open: records the newsletter's heartbeat, counts an impression of the issue's banner ad and
 * answers its media URL, with what was counted (`ignored` when the publisher has no newsletter or no ad can
 * be shown).
 */
export async function owlOpen(
  parts: DeliveryParts,
  banner: IssueBanner,
  requester: Requester,
): Promise<{ location: string | null; counted: ViewOutcome }> {
  const publisher = parts.index.snapshot().publishers.get(banner.publisherId);
  if (!publisher?.isOwl) return { location: null, counted: 'ignored' };
  const at = parts.clock.now();
  const events: DeliveryEvent[] = [];
  // The banner was requested: the newsletter is installed, also while no ad can be shown in it.
  parts.heartbeats.newsletter(publisher, at, events);
  const ad = await issueAd(parts, banner, at, events);
  if (!ad) {
    await parts.recorder.record(events);
    return { location: null, counted: 'ignored' };
  }
  const location = mediaUrl(parts.baseUrl, ad).src;
  if (!billableInIssue(parts, ad, banner.publisherId, at)) {
    await parts.recorder.record(events);
    return { location, counted: 'ignored' };
  }
  parts.billing.pacing.rollDay(utcDay(at));
  const visitor = parts.hasher.visitor(requester.ip, requester.userAgent, at);
  // Judged before anything is served: an invalid open is no decision (as an invalid pageview serves none).
  // A mail service's image proxy runs from its own addresses, not from rented cloud ranges.
  const invalid = parts.dataCentres.has(requester.ip)
    ? 'dataCentre'
    : await parts.filter.open({
        publisherId: banner.publisherId,
        visitor,
        ipHash: parts.hasher.ip(requester.ip, at),
        // The address only to look it up in the mail proxies' ranges (it is not kept), and the issue for their caps.
        ip: requester.ip,
        issue: banner.issue,
        userAgent: requester.userAgent,
        day: parts.billing.pacing.today,
        nowMs: at.getTime(),
      });
  if (invalid) {
    const noDecision = { id: null, publisherId: banner.publisherId, adId: ad.id, device: 'desktop' as const };
    events.push(invalidEvent(parts, 'impression', invalid, noDecision, requester, at, visitor));
    await parts.recorder.record(events);
    return { location, counted: 'invalid' };
  }
  const country = countryOf(parts.geo.locate(requester.ip));
  const place = { publisherId: banner.publisherId, channel: 'owl' as const, device: 'desktop' as const, url: '' };
  const decision = await reserve(parts, ad, { ...place, ip: null, country }, at);
  if (!decision) {
    await parts.recorder.record(events);
    return { location, counted: 'ignored' };
  }
  events.push(decisionRecord(decision, { pageviewId: null, slot: banner.bannerIndex, visitor }));
  await parts.recorder.record(events);
  return { location, counted: await countImpression(parts, decision, requester) };
}

/** A click on a newsletter banner: the issue's ad, counted like a web click. */
export async function owlClick(parts: DeliveryParts, banner: IssueBanner, requester: Requester): Promise<ClickOutcome> {
  // Only a newsletter publisher's links choose and keep an issue's ad (as owlOpen).
  if (!parts.index.snapshot().publishers.get(banner.publisherId)?.isOwl) return { location: null, counted: 'ignored' };
  const at = parts.clock.now();
  const events: DeliveryEvent[] = [];
  const ad = await issueAd(parts, banner, at, events);
  await parts.recorder.record(events);
  if (!ad) return { location: null, counted: 'ignored' };
  if (!billableInIssue(parts, ad, banner.publisherId, at)) {
    // As a web click link past its time: to the ad's page, with a click id no lead can report.
    return { location: ad.link ? linkWithClickId(ad.link, 'expired') : null, counted: 'ignored' };
  }
  const decision: DecisionState = {
    id: `owl:${banner.publisherId}:${banner.bannerIndex}:${banner.issue}`.slice(0, 120),
    publisherId: banner.publisherId,
    adId: ad.id,
    campaignId: ad.campaignId,
    advertiserId: ad.advertiserId,
    channel: 'owl',
    device: 'desktop',
    url: '',
    country: countryOf(parts.geo.locate(requester.ip)),
    at: at.getTime(),
    reserved: false,
    viewed: true,
  };
  return countClick(parts, decision, ad, requester, at);
}
