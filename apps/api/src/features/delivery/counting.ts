import {
  CLICK_TOKEN_MS,
  impressionCost,
  isTooEarlyForAView,
  VIEW_TOKEN_MS,
  viewEvidenceFault,
  type PageHeaders,
  clickCost,
  impressionCostAt,
  linkWithClickId,
  uniqueClickKeys,
  UNIQUE_CLICK_MS,
} from '@helium/domain';
import { mayHaveCommitted } from '@helium/db';
import { displayKey, type IndexedAd, type IndexedCampaign } from './ad-index.ts';
import type { Spent } from './billing.ts';
import type { CountHold } from './credits.ts';
import { adRef, KEPT_AFTER_VIEW_MS, rerecord, type DecisionState } from './decisions.ts';
import { eventMoney } from './event-money.ts';
import { NO_MONEY, type DeliveryEvent, type EventMoney } from './events.ts';
import type { Awaitable, DeliveryParts, Requester } from './parts.ts';
import { isOverdraw } from './recorder.ts';
import { SharedStoreError } from './shared/redis-scripts.ts';
import { newId } from './tokens.ts';
import type { AddressRule, InvalidReason } from './traffic-filter.ts';
import { utcDay } from './visitor.ts';

export type ViewOutcome = 'counted' | 'invalid' | 'ignored';
export type ClickOutcome = { location: string | null; counted: 'unique' | 'repeat' | 'invalid' | 'ignored' };

/**
 * Traffic set aside against a decision, against an ad with no decision (`id` null: a newsletter open), or
 * against a page with neither (a pageview).
 */
export function invalidEvent(
  parts: DeliveryParts,
  kind: 'pageview' | 'impression' | 'click',
  reason: InvalidReason | 'noCredits',
  decision: Pick<DecisionState, 'publisherId' | 'device'> & { id: string | null; adId: number | null },
  requester: Requester,
  at: Date,
  visitor = parts.hasher.visitor(requester.ip, requester.userAgent, at),
): DeliveryEvent {
  return {
    t: 'invalid',
    kind,
    reason,
    publisherId: decision.publisherId,
    adId: decision.adId,
    decisionId: decision.id,
    visitor,
    userAgent: requester.userAgent,
    device: decision.device,
    at,
  };
}

/** The address a decision's view or click is counted from: the pageview's of the same day, else the request's. */
function addressOf(parts: DeliveryParts, decision: DecisionState, requester: Requester, at: Date): string {
  if (decision.ip && utcDay(new Date(decision.at)) === utcDay(at)) return decision.ip;
  return parts.hasher.ip(requester.ip, at);
}

/** Tallies a counted event for the address it is counted from (SetAsides.tally), in case a rule sets it aside later. */
function tallyAddress(
  parts: DeliveryParts,
  decision: DecisionState,
  requester: Requester,
  at: Date,
  kind: 'impression' | 'click',
  id: string,
) {
  return parts.setAsides.tally.add(
    utcDay(at),
    decision.publisherId,
    addressOf(parts, decision, requester, at),
    kind,
    id,
  );
}

/**
 * The rule that set aside, today, the address of the decision's pageview or of this request, if one did. The
 * request's address is hashed only while some address is set aside (a view beacon otherwise hashes nothing).
 */
export async function addressFlag(
  parts: DeliveryParts,
  decision: DecisionState,
  requester: Requester,
  at: Date,
  ipHash?: string,
): Promise<AddressRule | null> {
  if (!parts.filter.hasFlags) return null;
  const day = utcDay(at);
  return parts.filter.flagOfAny(decision.publisherId, [decision.ip, ipHash ?? parts.hasher.ip(requester.ip, at)], day);
}

/**
 * Tallies a counted event for its address (SetAsides.tally), then spends its credit: both sent in the same turn, so
 * that a shared store runs them in this order in one round trip. If the tally fails, the spend is undone and the
 * tally's error thrown; a part of this process answers at once (no promise made).
 */
