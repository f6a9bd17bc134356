import {
  CLICK_TOKEN_MS,
  ctrRank,
  ctrThresholds,
  type CtrThresholds,
  type Device,
  type PageHeaders,
  linkWithClickId,
} from '@helium/domain';
import { isDatabaseUnreachable } from '@helium/db';
import { displayKey, loadCounters, type AdIndexSnapshot, type IndexedAd } from './ad-index.ts';
import { clickByToken, viewByToken, type ClickOutcome, type ViewOutcome } from './counting.ts';
import type { CreditBook } from './credits.ts';
import type { ReversedEvent } from './event-reads.ts';
import type { GeoLocator } from './geo.ts';
import { owlClick, owlOpen, type IssueBanner } from './newsletters.ts';
import { decide, type PageviewRequest } from './pageviews.ts';
import { selectionState, type DeliveryParts, type Requester, type TrafficJudge } from './parts.ts';
import type { GroupCommitRecorder } from './recorder.ts';
import { mediaUrl } from './served-ads.ts';
import { SharedStoreError } from './shared/redis-scripts.ts';
import type { ServingChanges } from './shared/serving-changes.ts';
import type { SharedBilling } from './shared/shared-billing.ts';
import { displayPlan } from './slot-selection.ts';
import { utcDay } from './visitor.ts';
import { createParts, type EngineOptions } from './wiring.ts';

export type { Requester } from './parts.ts';
export type { ClickOutcome, ViewOutcome } from './counting.ts';
export type { EngineOptions, SharedStateOptions } from './wiring.ts';

/** How often reservations of unviewed ads are released and old decisions, clicks and heartbeats forgotten. */
const SWEEP_EVERY_MS = 10_000;
/** How often an instance sharing its state copies the shared figures selection reads (SharedBilling.refresh). */
const SHARED_REFRESH_MS = 1_000;

/** Redis or the database out of reach: what serving answers safely, and what the log says once a minute. */
export function isStoreOutage(error: unknown): boolean {
  return error instanceof SharedStoreError || isDatabaseUnreachable(error);
}

/**
 * The ad-delivery engine: the serving routes' one entry. It wires the parts that each own a piece of serving's
 * state (parts.ts) and hands each request to the code that decides it: pageviews.ts (decisions), counting.ts
 * (views and clicks), leads.ts, newsletters.ts.
 */
