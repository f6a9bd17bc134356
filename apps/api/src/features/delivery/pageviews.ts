import { countryOf, decisionEvidenceFault, placementsFor, type PageHosts } from '@helium/domain';
import type { ServedAd } from '@helium/contracts/serving';
import { decisionRecord, type DecisionState } from './decisions.ts';
import type { DeliveryEvent } from './events.ts';
import { invalidEvent } from './counting.ts';
import { selectionState, type DeliveryParts, type Requester } from './parts.ts';
import { servedAd, shownAsOf } from './served-ads.ts';
import { chooseForSlot } from './slot-selection.ts';
import { newId } from './tokens.ts';
import { deviceOf, utcDay } from './visitor.ts';
import type { IndexedAd } from './ad-index.ts';
import type { Channel, Device } from '@helium/domain';

/**
 * Decisions are answered without waiting for their batch to commit while fewer events than this wait to be
 * written; beyond it a decision waits for its batch again, so that a load the database cannot keep up with
 * slows the answers down instead of growing the queue (and what a crash may lose) without bound.
 */
export const MAX_UNDURABLE_EVENTS = 2_000;

/** A pageview of the publisher script, as the serving route reads it. */
export interface PageviewRequest {
  publisherId: number;
  url: string;
  host: string;
  /** The hosts of the request's Origin and Referer and of the page address: a browser's evidence of the page. */
  hosts: PageHosts;
  viewportWidth: number | null;
  requester: Requester;
}

/**
 * A new decision for a served ad, its CPM credit reserved until viewed or released (RESERVATION_MS); null when the
 * reservation was refused (another instance took the campaign's last credit or its day's last impression).
 */
export async function reserve(
  parts: DeliveryParts,
  ad: IndexedAd,
  place: {
    publisherId: number;
    channel: Channel;
    device: Device;
    url: string;
    ip: string | null;
    country?: string;
    /** How the script shows it (a web page's ad), known before any instance may receive its view. */
    shownAs?: 'image' | 'video';
  },
  at: Date,
): Promise<DecisionState | null> {
  const campaign = parts.index.snapshot().campaigns.get(ad.campaignId);
  const decision: DecisionState = {
    id: newId(),
    ...place,
    adId: ad.id,
    campaignId: ad.campaignId,
    advertiserId: ad.advertiserId,
    at: at.getTime(),
    reserved: Boolean(campaign && !campaign.isCpc),
    viewed: false,
  };
  if (campaign && decision.reserved) {
    const reserved = await parts.billing.reserve(campaign, decision.id, decision.at);
    parts.metrics.reservation(reserved ? 'reserved' : 'refused');
    if (!reserved) return null;
  }
  parts.decisions.add(decision);
  return decision;
}

/** A decision that was never served after all: its reservation released, forgotten. */
function unserve(parts: DeliveryParts, decision: DecisionState) {
  if (decision.reserved) {
    decision.reserved = false;
    parts.billing.release(decision.campaignId, decision.id);
  }
  parts.decisions.forget(decision.id);
}

/**
 * A pageview of the publisher script: counts it (or sets it aside as invalid), chooses an ad for each of the
 * publisher's placements on this device and reserves their credits.
 */
export async function decide(
  parts: DeliveryParts,
  input: PageviewRequest,
): Promise<{ counted: boolean; ads: ServedAd[] }> {
  const publisher = parts.index.snapshot().publishers.get(input.publisherId);
  if (!publisher) return { counted: false, ads: [] };
  const at = parts.clock.now();
  const { hasher, filter } = parts;
  parts.billing.pacing.rollDay(utcDay(at));
  const device = deviceOf(input.requester.userAgent, input.viewportWidth);
  const visitor = hasher.visitor(input.requester.ip, input.requester.userAgent, at);
  const ipHash = hasher.ip(input.requester.ip, at);
  const invalidReason = parts.dataCentres.has(input.requester.ip)
    ? 'dataCentre'
    : await filter.pageview({
        publisherId: publisher.id,
        visitor,
        ipHash,
        userAgent: input.requester.userAgent,
        day: parts.billing.pacing.today,
        nowMs: at.getTime(),
        evidenceFault: decisionEvidenceFault(input.hosts, publisher.domain),
      });
  const events: DeliveryEvent[] = [];
  parts.heartbeats.page(publisher, input.host, at, events);
  const pageviewId = newId();
  const url = input.url.slice(0, 500);
  events.push({ t: 'pageview', id: pageviewId, publisherId: publisher.id, device, url, visitor, invalidReason, at });
  if (invalidReason) {
    const noAd = { id: null, publisherId: publisher.id, adId: null, device };
    events.push(invalidEvent(parts, 'pageview', invalidReason, noAd, input.requester, at, visitor));
    await recordServed(parts, events, () => {});
    return { counted: false, ads: [] };
  }
  const served: ServedAd[] = [];
  const newDecisions: DecisionState[] = [];
  // The database is away: no ad whose view could not be counted (the pageview still goes, and its batch tells when
  // the database is back).
  if (publisher.isWeb && !parts.recorder.databaseAway) {
    // One ad per placement that applies to this device, each of its accepted formats, no ad twice a page.
    const chosen = new Set<number>();
    // Located once per pageview (kept per IP): for geotargeting and the country figures.
    const location = parts.geo.locate(input.requester.ip);
    const country = countryOf(location);
    const state = selectionState(parts);
    for (const [slot, placement] of placementsFor(publisher.placements, device).entries()) {
      const query = { publisherId: publisher.id, channel: 'web' as const, device, formatIds: placement.formatIds };
      const ad = chooseForSlot(state, { ...query, exclude: chosen, location }, parts.random);
      if (!ad) continue;
      chosen.add(ad.id);
      const decision = await reserve(parts, ad, { ...query, url, ip: ipHash, country, shownAs: shownAsOf(ad) }, at);
      if (!decision) continue;
      newDecisions.push(decision);
      events.push(decisionRecord(decision, { pageviewId, slot, visitor }));
      served.push(servedAd(parts, ad, decision, placement));
    }
  }
  await recordServed(parts, events, () => {
    for (const decision of newDecisions) unserve(parts, decision);
  });
  return { counted: true, ads: served };
}

/**
 * Queues a pageview and its decisions. They are served, not billed: the answer does not wait for them to be
 * durable (the view beacon, which bills, does wait, and its batch is never written before theirs: the queue
 * is in order). A crash may lose the last ones; a view or click of a lost decision still counts, from what
 * its token carries (DecisionBook.find). Under a backlog the answer waits again (MAX_UNDURABLE_EVENTS), and a
 * stopping recorder refuses them as before. `onLost` undoes what the engine kept in memory.
 */
export async function recordServed(parts: DeliveryParts, events: DeliveryEvent[], onLost: () => void): Promise<void> {
  const recorder = parts.recorder;
  const backlog = recorder.isClosed || recorder.pending + events.length > MAX_UNDURABLE_EVENTS;
  const durable = recorder.record(events, { deferred: !backlog });
  if (!backlog) {
    durable.catch(onLost);
    return;
  }
  try {
    await durable;
  } catch (error) {
    onLost();
    throw error;
  }
}