export async function tallyAndSpend(
  tally: (() => Awaitable<void>) | null,
  spend: (() => Awaitable<Spent>) | null,
): Promise<Spent | null> {
  const tallied = tally?.();
  const spending = spend?.() ?? null;
  if (!(tallied instanceof Promise) && !(spending instanceof Promise)) return spending;
  const [tallyResult, spendResult] = await Promise.allSettled([tallied, spending]);
  if (tallyResult.status === 'rejected') {
    if (spendResult.status === 'fulfilled' && spendResult.value?.ok) {
      spendResult.value.hold.undo();
      spendResult.value.hold.settled();
    }
    throw tallyResult.reason;
  }
  if (spendResult.status === 'rejected') throw spendResult.reason;
  return spendResult.value;
}

/**
 * Records a counted event's batch; the holds undo what was counted in memory if it fails, and settle either way.
 * Answers false when the database refused it as an overdraw (nothing written: the campaign had no credits left,
 * whatever this process believed), so that the caller records the event as not billed instead.
 */
async function recordCounted(
  parts: DeliveryParts,
  events: DeliveryEvent[],
  holds: CountHold[],
  onFailure: () => void,
): Promise<boolean> {
  try {
    await parts.recorder.record(events);
    return true;
  } catch (error) {
    // Cut off while its commit was on its way, the batch may be written: what it counted stays counted, its view or
    // unique click used (lost at worst, never counted twice), its credits spent until the database says otherwise.
    if (mayHaveCommitted(error)) throw error;
    for (const hold of holds) hold.undo();
    onFailure();
    if (!isOverdraw(error)) throw error;
    // This process counted on credits the database no longer had: its view of them is read again.
    void parts.index.servingChanged();
    return false;
  } finally {
    for (const hold of holds) hold.settled();
  }
}

/**
 * A view from someone else than the visitor (a scanner, a bot given the token, a program replaying it at once, a
 * program without a browser's evidence, an address set aside): the visitor's own may still come.
 */
async function setViewAside(
  parts: DeliveryParts,
  decision: DecisionState,
  requester: Requester,
  at: Date,
  reason: InvalidReason,
): Promise<'invalid'> {
  await parts.recorder.record([invalidEvent(parts, 'impression', reason, decision, requester, at)]);
  return 'invalid';
}

/** Counts the decision's impression now, unless the campaign has reached a limit; durable once resolved. */
export async function countImpression(
  parts: DeliveryParts,
  decision: DecisionState,
  requester: Requester,
): Promise<ViewOutcome> {
  const campaign = parts.index.snapshot().campaigns.get(decision.campaignId);
  if (!campaign) return 'ignored';
  if (!(await parts.decisions.claimView(decision))) return 'ignored';
  return countClaimed(parts, decision, campaign, requester);
}

/**
 * A view beacon with nothing against it but, perhaps, its address: the address's flags are read and the view
 * claimed in one round trip of the shared store (sent in the same turn), then the view counted as countImpression
 * does. A flagged address's view is set aside and its claim given back (another beacon of the token arriving
 * within that round trip is answered `ignored`: a view lost, never one counted twice).
 */
async function countUnlessFlagged(
  parts: DeliveryParts,
  decision: DecisionState,
  requester: Requester,
  at: Date,
): Promise<ViewOutcome> {
  // No address is set aside today (this process's filter knows): nothing to read.
  if (!parts.filter.hasFlags) return countImpression(parts, decision, requester);
  const campaign = parts.index.snapshot().campaigns.get(decision.campaignId);
  if (!campaign) return 'ignored';
  const [flag, claim] = await Promise.allSettled([
    addressFlag(parts, decision, requester, at),
    parts.decisions.claimView(decision),
  ]);
  const claimed = claim.status === 'fulfilled' && claim.value;
  if (claimed && (flag.status === 'rejected' || flag.value)) parts.decisions.unclaimView(decision);
  if (flag.status === 'rejected') throw flag.reason;
  if (flag.value) return setViewAside(parts, decision, requester, at, flag.value);
  if (claim.status === 'rejected') throw claim.reason;
  return claimed ? countClaimed(parts, decision, campaign, requester) : 'ignored';
}