export class DeliveryEngine {
  readonly recorder: GroupCommitRecorder;
  readonly filter: TrafficJudge;
  readonly geo: GeoLocator;
  /** The parts (tests reach into them; the routes use the methods below). */
  readonly parts: DeliveryParts;
  private readonly changes: ServingChanges | null;
  private readonly sharedBilling: SharedBilling | null;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: EngineOptions) {
    const created = createParts(options, {
      indexLoaded: (index) => this.indexLoaded(index),
      loadCounters: (always) => this.loadCounters(always),
      reversed: (events) => this.reversed(events),
    });
    this.parts = created.parts;
    this.changes = created.changes;
    this.sharedBilling = created.sharedBilling;
    this.recorder = this.parts.recorder;
    this.filter = this.parts.filter;
    this.geo = this.parts.geo;
  }

  /** Loads the index and the counters; starts the periodic reload and the sweep unless `timers` is false. */
  async start(options: { timers?: boolean } = {}): Promise<void> {
    await this.parts.index.start(options);
    // Other instances' changes reload this one's index too (its own announce theirs).
    this.changes?.start(() => void this.parts.index.servingChanged({ announce: false }));
    if (options.timers === false) return;
    this.timers.push(setInterval(() => this.sweep(), SWEEP_EVERY_MS));
    const shared = this.sharedBilling;
    if (shared) {
      const refresh = () => shared.refresh(this.options.clock.now().getTime()).catch(this.options.onError);
      this.timers.push(setInterval(refresh, SHARED_REFRESH_MS));
    }
    for (const timer of this.timers) timer.unref();
  }

  /** Graceful stop: writes every queued event. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.changes?.stop();
    await this.parts.index.stop();
    await this.recorder.close();
  }

  private async indexLoaded(index: AdIndexSnapshot) {
    await this.parts.billing.indexLoaded(index);
    // Every pageview is located (country figures, geotargeting): the database is read here, not in a request.
    this.geo.load();
  }

  /** Today's counters from the database: at start, when asked, and on the first reload of a new day. */
  private async loadCounters(always: boolean, now = this.options.clock.now()) {
    const { uniqueClicks } = this.parts;
    const { pacing } = this.parts.billing;
    // The clock is read after the index's await: a request may have rolled to a new day meanwhile.
    const day = utcDay(now);
    // Forward only, as rollDay: figures of a day before the engine's would count against today's caps.
    if ((!always && day === pacing.today) || day < pacing.today) return;
    // A decision bills one unique click in its click token's life: its clicks are read back that far.
    const counters = await loadCounters(this.options.db, day, now, CLICK_TOKEN_MS);
    // A request rolled to a later day while the database answered: these are yesterday's figures, and today's
    // counters started from zero then (what was counted since is in them).
    if (day < pacing.today) return;
    pacing.load(day, counters);
    uniqueClicks.load(counters.recentUniqueClicks, now.getTime());
    await this.parts.billing.countersLoaded();
  }

  /** What set_aside_traffic reversed leaves the counters kept in memory. */
  private reversed(events: ReversedEvent[]) {
    this.parts.billing.reversed(events, (event) => displayKey(event.publisherId, event.channel, event.device));
  }

  /** See ServingIndex.servingChanged: resolves once decisions see the change. */
  servingChanged(): Promise<void> {
    return this.parts.index.servingChanged();
  }

  /** Reloads the index now (tests and the change hook); with `counters`, today's counters too, as at start. */
  refresh(options: { counters?: boolean } = {}): Promise<void> {
    return this.parts.index.refresh(options);
  }

  /** Releases reservations of ads not viewed in time and forgets old decisions, clicks and heartbeats. */
  sweep(): void {
    const now = this.options.clock.now().getTime();
    this.parts.decisions.sweep(now);
    this.parts.uniqueClicks.sweep(now);
    this.parts.heartbeats.sweep(now);
    this.parts.leads.sweep();
    this.parts.setAsides.retryFailed();
  }

  /** Resolves once every set-aside queued so far is done: the daily revenue ledger waits for it (SetAsides.settle). */
  settle(): Promise<void> {
    return this.parts.setAsides.settle();
  }

  /** A pageview of the publisher script: counts it and answers the ads of the publisher's placements. */
  decide(input: PageviewRequest) {
    return decide(this.parts, input).catch((error: unknown) => this.answerSafely(error, { counted: false, ads: [] }));
  }

  /** The script's heartbeat alone (also sent with every decision). */
  async recordHeartbeat(publisherId: number, host: string): Promise<void> {
    const publisher = this.parts.index.snapshot().publishers.get(publisherId);
    if (!publisher) return;
    const events: Parameters<typeof this.recorder.record>[0] = [];
    this.parts.heartbeats.page(publisher, host, this.options.clock.now(), events);
    await this.recorder.record(events);
  }

  /** A view beacon: counts a validated impression for a genuine view token (counting.ts `viewByToken`). */
  view(token: unknown, requester: Requester, headers: PageHeaders): Promise<ViewOutcome> {
    return viewByToken(this.parts, token, requester, headers).catch((error: unknown) =>
      this.answerSafely(error, 'ignored' as const),
    );
  }

  /** A click through /c/<token>: where to send the visitor, and what was counted (counting.ts `clickByToken`). */
  click(token: string, requester: Requester): Promise<ClickOutcome> {
    return clickByToken(this.parts, token, requester).catch((error: unknown) => {
      // The database out of reach before the click could be read or counted: the visitor still reaches the ad,
      // and the outage is reported as the others are.
      if (isDatabaseUnreachable(error)) {
        this.options.onError?.(error);
        return this.adPageOf(token);
      }
      return this.answerSafely(error, { location: null, counted: 'ignored' as const });
    });
  }

  /** The page of the ad a genuine click token names (its `served`), with no click counted: `hclid=unrecorded`. */
  private adPageOf(token: string): ClickOutcome {
    const adId = this.parts.signer.verify(token, 'c')?.served?.adId;
    const link = adId === undefined ? null : this.parts.index.snapshot().ads.get(adId)?.link;
    return { location: link ? linkWithClickId(link, 'unrecorded') : null, counted: 'ignored' };
  }

  /**
   * A lead for a click id (the advertiser's pixel or postback): see LeadBook. The pixel answers its image whatever
   * happens; a postback whose lead cannot be written fails, so that the advertiser's server may send it again.
   */
  lead(clickId: unknown, source: 'pixel' | 'postback'): Promise<boolean> {
    const counting = this.parts.leads.lead(clickId, source, this.options.clock.now());
    return source === 'pixel' ? counting.catch((error: unknown) => this.answerSafely(error, false)) : counting;
  }

  /** A newsletter open (its banner image): see newsletters.ts. */
  owlOpen(publisherId: number, bannerIndex: number, issue: string, requester: Requester) {
    return owlOpen(this.parts, { publisherId, bannerIndex, issue } satisfies IssueBanner, requester).catch(
      (error: unknown) => this.answerSafely(error, { location: null, counted: 'ignored' as const }),
    );
  }

  /** A click on a newsletter banner. */
  owlClick(publisherId: number, bannerIndex: number, issue: string, requester: Requester) {
    return owlClick(this.parts, { publisherId, bannerIndex, issue }, requester).catch((error: unknown) =>
      this.answerSafely(error, { location: null, counted: 'ignored' as const }),
    );
  }

  /**
   * The shared store (Redis) or the database did not answer (isStoreOutage): serving answers safely (no ad, nothing
   * counted or acknowledged) rather than fail, and reports it (onError: the app's log says so once a minute). Any
   * other error is the caller's.
   */
  private answerSafely<T>(error: unknown, answer: T): T {
    if (!isStoreOutage(error)) throw error;
    this.options.onError?.(error);
    return answer;
  }

  visitorOf(requester: Requester, at: Date): string {
    return this.parts.hasher.visitor(requester.ip, requester.userAgent, at);
  }

  mediaUrl(ad: IndexedAd) {
    return mediaUrl(this.options.baseUrl, ad);
  }

  adById(adId: number): IndexedAd | undefined {
    return this.parts.index.snapshot().ads.get(adId);
  }

  /** How a display shares its traffic now (slot-selection.ts `displayPlan`). */
  displayPlan(publisherId: number, device: Device) {
    return displayPlan(selectionState(this.parts), publisherId, device);
  }

  /**
   * The network's CTR percentiles over the last 7 days (each ad's CTR sorted: compute them once to rank many
   * ads, then give them to ctrRankOf); null while no ad has the impressions to count.
   */
  ctrThresholds(): CtrThresholds | null {
    const minimum = this.parts.index.snapshot().settings.minImpressionsForCtrRank;
    return ctrThresholds([...this.parts.billing.pacing.ctrValues()], minimum);
  }

  /** An ad's CTR rank over the last 7 days against the network's percentiles (`ctrThresholds()` by default). */
  ctrRankOf(adId: number, thresholds: CtrThresholds | null = this.ctrThresholds()) {
    const minimum = this.parts.index.snapshot().settings.minImpressionsForCtrRank;
    return { rank: ctrRank(this.parts.billing.pacing.ctrOf(adId), thresholds, minimum), thresholds };
  }

  /** Impressions promised to served ads not yet viewed, across campaigns (the metrics read it at each scrape). */
  reservationsHeld(): number {
    let held = 0;
    for (const reserved of this.parts.billing.credits.reservations().values()) held += reserved;
    return held;
  }

  /** Read-only views for the admin activity call and the tests. */
  state() {
    return {
      index: this.parts.index.snapshot(),
      credits: this.parts.billing.credits as Pick<
        CreditBook,
        'remainingImpressions' | 'remainingClicks' | 'reservations'
      >,
      ...this.parts.billing.pacing.views(),
      tally: this.parts.setAsides.tally,
      random: this.parts.random,
    };
  }
}