/** Counts a view this beacon has claimed (DecisionBook.claimView): gives the claim back if nothing was written. */
async function countClaimed(
  parts: DeliveryParts,
  decision: DecisionState,
  campaign: IndexedCampaign,
  requester: Requester,
): Promise<ViewOutcome> {
  decision.writing = (decision.writing ?? 0) + 1;
  try {
    return await writeImpression(parts, decision, campaign, requester);
  } catch (error) {
    // The shared store went away before anything was written: the view may be counted when it is back.
    if (error instanceof SharedStoreError) parts.decisions.unclaimView(decision);
    throw error;
  } finally {
    decision.writing = (decision.writing ?? 1) - 1;
    decision.keptUntil = parts.clock.now().getTime() + KEPT_AFTER_VIEW_MS;
  }
}

/** The event was not billed after all: its view (or unique click) stays used, set aside as `noCredits`. */
async function recordNoCredits(parts: DeliveryParts, events: DeliveryEvent[]) {
  await parts.recorder.record(events);
}

async function writeImpression(
  parts: DeliveryParts,
  decision: DecisionState,
  campaign: IndexedCampaign,
  requester: Requester,
): Promise<ViewOutcome> {
  // The counters below are today's: the day is the one of this instant, whatever the caller awaited before.
  const at = parts.clock.now();
  const day = utcDay(at);
  parts.billing.pacing.rollDay(day);
  const wasReserved = decision.reserved;
  decision.reserved = false;
  const noCredits = () => invalidEvent(parts, 'impression', 'noCredits', decision, requester, at);
  // What the address of its pageview counted today, in case a rule sets that address aside later today. Tallied
  // before it is spent and queued: a set-aside queued from now on runs once it is written (and finds nothing to
  // reverse of an event that was not billed after all).
  const spendsCredit = !campaign.isCpc;
  const costBound = impressionCost(campaign.cpm) + 1;
  const spent = await tallyAndSpend(
    decision.channel === 'web' ? () => tallyAddress(parts, decision, requester, at, 'impression', decision.id) : null,
    spendsCredit
      ? () =>
          parts.billing.spend({
            kind: 'impression',
            campaign,
            adId: decision.adId,
            id: decision.id,
            reservation: wasReserved ? { decisionId: decision.id } : null,
            day,
            budget: parts.index.snapshot().ads.get(decision.adId)?.budget ?? 0,
            costBound,
            nowMs: at.getTime(),
          })
      : null,
  );
  if (spent && !spent.ok) {
    await recordNoCredits(parts, [noCredits()]);
    return 'invalid';
  }
  const money = spent
    ? eventMoney(parts.index.snapshot(), impressionCostAt(campaign.cpm, spent.remainingBefore), {
        publisherId: decision.publisherId,
        advertiserId: decision.advertiserId,
        isTrial: campaign.isTrial,
      })
    : NO_MONEY;
  const paced = {
    day,
    campaignId: campaign.id,
    adId: decision.adId,
    display: displayKey(decision.publisherId, decision.channel, decision.device),
    impressions: 1 as const,
    clicks: 0 as const,
    spent: money.cost + money.trialCost,
  };
  const holds = [parts.billing.count(paced, spent ? costBound : undefined)];
  if (spent) holds.push(spent.hold);
  const rerecorded = rerecord(decision);
  const impression: DeliveryEvent = {
    t: 'impression',
    decisionId: decision.id,
    ...adRef(decision),
    spendsCredit,
    money,
    at,
  };
  const written = await recordCounted(parts, [...rerecorded, impression], holds, () => {
    parts.decisions.unclaimView(decision);
    if (rerecorded.length) decision.unrecorded = true;
    // The spend's hold gave the reservation back (billing.ts): the decision holds it again.
    if (wasReserved && spent) decision.reserved = true;
  });
  if (written) return 'counted';
  // Refused as an overdraw: the view came, but the campaign cannot pay for it (as billingLimit's noCredits above).
  decision.viewed = true;
  if (decision.reserved) {
    decision.reserved = false;
    parts.billing.release(decision.campaignId, decision.id);
  }
  await recordNoCredits(parts, [noCredits()]);
  return 'invalid';
}

/**
 * Counts a click of a decision's ad: the redirect's location (the ad's registered link plus a click id), and a
 * billed click at most once per uniqueClickKeys' windows, while the campaign may still be billed.
 */
export async function countClick(
  parts: DeliveryParts,
  decision: DecisionState,
  ad: IndexedAd,
  requester: Requester,
  at: Date,
): Promise<ClickOutcome> {
  const day = utcDay(at);
  parts.billing.pacing.rollDay(day);
  const clickId = newId();
  const location = linkWithClickId(ad.link ?? '', clickId);
  if (!location) return { location: null, counted: 'ignored' };
  const visitor = parts.hasher.visitor(requester.ip, requester.userAgent, at);
  // A newsletter's click has no page: the rules of an address's web traffic are not its.
  const web = decision.channel === 'web';
  const ipHash = parts.hasher.ip(requester.ip, at);
  const invalid = parts.dataCentres.has(requester.ip)
    ? 'dataCentre'
    : ((await parts.filter.click({ visitor, ipHash, userAgent: requester.userAgent, nowMs: at.getTime() })) ??
      (web ? await addressFlag(parts, decision, requester, at, ipHash) : null));
  if (invalid) {
    await parts.recorder.record([invalidEvent(parts, 'click', invalid, decision, requester, at)]);
    return { location, counted: 'invalid' };
  }
  const campaign = parts.index.snapshot().campaigns.get(decision.campaignId);
  const hourAgo = new Date(at.getTime() - UNIQUE_CLICK_MS);
  const keys = uniqueClickKeys({
    adId: decision.adId,
    visitor,
    decisionId: decision.id,
    channel: decision.channel,
    // Just after midnight the visitor's hash has a new day's salt: the same person, under yesterday's, too.
    visitorAnHourAgo: utcDay(hourAgo) !== day ? parts.hasher.visitor(requester.ip, requester.userAgent, hourAgo) : null,
  });
  const events: DeliveryEvent[] = rerecord(decision);
  const rerecorded = events.length > 0;
  const noCredits = () => invalidEvent(parts, 'click', 'noCredits', decision, requester, at, visitor);
  let uniqueHold = await parts.uniqueClicks.claim(keys, at.getTime());
  const costBound = campaign ? clickCost(campaign.cpc) : 0;
  let spent: Spent | null = null;
  try {
    // Tallied before it is spent and queued, as an impression (writeImpression).
    spent = await tallyAndSpend(
      uniqueHold && web ? () => tallyAddress(parts, decision, requester, at, 'click', clickId) : null,
      uniqueHold && campaign?.isCpc
        ? () =>
            parts.billing.spend({
              kind: 'click',
              campaign,
              adId: decision.adId,
              id: clickId,
              reservation: null,
              day,
              budget: ad.budget,
              costBound,
              nowMs: at.getTime(),
            })
        : null,
    );
  } catch (error) {
    if (!(error instanceof SharedStoreError)) throw error;
    // The shared store went away: the visitor reaches the ad's page, and nothing is counted.
    uniqueHold?.undo();
    return { location, counted: 'ignored' };
  }
  if (uniqueHold && spent) {
    if (!spent.ok) {
      // The visitor's unique click came once the campaign could no longer pay for it: a repeat, set aside.
      uniqueHold.undo();
      uniqueHold = null;
      spent = null;
      events.push(noCredits());
    }
  }
  const isUnique = uniqueHold !== null;
  const spendsCredit = Boolean(spent?.ok);
  const money =
    spendsCredit && campaign
      ? eventMoney(parts.index.snapshot(), clickCost(campaign.cpc), {
          publisherId: decision.publisherId,
          advertiserId: decision.advertiserId,
          isTrial: campaign.isTrial,
        })
      : NO_MONEY;
  const holds: CountHold[] = [];
  if (uniqueHold) {
    holds.push(uniqueHold);
    const paced = {
      day,
      campaignId: decision.campaignId,
      adId: decision.adId,
      display: null,
      impressions: 0 as const,
      clicks: 1 as const,
      spent: money.cost + money.trialCost,
    };
    holds.push(parts.billing.count(paced, spendsCredit ? costBound : undefined));
  }
  if (spent?.ok) holds.push(spent.hold);
  const click = clickEvent(decision, clickId, visitor, isUnique, spendsCredit, money, at);
  // The database out of reach, this throws: the engine still sends the visitor to the ad's page (adPageOf).
  const written = await recordCounted(parts, [...events, click], holds, () => {
    if (rerecorded) decision.unrecorded = true;
  });
  if (written) return { location, counted: isUnique ? 'unique' : 'repeat' };
  // Refused as an overdraw: a repeat the campaign could not pay for, as billingLimit's noCredits above.
  const notBilled = clickEvent(decision, clickId, visitor, false, false, NO_MONEY, at);
  await recordNoCredits(parts, [...rerecord(decision), noCredits(), notBilled]);
  return { location, counted: 'repeat' };
}

function clickEvent(
  decision: DecisionState,
  clickId: string,
  visitor: string,
  isUnique: boolean,
  spendsCredit: boolean,
  money: EventMoney,
  at: Date,
): DeliveryEvent {
  return {
    t: 'click',
    id: clickId,
    decisionId: decision.id,
    visitor,
    isUnique,
    spendsCredit,
    money,
    ...adRef(decision),
    at,
  };
}

/**
 * Counts a validated impression for a view token: once per decision, only for a genuine, unexpired token
 * of a real decision, never beyond the campaign's remaining impressions. Anything else counts nothing.
 */
export async function viewByToken(
  parts: DeliveryParts,
  token: unknown,
  requester: Requester,
  headers: PageHeaders,
): Promise<ViewOutcome> {
  const payload = parts.signer.verify(token, 'v');
  if (!payload || payload.expiresAt * 1000 < parts.clock.now().getTime()) return 'ignored';
  const decision = await parts.decisions.find(payload, VIEW_TOKEN_MS, () => parts.index.snapshot());
  if (!decision || decision.viewed) return 'ignored';
  // Read after the lookup: another request may have moved the day on meanwhile (the counters are today's).
  const at = parts.clock.now();
  parts.billing.pacing.rollDay(utcDay(at));
  const setAside = (reason: InvalidReason) => setViewAside(parts, decision, requester, at, reason);
  // In this order: a bot, a data centre, the address's flag, the browser's evidence, the view's timing.
  if (parts.filter.isBot(requester.userAgent)) return setAside('bot');
  if (parts.dataCentres.has(requester.ip)) return setAside('dataCentre');
  const domain = parts.index.snapshot().publishers.get(decision.publisherId)?.domain;
  const laterFault =
    viewEvidenceFault(headers, domain) ??
    (isTooEarlyForAView(at.getTime() - decision.at, decision.shownAs ?? 'image') ? 'tooEarly' : null);
  if (!laterFault) return countUnlessFlagged(parts, decision, requester, at);
  return setAside((await addressFlag(parts, decision, requester, at)) ?? laterFault);
}

/**
 * A click through /c/<token>: answers where to send the visitor (the ad's registered link plus a click id)
 * and counts a billed click at most once per hour per visitor per ad.
 */
export async function clickByToken(parts: DeliveryParts, token: string, requester: Requester): Promise<ClickOutcome> {
  const payload = parts.signer.verify(token, 'c');
  if (!payload) return { location: null, counted: 'ignored' };
  const decision = await parts.decisions.find(payload, CLICK_TOKEN_MS, () => parts.index.snapshot());
  if (!decision) return { location: null, counted: 'ignored' };
  const ad = parts.index.snapshot().ads.get(decision.adId);
  const at = parts.clock.now();
  if (!ad?.link) return { location: null, counted: 'ignored' };
  if (payload.expiresAt * 1000 < at.getTime()) {
    return { location: linkWithClickId(ad.link, 'expired'), counted: 'ignored' };
  }
  return countClick(parts, decision, ad, requester, at);
}
