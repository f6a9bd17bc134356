import { eq, sql, type SQL } from 'drizzle-orm';
import {
  adClicks,
  adDecisions,
  adImpressions,
  adLeads,
  invalidTraffic,
  owlIssueAds,
  type Database,
  type DatabaseHandle,
} from '@helium/db';
import {
  balancerShares,
  chooseAd,
  ctrRank,
  ctrThresholds,
  DAY_MS,
  decisionEvidenceFault,
  MINUTE_MS,
  viewEvidenceFault,
  type PageHeaders,
  type PageHosts,
  sharesInsideAdvertiser,
  clickCost,
  impressionCostAt,
  impressionsNeededToday,
  ineligibility,
  isOnRegisteredDomain,
  isShownAsVideo,
  isTooEarlyForAView,
  linkWithClickId,
  selectionMode,
  splitRevenue,
  placementsFor,
  countryOf,
  type Channel,
  type CtrThresholds,
  type Device,
  type IneligibleReason,
  type Random,
  type SelectableAd,
  type SlotFacts,
  type VisitorLocation,
  UNIQUE_CLICK_MS,
} from '@helium/domain';
import type { ServedAd } from '@helium/contracts/serving';
import type { Clock } from '../../infra/clock.ts';
import {
  displayKey,
  loadCounters,
  loadIndex,
  type AdIndexSnapshot,
  type IndexedAd,
  type IndexedCampaign,
} from './ad-index.ts';
import { NEWSLETTER_HEARTBEAT_HOST, NO_MONEY, type AdRef, type DeliveryEvent, type EventMoney } from './events.ts';
import { CtrWindow } from './ctr-window.ts';
import { GeoLocator, type IpLookup } from './geo.ts';
import { GroupCommitRecorder } from './recorder.ts';
import { writeBatch } from './store.ts';
import { deriveKey, newId, TokenSigner, type TokenPayload } from './tokens.ts';
import { IpRanges } from './ip-ranges.ts';
import {
  DEFAULT_TRAFFIC_LIMITS,
  TrafficFilter,
  type AddressRule,
  type AddressTrip,
  type InvalidReason,
  type TrafficLimits,
} from './traffic-filter.ts';
import { AddressTally, type AddressEvents } from './address-tally.ts';
import { deviceOf, utcDay, VisitorHasher } from './visitor.ts';
import { DAY_CLOSE_GRACE_MS } from '../revenue-ledger/daily-ledger.ts';

/** A served ad is reserved this long: its credit is not promised to another slot until viewed or released. */
export const RESERVATION_MS = 2 * 60_000;
/** How long a decision stays in memory after its view was written (DecisionState.keptUntil). */
export const KEPT_AFTER_VIEW_MS = 60_000;
/** A view token is good this long after the decision. */
export const VIEW_TOKEN_MS = 30 * 60_000;
/** A click token is good this long after the decision. */
export const CLICK_TOKEN_MS = DAY_MS;

/**
 * A unique (billed) click: once per UNIQUE_CLICK_MS per visitor per ad, and once per decision for its click token's
 * whole life (CLICK_TOKEN_MS): one page's ad link fetched again each hour, from new addresses, bills once. So a key
 * of lastUniqueClick holds a click for a visitor's window, or for a decision's token's life.
 */
const uniqueClickWindow = (key: string) => (key.startsWith('decision|') ? CLICK_TOKEN_MS : UNIQUE_CLICK_MS);
/** A lead counts within this time of its click. */
export const LEAD_WINDOW_MS = 30 * DAY_MS;
/**
 * Decisions are answered without waiting for their batch to commit while fewer events than this wait to be
 * written; beyond it a decision waits for its batch again, so that a load the database cannot keep up with
 * slows the answers down instead of growing the queue (and what a crash may lose) without bound.
 */
export const MAX_UNDURABLE_EVENTS = 2_000;

/** A decision the engine keeps in memory: where its ad was shown, when, and what it has used so far. */
interface DecisionState extends AdRef {
  id: string;
  at: number;
  reserved: boolean;
  viewed: boolean;
  /**
   * Views of it being written (counted, not yet durable). The sweep keeps such a decision in memory: read
   * back from the database before its impression is there, it would look unviewed, and a replayed beacon
   * would be billed a second time.
   */
  writing?: number;
  /**
   * Kept in memory until then (epoch ms) once its view is written: a beacon of the same token whose database
   * read began before that commit and ends after it finds this state, not the stale row it read.
   */
  keptUntil?: number;
  /**
   * How the script was told to show the ad, which sets the earliest view (MIN_VIEW_MS); unknown for a decision
   * read back from the database or a token, which then gets the shorter rule.
   */
  shownAs?: 'image' | 'video';
  /**
   * Rebuilt from a token's `served` part because its record is nowhere (lost in a crash before its batch
   * committed): the first event counted against it writes the decision record again.
   */
  unrecorded?: boolean;
  /**
   * The address of the pageview that made it, hashed with its day's salt (VisitorHasher.ip): its view and click
   * are that address's traffic, set aside with it when a rule trips. Null when unknown (a newsletter's decision,
   * one rebuilt from a token, one recorded before migration 0009): the view's or click's own address stands in.
   */
  ip?: string | null;
}

/**
 * Whether a decision's view was used, in the database: counted (`ad_impressions`), or refused because the
 * campaign had reached a limit (`invalid_traffic`, `noCredits`: the visitor's view came, too late to bill).
 * Either way a later beacon of its token is a replay, also once the decision has left memory (after 2
 * minutes, or a restart). A view set aside as a bot's or a data centre's came from someone else: the
 * visitor's own may still count.
 */
function viewUsed(decisionId: SQL) {
  return sql`(exists (select 1 from ${adImpressions} where ${adImpressions.decisionId} = ${decisionId}) or exists (select 1 from ${invalidTraffic} where ${invalidTraffic.decisionId} = ${decisionId} and ${invalidTraffic.decisionId} is not null and ${invalidTraffic.kind} = 'impression' and ${invalidTraffic.reason} = 'noCredits'))`;
}

/** Adds `amount` to the counter of `key` (a missing counter is 0); a counter back at 0 is removed. */
function addTo<Key>(counters: Map<Key, number>, key: Key, amount: number) {
  const total = (counters.get(key) ?? 0) + amount;
  if (total === 0) counters.delete(key);
  else counters.set(key, total);
}

/** A day's counts not yet durable: impressions per campaign and per display, [impressions, clicks] per ad. */
interface UnflushedDay {
  campaigns: Map<number, number>;
  displays: Map<string, number>;
  ads: Map<number, [number, number]>;
}

function addToPair(counters: Map<number, [number, number]>, key: number, first: number, second: number) {
  const [a, b] = counters.get(key) ?? [0, 0];
  if (a + first === 0 && b + second === 0) counters.delete(key);
  else counters.set(key, [a + first, b + second]);
}

/** Newsletter issues whose ad is kept in memory (the most recently chosen or read back). */
export const MAX_OWL_ISSUES_IN_MEMORY = 10_000;

/** Where the decision's ad was shown (publisher, ad, campaign, advertiser, channel, device, page). */
function adRef(decision: DecisionState): AdRef {
  return {
    publisherId: decision.publisherId,
    adId: decision.adId,
    campaignId: decision.campaignId,
    advertiserId: decision.advertiserId,
    channel: decision.channel,
    device: decision.device,
    url: decision.url,
    country: decision.country,
  };
}

/** The decision record the store writes for a decision (the page's pageview, slot and visitor added). */
function decisionRecord(
  decision: DecisionState,
  page: { pageviewId: string | null; slot: number; visitor: string },
): DeliveryEvent {
  return {
    t: 'decision',
    id: decision.id,
    ...page,
    ip: decision.ip ?? null,
    ...adRef(decision),
    at: new Date(decision.at),
  };
}

/**
 * A set-aside of what an address had counted on a publisher today (its rule tripped): written once, as a rare
 * statement of its own (set_aside_traffic, migration 0009) run between two batches.
 */
interface SetAside extends AddressEvents {
  reason: AddressRule;
  day: string;
  publisherId: number;
}

/** An impression or unique click set_aside_traffic reversed, as it answers it. */
interface ReversedEvent {
  kind: 'impression' | 'click';
  publisherId: number;
  adId: number;
  campaignId: number;
  channel: Channel;
  device: Device;
  day: string;
  cost: number;
  trialCost: number;
  credit: boolean;
}

/**
 * A day's set-aside starts no later than this before the daily revenue ledger may close the day (5 minutes after
 * its midnight, DAY_CLOSE_GRACE_MS), so that it has committed when the ledger reads the day's summaries.
 */
export const SET_ASIDE_MARGIN_MS = MINUTE_MS;

export interface Requester {
  ip: string;
  userAgent: string;
}

export type ViewOutcome = 'counted' | 'invalid' | 'ignored';
export type ClickOutcome = { location: string | null; counted: 'unique' | 'repeat' | 'invalid' | 'ignored' };

export interface EngineOptions {
  db: Database;
  /** The database's prepared-statement call, which writes each batch of events. */
  executePrepared: DatabaseHandle['executePrepared'];
  clock: Clock;
  secret: string;
  /** The public address of the server, for absolute URLs in what the script receives. */
  baseUrl: string;
  random?: Random;
  limits?: TrafficLimits;
  /** Addresses of hosting and cloud providers, whose traffic is invalid (DATACENTER_IP_RANGES_FILE); none by default. */
  dataCentres?: IpRanges;
  /** IP to location (tests); geoip-lite by default. */
  geoLookup?: IpLookup;
  /** Counted events kept per address for set-asides (AddressTally); MAX_TALLIED_EVENTS by default. */
  maxTalliedEvents?: number;
  onError?: (error: unknown) => void;
  /** Batches handed to the database before the first is durable (GroupCommitRecorder says when 2 helps). */
  batchesInFlight?: number;
}

/** Where the visitor is, for geotargeting: unknown (null: untargeted campaigns only), or `anywhere` (admin view). */
type SlotLocation = VisitorLocation | null | 'anywhere';

const OWL_FORMATS = [2];

/** Reasons an ad is not served that concern what can still be billed, which counting itself checks. */
const BILLING_LIMITS: ReadonlySet<IneligibleReason> = new Set(['noCredits', 'dailyCapReached', 'budgetSpent']);

/**
 * The ad-delivery engine: decides from an in-memory index, counts through the group-commit recorder and
 * keeps the counters that selection needs (credits, reservations, today's impressions, CTR).
 */
export class DeliveryEngine {
  readonly recorder: GroupCommitRecorder;
  readonly filter: TrafficFilter;
  private readonly dataCentres: IpRanges;
  readonly geo: GeoLocator;
  private readonly signer: TokenSigner;
  private readonly hasher: VisitorHasher;
  private readonly random: Random;
  private index: AdIndexSnapshot | null = null;
  private today = '';
  private campaignToday = new Map<number, number>();
  private displayToday = new Map<string, number>();
  private ctrWindow = new CtrWindow('');
  private adSpent = new Map<number, number>();
  private reserved = new Map<number, number>();
  private unflushedImpressionSpend = new Map<number, number>();
  private unflushedClickSpend = new Map<number, number>();
  /**
   * Today's counters (impressions per campaign and per display, the CTR window's impressions and clicks per ad),
   * by the day they were counted, and the money per ad, counted and not yet durable: a reload of the counters
   * from the database (a new day, a restart of the counters) adds them back, as it does the credits. By day,
   * so that a view counted just before midnight and written after it does not count against the new day's cap.
   */
  private unflushedByDay = new Map<string, UnflushedDay>();
  private unflushedAdSpend = new Map<number, number>();
  private decisions = new Map<string, DecisionState>();
  private lastUniqueClick = new Map<string, number>();
  private heartbeatsSeen = new Map<string, number>();
  private owlIssues = new Map<string, number>();
  private readonly maxOwlIssues = MAX_OWL_ISSUES_IN_MEMORY;
  private leadsSeen = new Set<string>();
  /** Leads counted and not yet durable: kept apart from `leadsSeen`, which the sweep may empty. */
  private leadsWriting = new Set<string>();
  /**
   * Leads whose click and earlier lead are being read. The sweep empties `leadsSeen` only when none is: a read
   * that began before another report of the same click was written would otherwise find neither its row nor its
   * id in memory, and count the lead twice.
   */
  private leadsBeingRead = 0;
  /** What each address counted today, to set aside when a rule trips for it. */
  readonly tally: AddressTally;
  /** Set-asides queued or being written. */
  private setAsides = new Set<Promise<void>>();
  /** Set-asides the database refused or that could not be written: tried again at each sweep while their day is open. */
  private failedSetAsides: SetAside[] = [];
  private refreshTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** The reload that changes made so far will share, until it starts; then the next change asks for another. */
  private nextReload: Promise<void> | null = null;
  /** The latest reload asked for by a change: the graceful stop waits for it. */
  private lastReload: Promise<void> = Promise.resolve();

  constructor(private readonly options: EngineOptions) {
    this.signer = new TokenSigner(deriveKey(options.secret, 'tokens'));
    this.hasher = new VisitorHasher(deriveKey(options.secret, 'visitors'));
    this.random = options.random ?? Math.random;
    this.filter = new TrafficFilter(options.limits ?? DEFAULT_TRAFFIC_LIMITS);
    this.tally = new AddressTally(
      (publisherId, ipHash) => this.filter.visitorsOfIp(publisherId, ipHash),
      options.maxTalliedEvents,
    );
    this.filter.onTrip = (trip) => this.setAsideAddress(trip);
    this.dataCentres = options.dataCentres ?? IpRanges.EMPTY;
    this.geo = new GeoLocator(options.geoLookup);
    this.recorder = new GroupCommitRecorder(
      (events) => writeBatch(options.executePrepared, events),
      options.onError,
      options.batchesInFlight,
    );
  }

  private now(): Date {
    return this.options.clock.now();
  }

  /** Loads the index and the counters; starts the periodic refresh and the reservation sweep. */
  async start(options: { timers?: boolean } = {}): Promise<void> {
    await this.reload(true);
    if (options.timers !== false) {
      this.refreshTimer = setInterval(() => void this.refresh().catch(this.options.onError), 60_000);
      this.sweepTimer = setInterval(() => this.sweep(), 10_000);
      this.refreshTimer.unref();
      this.sweepTimer.unref();
    }
  }

  /** Graceful stop: writes every queued event. */
  async close(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.lastReload;
    await this.recorder.close();
  }

  /**
   * Ads, campaigns, validations, publishers, placements, credits or settings changed: the index is reloaded
   * (between two batches) and the promise resolves once decisions see the change, so the call that made it
   * answers after. Changes made before that reload starts share it. A failed reload is reported (onError), not
   * thrown: the change itself is saved, and the minute's refresh loads it.
   */
  servingChanged(): Promise<void> {
    if (!this.nextReload) {
      const reload = Promise.resolve()
        .then(() => {
          this.nextReload = null;
          return this.refresh();
        })
        .catch(this.options.onError);
      this.nextReload = reload;
      this.lastReload = reload;
    }
    return this.nextReload;
  }

  /** Reloads the index now (tests and the change hook); with `counters`, today's counters too, as at start. */
  async refresh(options: { counters?: boolean } = {}): Promise<void> {
    await this.recorder.exclusive(() => this.reload(options.counters ?? false));
  }

  private async reload(withCounters: boolean): Promise<void> {
    const index = await loadIndex(this.options.db);
    for (const campaign of index.campaigns.values()) {
      campaign.remainingImpressions -= this.unflushedImpressionSpend.get(campaign.id) ?? 0;
      campaign.remainingClicks -= this.unflushedClickSpend.get(campaign.id) ?? 0;
    }
    this.index = index;
    // Every pageview is located (country figures, geotargeting): the database is read here, not in a request.
    this.geo.load();
    // The clock is read after the index's await: a request may have rolled to a new day meanwhile.
    const now = this.now();
    if (withCounters || utcDay(now) !== this.today) await this.loadCounters(now);
  }

  private async loadCounters(now: Date) {
    const day = utcDay(now);
    // Forward only, as rollDay: figures of a day before the engine's would count against today's caps.
    if (day < this.today) return;
    // A decision bills one unique click in its click token's life: its clicks are read back that far.
    const counters = await loadCounters(this.options.db, day, now, CLICK_TOKEN_MS);
    // A request rolled to a later day while the database answered: these are yesterday's figures, and today's
    // counters started from zero then (what was counted since is in them).
    if (day < this.today) return;
    this.today = day;
    this.campaignToday = counters.campaignToday;
    // What is counted and not yet durable is not in the database's figures (batches wait behind the reload).
    this.displayToday = counters.displayToday;
    this.ctrWindow = new CtrWindow(this.today);
    for (const row of counters.adDays) this.ctrWindow.add(row.day, row.adId, row.impressions, row.clicks);
    for (const [day, unflushed] of this.unflushedByDay) {
      for (const [adId, [impressions, clicks]] of unflushed.ads) this.ctrWindow.add(day, adId, impressions, clicks);
      if (day !== this.today) continue;
      for (const [campaignId, impressions] of unflushed.campaigns) addTo(this.campaignToday, campaignId, impressions);
      for (const [display, impressions] of unflushed.displays) addTo(this.displayToday, display, impressions);
    }
    this.adSpent = counters.adSpent;
    for (const [adId, spent] of this.unflushedAdSpend) addTo(this.adSpent, adId, spent);
    for (const click of counters.recentUniqueClicks) {
      for (const key of [`${click.adId}|${click.visitor}`, `decision|${click.decisionId}`]) {
        if (now.getTime() - click.at >= uniqueClickWindow(key)) continue;
        this.lastUniqueClick.set(key, Math.max(this.lastUniqueClick.get(key) ?? 0, click.at));
      }
    }
  }

  private addUnflushed(day: string, change: (unflushed: UnflushedDay) => void) {
    const unflushed = this.unflushedByDay.get(day) ?? { campaigns: new Map(), displays: new Map(), ads: new Map() };
    change(unflushed);
    if (unflushed.campaigns.size + unflushed.displays.size + unflushed.ads.size > 0)
      this.unflushedByDay.set(day, unflushed);
    else this.unflushedByDay.delete(day);
  }

  /** Day change: today's counters restart from zero. */
  private rollDay(now: Date) {
    const day = utcDay(now);
    // Forward only: a request that read the clock before an await may come back after another rolled the day.
    if (day <= this.today) return;
    this.today = day;
    this.campaignToday.clear();
    this.displayToday.clear();
    this.ctrWindow.roll(day);
  }

  /** Releases reservations of ads not viewed in time and forgets old decisions and clicks. */
  sweep(): void {
    const now = this.now().getTime();
    for (const [id, decision] of this.decisions) {
      if (now - decision.at < RESERVATION_MS || decision.writing || (decision.keptUntil ?? 0) > now) continue;
      if (decision.reserved) this.release(decision);
      this.decisions.delete(id);
    }
    for (const [key, at] of this.lastUniqueClick)
      if (now - at >= uniqueClickWindow(key)) this.lastUniqueClick.delete(key);
    for (const [key, at] of this.heartbeatsSeen) if (now - at >= 60_000) this.heartbeatsSeen.delete(key);
    if (this.leadsSeen.size > 100_000 && this.leadsBeingRead === 0) this.leadsSeen.clear();
    for (const work of this.failedSetAsides.splice(0)) this.queueSetAside(work);
  }

  /**
   * A rule set an address aside on a publisher for the rest of the day: what it counted there today (the tally) is
   * set aside too, retroactively. Queued behind every event recorded so far, so that each tallied event, counted
   * before the trip, is committed when the set-aside runs; the request that tripped the rule does not wait.
   */
  private setAsideAddress(trip: AddressTrip) {
    const events = this.tally.take(trip.day, trip.publisherId, trip.ipHash);
    if (!events) return;
    this.queueSetAside({ reason: trip.reason, day: trip.day, publisherId: trip.publisherId, ...events });
  }

  private queueSetAside(work: SetAside) {
    const done: Promise<void> = this.recorder
      .exclusive(() => this.writeSetAside(work))
      .catch((error: unknown) => {
        this.options.onError?.(error);
        this.failedSetAsides.push(work);
      })
      .finally(() => this.setAsides.delete(done));
    this.setAsides.add(done);
  }

  /** Whether the daily revenue ledger may be closing `day` now: a set-aside of it must not start then. */
  private isClosing(day: string, now: number): boolean {
    return now >= Date.parse(`${day}T00:00:00Z`) + DAY_MS + DAY_CLOSE_GRACE_MS - SET_ASIDE_MARGIN_MS;
  }

  /**
   * One set-aside, as one statement (set_aside_traffic): the events still billed are marked with the rule, leave
   * the day's summaries and give their credits back, each once; then the engine's counters in memory follow what
   * the database reversed (credits, today's impressions, the CTR window, each ad's spend). Runs between two batches
   * (GroupCommitRecorder.exclusive): no event it names is still on its way, and no reload of the counters overlaps.
   */
  private async writeSetAside(work: SetAside): Promise<void> {
    const at = this.now();
    if (this.isClosing(work.day, at.getTime())) {
      this.options.onError?.(
        new Error(
          `A set-aside of ${work.impressions.length} impressions and ${work.clicks.length} clicks of publisher ${work.publisherId} on ${work.day} came too late for the daily revenue ledger: not written`,
        ),
      );
      return;
    }
    const { rows } = (await this.options.db.execute(
      sql`select set_aside_traffic(${JSON.stringify(work.impressions)}::json, ${JSON.stringify(work.clicks)}::json, ${work.reason}, ${at.toISOString()}::timestamptz) as reversed`,
    )) as unknown as { rows: Array<{ reversed: unknown }> };
    const answer = rows[0]?.reversed;
    const reversed = (typeof answer === 'string' ? JSON.parse(answer) : (answer ?? [])) as ReversedEvent[];
    const index = this.snapshot();
    for (const event of reversed) {
      const campaign = index.campaigns.get(event.campaignId);
      const impressions = event.kind === 'impression' ? 1 : 0;
      const clicks = 1 - impressions;
      if (event.credit && campaign) {
        campaign.remainingImpressions += impressions;
        campaign.remainingClicks += clicks;
      }
      if (event.day === this.today && impressions) {
        addTo(this.campaignToday, event.campaignId, -1);
        addTo(this.displayToday, displayKey(event.publisherId, event.channel, event.device), -1);
      }
      this.ctrWindow.add(event.day, event.adId, -impressions, -clicks);
      addTo(this.adSpent, event.adId, -(Number(event.cost) + Number(event.trialCost)));
    }
  }

  /**
   * Resolves once every set-aside queued so far is done (written, or refused and kept to try again), and so every
   * event recorded before it: what the daily revenue ledger should wait for before it reads a closed day, since a
   * set-aside queued just before midnight may still be on its way. It does not wait for the recorder to be idle
   * (which a steady load may never be), only for what was queued before.
   */
  async settle(): Promise<void> {
    while (this.setAsides.size > 0) await Promise.all([...this.setAsides]);
  }

  /** The address a decision's view or click is counted from: the pageview's of the same day, else the request's. */
  private addressOf(decision: DecisionState, requester: Requester, at: Date): string {
    if (decision.ip && utcDay(new Date(decision.at)) === utcDay(at)) return decision.ip;
    return this.hasher.ip(requester.ip, at);
  }

  /**
   * The rule that set aside, today, the address of the decision's pageview or of this request, if one did. The
   * request's address is hashed only while some address is set aside (a view beacon otherwise hashes nothing).
   */
  private addressFlag(decision: DecisionState, requester: Requester, at: Date, ipHash?: string): AddressRule | null {
    if (!this.filter.hasFlags) return null;
    const day = utcDay(at);
    return (
      this.filter.flagOf(decision.publisherId, decision.ip, day) ??
      this.filter.flagOf(decision.publisherId, ipHash ?? this.hasher.ip(requester.ip, at), day)
    );
  }

  private release(decision: DecisionState) {
    decision.reserved = false;
    this.reserved.set(decision.campaignId, Math.max(0, (this.reserved.get(decision.campaignId) ?? 0) - 1));
  }

  private snapshot(): AdIndexSnapshot {
    if (!this.index) throw new Error('The delivery engine is not started');
    return this.index;
  }

  /**
   * A request from a hosting or cloud provider's address (decisions.md section 4), pageviews and newsletter opens
   * alike: mail services' image proxies fetch from the services' own addresses, not from rented cloud ranges.
   */
  private isDataCentre(requester: Requester): boolean {
    return this.dataCentres.has(requester.ip);
  }

  visitorOf(requester: Requester, at: Date): string {
    return this.hasher.visitor(requester.ip, requester.userAgent, at);
  }

  /**
   * Public URL of an ad's media, or of its placeholder creative (an image) while it has none, and what the
   * script shows it as: a video without its video file is shown as its placeholder picture (the script counts a
   * video's view only while it plays).
   */
  mediaUrl(ad: IndexedAd): { src: string; poster: string | null; kind: 'image' | 'video' } {
    const base = this.options.baseUrl;
    const key = ad.type === 'video' ? ad.mp4 : ad.image;
    return {
      src: key ? `${base}/media/${key}` : `${base}/serve/creative/${ad.id}.svg`,
      poster: ad.poster ? `${base}/media/${ad.poster}` : null,
      kind: isShownAsVideo(ad) ? 'video' : 'image',
    };
  }

  adById(adId: number): IndexedAd | undefined {
    return this.snapshot().ads.get(adId);
  }

  /** Why an ad cannot fill a slot of this publisher now, or null (decisions.md section 5). */
  private ineligibilityOf(
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
        spent: this.adSpent.get(ad.id) ?? 0,
      },
      {
        isCpc: campaign.isCpc,
        remainingImpressions: campaign.remainingImpressions,
        remainingClicks: campaign.remainingClicks,
        reservedImpressions: this.reserved.get(campaign.id) ?? 0,
        pauseDailyImpressions: campaign.pauseDailyImpressions,
        todayImpressions: this.campaignToday.get(campaign.id) ?? 0,
        geoTargets: campaign.geoTargets,
      },
      slot,
    );
  }

  /** Candidates for one slot, with what selection needs to know of each. */
  private candidates(
    publisherId: number,
    channel: Channel,
    device: Device,
    formatIds: readonly number[] | null,
    exclude: ReadonlySet<number>,
    location: SlotLocation,
  ) {
    const index = this.snapshot();
    const result: Array<{ ad: IndexedAd; selectable: SelectableAd }> = [];
    const slot = {
      channel,
      device,
      formatIds: formatIds && formatIds.length > 0 ? formatIds : null,
      location: location === 'anywhere' ? null : location,
      now: this.now().getTime(),
    };
    for (const ad of index.adsByPublisher.get(publisherId) ?? []) {
      if (exclude.has(ad.id)) continue;
      const campaign = index.campaigns.get(ad.campaignId);
      if (!campaign) continue;
      const reason = this.ineligibilityOf(ad, campaign, publisherId, slot);
      if (reason && !(reason === 'outsideGeotargeting' && location === 'anywhere')) continue;
      const week = this.ctrWindow.get(ad.id);
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
  private needs(ads: IndexedAd[]): Map<number, number> {
    const index = this.snapshot();
    const needs = new Map<number, number>();
    const seen = new Set<number>();
    for (const ad of ads) {
      if (seen.has(ad.campaignId)) continue;
      seen.add(ad.campaignId);
      const campaign = index.campaigns.get(ad.campaignId);
      if (!campaign) continue;
      const need = impressionsNeededToday({
        isCpc: campaign.isCpc,
        remainingImpressions: campaign.remainingImpressions,
        remainingClicks: campaign.remainingClicks,
        pauseDailyImpressions: campaign.pauseDailyImpressions,
        todayImpressions: this.campaignToday.get(campaign.id) ?? 0,
      });
      needs.set(ad.advertiserId, (needs.get(ad.advertiserId) ?? 0) + need);
    }
    return needs;
  }

  /** Chooses one ad for a slot and reserves its credit; null when nothing is eligible. */
  private choose(
    publisherId: number,
    channel: Channel,
    device: Device,
    formatIds: readonly number[] | null,
    exclude: ReadonlySet<number>,
    location: VisitorLocation | null,
  ): IndexedAd | null {
    const candidates = this.candidates(publisherId, channel, device, formatIds, exclude, location);
    if (candidates.length === 0) return null;
    const mode = selectionMode(
      this.displayToday.get(displayKey(publisherId, channel, device)) ?? 0,
      this.snapshot().settings.minImpressionsToAutoPilot,
    );
    const picked = chooseAd(
      candidates.map((candidate) => candidate.selectable),
      this.needs(candidates.map((candidate) => candidate.ad)),
      mode,
      this.random,
    );
    return picked === -1 ? null : (candidates[picked]?.ad ?? null);
  }

  private heartbeat(publisherId: number, host: string, at: Date, events: DeliveryEvent[]) {
    const publisher = this.snapshot().publishers.get(publisherId);
    if (!publisher || !host) return;
    const key = `${publisherId}|${host}`;
    if (this.heartbeatsSeen.has(key)) return;
    const clean = host.toLowerCase().replace(/^www\./, '');
    // A page on a host named like the newsletter's heartbeat does not pass for a banner shown in an issue.
    if (clean === NEWSLETTER_HEARTBEAT_HOST) return;
    this.heartbeatsSeen.set(key, at.getTime());
    const isRegisteredDomain = isOnRegisteredDomain(clean, publisher.domain);
    if (isRegisteredDomain) publisher.isInstalled = true;
    events.push({ t: 'heartbeat', publisherId, host: clean, installs: isRegisteredDomain, at });
  }

  /**
   * A newsletter's heartbeat: its banner image was requested, so an issue went out with the snippet and the
   * publisher is installed, whether or not an ad could be chosen. At most once a minute, as the script's.
   */
  private newsletterHeartbeat(publisherId: number, at: Date, events: DeliveryEvent[]) {
    const publisher = this.snapshot().publishers.get(publisherId);
    const key = `${publisherId}|${NEWSLETTER_HEARTBEAT_HOST}`;
    if (!publisher?.isOwl || this.heartbeatsSeen.has(key)) return;
    this.heartbeatsSeen.set(key, at.getTime());
    publisher.isInstalled = true;
    events.push({ t: 'heartbeat', publisherId, host: NEWSLETTER_HEARTBEAT_HOST, installs: true, at });
  }

  /** The script's heartbeat alone (also sent with every decision). */
  async recordHeartbeat(publisherId: number, host: string): Promise<void> {
    const events: DeliveryEvent[] = [];
    this.heartbeat(publisherId, host, this.now(), events);
    await this.recorder.record(events);
  }

  /**
   * A pageview of the publisher script: counts it (or sets it aside as invalid), chooses an ad for each of
   * the publisher's placements on this device and reserves their credits. Answers once all is durable.
   */
  async decide(input: {
    publisherId: number;
    url: string;
    host: string;
    /** The hosts of the request's Origin and Referer and of the page address: a browser's evidence of the page. */
    hosts: PageHosts;
    viewportWidth: number | null;
    requester: Requester;
  }): Promise<{ counted: boolean; ads: ServedAd[] }> {
    const index = this.snapshot();
    const publisher = index.publishers.get(input.publisherId);
    if (!publisher) return { counted: false, ads: [] };
    const at = this.now();
    this.rollDay(at);
    const device = deviceOf(input.requester.userAgent, input.viewportWidth);
    const visitor = this.visitorOf(input.requester, at);
    const ipHash = this.hasher.ip(input.requester.ip, at);
    const invalidReason = this.isDataCentre(input.requester)
      ? 'dataCentre'
      : this.filter.pageview({
          publisherId: publisher.id,
          visitor,
          ipHash,
          userAgent: input.requester.userAgent,
          day: this.today,
          nowMs: at.getTime(),
          evidenceFault: decisionEvidenceFault(input.hosts, publisher.domain),
        });
    const events: DeliveryEvent[] = [];
    this.heartbeat(publisher.id, input.host, at, events);
    const pageviewId = newId();
    const url = input.url.slice(0, 500);
    events.push({ t: 'pageview', id: pageviewId, publisherId: publisher.id, device, url, visitor, invalidReason, at });
    if (invalidReason) {
      const noAd = { id: null, publisherId: publisher.id, adId: null, device };
      events.push(this.invalidEvent('pageview', invalidReason, noAd, input.requester, at, visitor));
      await this.recordServed(events, () => {});
      return { counted: false, ads: [] };
    }
    const served: ServedAd[] = [];
    const newDecisions: DecisionState[] = [];
    if (publisher.isWeb) {
      // One ad per placement that applies to this device, each of its accepted formats, no ad twice a page.
      const chosen = new Set<number>();
      // Located once per pageview (kept per IP): for geotargeting and the country figures.
      const location = this.geo.locate(input.requester.ip);
      const country = countryOf(location);
      placementsFor(publisher.placements, device).forEach((placement, slot) => {
        const ad = this.choose(publisher.id, 'web', device, placement.formatIds, chosen, location);
        if (!ad) return;
        chosen.add(ad.id);
        const decision = this.reserve(ad, publisher.id, 'web', device, url, at, ipHash, country);
        newDecisions.push(decision);
        events.push(decisionRecord(decision, { pageviewId, slot, visitor }));
        const media = this.mediaUrl(ad);
        decision.shownAs = media.kind;
        served.push({
          selector: placement.selector,
          position: placement.position,
          kind: media.kind,
          src: media.src,
          poster: media.poster,
          width: ad.width ?? 300,
          height: ad.height ?? 250,
          click: `${this.options.baseUrl}/c/${this.signer.sign({ kind: 'c', decisionId: decision.id, expiresAt: Math.floor((at.getTime() + CLICK_TOKEN_MS) / 1000), served: { publisherId: publisher.id, adId: ad.id, device } })}`,
          view: this.signer.sign({
            kind: 'v',
            decisionId: decision.id,
            expiresAt: Math.floor((at.getTime() + VIEW_TOKEN_MS) / 1000),
            served: { publisherId: publisher.id, adId: ad.id, device },
          }),
        });
      });
    }
    await this.recordServed(events, () => {
      for (const decision of newDecisions) {
        if (decision.reserved) this.release(decision);
        this.decisions.delete(decision.id);
      }
    });
    return { counted: true, ads: served };
  }

  /**
   * Queues a pageview and its decisions. They are served, not billed: the answer does not wait for them to be
   * durable (the view beacon, which bills, does wait, and its batch is never written before theirs: the queue
   * is in order). A crash may lose the last ones; a view or click of a lost decision still counts, from what
   * its token carries (findDecision). Under a backlog the answer waits again (MAX_UNDURABLE_EVENTS), and a
   * stopping recorder refuses them as before. `onLost` undoes what the engine kept in memory.
   */
  private async recordServed(events: DeliveryEvent[], onLost: () => void): Promise<void> {
    const backlog = this.recorder.isClosed || this.recorder.pending + events.length > MAX_UNDURABLE_EVENTS;
    const durable = this.recorder.record(events, { deferred: !backlog });
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

  private reserve(
    ad: IndexedAd,
    publisherId: number,
    channel: Channel,
    device: Device,
    url: string,
    at: Date,
    ip: string | null = null,
    country?: string,
  ) {
    const campaign = this.snapshot().campaigns.get(ad.campaignId);
    const decision: DecisionState = {
      id: newId(),
      publisherId,
      adId: ad.id,
      campaignId: ad.campaignId,
      advertiserId: ad.advertiserId,
      channel,
      device,
      url,
      at: at.getTime(),
      reserved: Boolean(campaign && !campaign.isCpc),
      viewed: false,
      ip,
      country,
    };
    if (decision.reserved) this.reserved.set(ad.campaignId, (this.reserved.get(ad.campaignId) ?? 0) + 1);
    this.decisions.set(decision.id, decision);
    return decision;
  }

  /**
   * A decision named by a genuine token: from memory, else from the database (older ones, after a restart),
   * else rebuilt from the token (its record was lost in a crash before its batch committed). Kept in memory
   * once found, so that concurrent beacons of one token see one state (one impression per decision).
   */
  private async findDecision(payload: TokenPayload, tokenMs: number): Promise<DecisionState | null> {
    const known = this.decisions.get(payload.decisionId);
    if (known) return known;
    const found = await this.loadDecision(payload, tokenMs);
    // Another beacon of the same token may have found it meanwhile: theirs is the one to keep.
    const raced = this.decisions.get(payload.decisionId);
    if (raced) return raced;
    if (found) this.decisions.set(found.id, found);
    return found;
  }

  private async loadDecision(payload: TokenPayload, tokenMs: number): Promise<DecisionState | null> {
    const decisionId = payload.decisionId;
    const [row] = await this.options.db
      .select({
        id: adDecisions.id,
        publisherId: adDecisions.publisherId,
        adId: adDecisions.adId,
        campaignId: adDecisions.campaignId,
        channel: adDecisions.channel,
        device: adDecisions.device,
        url: adDecisions.url,
        ip: adDecisions.ip,
        country: adDecisions.country,
        at: adDecisions.createdAt,
        viewed: sql<boolean>`${viewUsed(sql`${adDecisions.id}`)}`,
      })
      .from(adDecisions)
      .where(eq(adDecisions.id, decisionId))
      .limit(1);
    if (!row) {
      // Its record is nowhere: a decision answered, then lost by a crash before its batch committed. The
      // signed token says what was served (not the page's URL, so the per-URL summary misses it).
      const served = payload.served;
      const ad = served ? this.snapshot().ads.get(served.adId) : undefined;
      if (!served || !ad) return null;
      // Both drivers (node-postgres and PGlite) answer `{ rows }`.
      const { rows } = (await this.options.db.execute(
        sql`select ${viewUsed(sql`${decisionId}`)} as viewed`,
      )) as unknown as { rows: Array<{ viewed: boolean }> };
      return {
        id: decisionId,
        publisherId: served.publisherId,
        adId: ad.id,
        campaignId: ad.campaignId,
        advertiserId: ad.advertiserId,
        channel: 'web',
        device: served.device,
        url: '',
        at: payload.expiresAt * 1000 - tokenMs,
        reserved: false,
        viewed: Boolean(rows[0]?.viewed),
        unrecorded: true,
      };
    }
    const index = this.snapshot();
    return {
      id: row.id,
      publisherId: row.publisherId,
      adId: row.adId,
      campaignId: row.campaignId,
      // An ad ejected or switched off since leaves the index; its campaign names the same advertiser.
      advertiserId: index.ads.get(row.adId)?.advertiserId ?? index.campaigns.get(row.campaignId)?.advertiserId ?? 0,
      channel: row.channel,
      device: row.device,
      url: row.url,
      at: row.at.getTime(),
      reserved: false,
      viewed: Boolean(row.viewed),
      ip: row.ip,
      country: row.country ?? undefined,
    };
  }

  /** The decision record to write again before the first event counted against a lost decision (findDecision). */
  private rerecord(decision: DecisionState): DeliveryEvent[] {
    if (!decision.unrecorded) return [];
    decision.unrecorded = false;
    return [decisionRecord(decision, { pageviewId: null, slot: 0, visitor: '' })];
  }

  private money(cost: number, publisherId: number, advertiserId: number, isTrial: boolean): EventMoney {
    const index = this.snapshot();
    const publisher = index.publishers.get(publisherId);
    const reps = new Set(
      [publisher?.salesRepUserId ?? null, index.advertiserSalesRep.get(advertiserId) ?? null].filter(
        (id): id is number => id !== null,
      ),
    );
    const split = splitRevenue({
      cost,
      publisherShareBp: publisher?.revenueShareBp ?? index.settings.publisherRevenueShareBp,
      salesRepShareBp: index.settings.salesRepRevenueShareBp,
      salesReps: reps.size,
      isTrial,
    });
    return {
      cost: split.advertiserCost,
      publisherRevenue: split.publisher,
      salesRepRevenue: split.salesRep,
      companyRevenue: split.company,
      trialCost: split.trialCost,
    };
  }

  /**
   * Counts a validated impression for a view token: once per decision, only for a genuine, unexpired token
   * of a real decision, never beyond the campaign's remaining impressions. Anything else counts nothing.
   */
  async view(token: unknown, requester: Requester, headers: PageHeaders): Promise<ViewOutcome> {
    const payload = this.signer.verify(token, 'v');
    if (!payload || payload.expiresAt * 1000 < this.now().getTime()) return 'ignored';
    const decision = await this.findDecision(payload, VIEW_TOKEN_MS);
    if (!decision || decision.viewed) return 'ignored';
    // Read after the lookup: another request may have moved the day on meanwhile (the counters are today's).
    const at = this.now();
    this.rollDay(at);
    const domain = this.snapshot().publishers.get(decision.publisherId)?.domain;
    const invalid = this.filter.isBot(requester.userAgent)
      ? 'bot'
      : this.isDataCentre(requester)
        ? 'dataCentre'
        : (this.addressFlag(decision, requester, at) ??
          viewEvidenceFault(headers, domain) ??
          (isTooEarlyForAView(at.getTime() - decision.at, decision.shownAs ?? 'image') ? 'tooEarly' : null));
    if (invalid) {
      // From someone else than the visitor (a scanner, a bot given the token, a program replaying it at once, a
      // program without a browser's evidence, an address set aside): the visitor's own may still come.
      await this.recorder.record([this.invalidEvent('impression', invalid, decision, requester, at)]);
      return 'invalid';
    }
    return this.countImpression(decision, requester);
  }

  /**
   * Traffic set aside against a decision, against an ad with no decision (`id` null: a newsletter open), or
   * against a page with neither (a pageview).
   */
  private invalidEvent(
    kind: 'pageview' | 'impression' | 'click',
    reason: InvalidReason | 'noCredits',
    decision: Pick<DecisionState, 'publisherId' | 'device'> & { id: string | null; adId: number | null },
    requester: Requester,
    at: Date,
    visitor = this.visitorOf(requester, at),
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

  /**
   * Whether a campaign may not be billed for one more impression (CPM) or click (CPC) of this ad: no credits
   * left, its AutoFlow daily cap reached (CPM) or the ad's budget spent. Selection already stops serving before
   * (reservations included), but a view or click may come after the limit was reached by others.
   */
  private cannotSpend(campaign: IndexedCampaign, adId: number): boolean {
    if (campaign.isCpc ? campaign.remainingClicks <= 0 : campaign.remainingImpressions <= 0) return true;
    if (
      !campaign.isCpc &&
      campaign.pauseDailyImpressions > 0 &&
      (this.campaignToday.get(campaign.id) ?? 0) >= campaign.pauseDailyImpressions
    ) {
      return true;
    }
    const budget = this.snapshot().ads.get(adId)?.budget ?? 0;
    return budget > 0 && (this.adSpent.get(adId) ?? 0) >= budget;
  }

  /** Counts the decision's impression now, unless the campaign has reached a limit; durable once resolved. */
  private async countImpression(decision: DecisionState, requester: Requester): Promise<ViewOutcome> {
    const campaign = this.snapshot().campaigns.get(decision.campaignId);
    if (!campaign) return 'ignored';
    decision.viewed = true;
    decision.writing = (decision.writing ?? 0) + 1;
    try {
      return await this.writeImpression(decision, campaign, requester);
    } finally {
      decision.writing = (decision.writing ?? 1) - 1;
      decision.keptUntil = this.now().getTime() + KEPT_AFTER_VIEW_MS;
    }
  }

  private async writeImpression(
    decision: DecisionState,
    campaign: IndexedCampaign,
    requester: Requester,
  ): Promise<ViewOutcome> {
    // The counters below are today's: the day is the one of this instant, whatever the caller awaited before.
    const at = this.now();
    this.rollDay(at);
    const wasReserved = decision.reserved;
    if (decision.reserved) this.release(decision);
    const spendsCredit = !campaign.isCpc;
    if (spendsCredit && this.cannotSpend(campaign, decision.adId)) {
      await this.recorder.record([this.invalidEvent('impression', 'noCredits', decision, requester, at)]);
      return 'invalid';
    }
    const money = spendsCredit
      ? this.money(
          impressionCostAt(campaign.cpm, campaign.remainingImpressions),
          decision.publisherId,
          decision.advertiserId,
          campaign.isTrial,
        )
      : NO_MONEY;
    const display = displayKey(decision.publisherId, decision.channel, decision.device);
    const day = utcDay(at);
    const spent = money.cost + money.trialCost;
    const apply = (sign: 1 | -1) => {
      // Undone on the index of now: a reload while the batch was written replaced the campaign's object.
      const current = sign === 1 ? campaign : (this.snapshot().campaigns.get(campaign.id) ?? campaign);
      if (spendsCredit) current.remainingImpressions -= sign;
      // Undone after midnight, today's counters are the new day's: yesterday's figure is no longer kept.
      if (day === this.today) {
        addTo(this.campaignToday, campaign.id, sign);
        addTo(this.displayToday, display, sign);
      }
      this.ctrWindow.add(day, decision.adId, sign, 0);
      addTo(this.adSpent, decision.adId, sign * spent);
    };
    const unflushed = (sign: 1 | -1) => {
      if (spendsCredit) addTo(this.unflushedImpressionSpend, campaign.id, sign);
      this.addUnflushed(day, (unflushed) => {
        addTo(unflushed.campaigns, campaign.id, sign);
        addTo(unflushed.displays, display, sign);
        addToPair(unflushed.ads, decision.adId, sign, 0);
      });
      addTo(this.unflushedAdSpend, decision.adId, sign * spent);
    };
    apply(1);
    unflushed(1);
    // What the address of its pageview counted today, in case a rule sets that address aside later today. Tallied
    // as it is queued below: a set-aside queued from now on runs once it is written.
    if (decision.channel === 'web') {
      this.tally.add(day, decision.publisherId, this.addressOf(decision, requester, at), 'impression', decision.id);
    }
    const rerecord = this.rerecord(decision);
    try {
      await this.recorder.record([
        ...rerecord,
        {
          t: 'impression',
          decisionId: decision.id,
          ...adRef(decision),
          spendsCredit,
          money,
          at,
        },
      ]);
    } catch (error) {
      apply(-1);
      decision.viewed = false;
      if (rerecord.length) decision.unrecorded = true;
      if (wasReserved) {
        decision.reserved = true;
        this.reserved.set(decision.campaignId, (this.reserved.get(decision.campaignId) ?? 0) + 1);
      }
      throw error;
    } finally {
      unflushed(-1);
    }
    return 'counted';
  }

  /**
   * A click through /c/<token>: answers where to send the visitor (the ad's registered link plus a click id)
   * and counts a billed click at most once per hour per visitor per ad.
   */
  async click(token: string, requester: Requester): Promise<ClickOutcome> {
    const payload = this.signer.verify(token, 'c');
    if (!payload) return { location: null, counted: 'ignored' };
    const decision = await this.findDecision(payload, CLICK_TOKEN_MS);
    if (!decision) return { location: null, counted: 'ignored' };
    const ad = this.snapshot().ads.get(decision.adId);
    const at = this.now();
    if (!ad?.link) return { location: null, counted: 'ignored' };
    if (payload.expiresAt * 1000 < at.getTime())
      return { location: linkWithClickId(ad.link, 'expired'), counted: 'ignored' };
    return this.countClick(decision, ad, requester, at);
  }

  private async countClick(
    decision: DecisionState,
    ad: IndexedAd,
    requester: Requester,
    at: Date,
  ): Promise<ClickOutcome> {
    this.rollDay(at);
    const clickId = newId();
    const location = linkWithClickId(ad.link ?? '', clickId);
    if (!location) return { location: null, counted: 'ignored' };
    const visitor = this.visitorOf(requester, at);
    // A newsletter's click has no page: the rules of an address's web traffic are not its.
    const web = decision.channel === 'web';
    const ipHash = this.hasher.ip(requester.ip, at);
    const invalid = this.isDataCentre(requester)
      ? 'dataCentre'
      : (this.filter.click({ visitor, ipHash, userAgent: requester.userAgent, nowMs: at.getTime() }) ??
        (web ? this.addressFlag(decision, requester, at, ipHash) : null));
    if (invalid) {
      await this.recorder.record([this.invalidEvent('click', invalid, decision, requester, at)]);
      return { location, counted: 'invalid' };
    }
    const campaign = this.snapshot().campaigns.get(decision.campaignId);
    // Unique per visitor and ad (an hour), and per decision (its token's life): one page's click link shared by
    // many (other user agents, other addresses) or fetched again later bills once. Not per decision for a
    // newsletter: its banner's one link is every reader's, who each bill once an hour.
    const ownKeys = [`${decision.adId}|${visitor}`, ...(decision.channel === 'owl' ? [] : [`decision|${decision.id}`])];
    const keys = [...ownKeys];
    const hourAgo = new Date(at.getTime() - UNIQUE_CLICK_MS);
    // Just after midnight the visitor's hash has a new day's salt: the same person, under yesterday's, too.
    if (utcDay(hourAgo) !== utcDay(at)) keys.push(`${decision.adId}|${this.visitorOf(requester, hourAgo)}`);
    const previous = keys.map((key) => this.lastUniqueClick.get(key));
    let isUnique = keys.every((key, index) => at.getTime() - (previous[index] ?? -Infinity) >= uniqueClickWindow(key));
    const events: DeliveryEvent[] = this.rerecord(decision);
    const rerecorded = events.length > 0;
    let spendsCredit = false;
    if (isUnique && campaign?.isCpc) {
      if (!this.cannotSpend(campaign, decision.adId)) {
        spendsCredit = true;
      } else {
        isUnique = false;
        events.push(this.invalidEvent('click', 'noCredits', decision, requester, at));
      }
    }
    const money =
      spendsCredit && campaign
        ? this.money(clickCost(campaign.cpc), decision.publisherId, decision.advertiserId, campaign.isTrial)
        : NO_MONEY;
    // Yesterday's hash (in keys, not ownKeys) is only read: today's names the visitor from now on.
    if (isUnique) for (const key of ownKeys) this.lastUniqueClick.set(key, at.getTime());
    if (isUnique) {
      this.ctrWindow.add(utcDay(at), decision.adId, 0, 1);
      this.addUnflushed(utcDay(at), (unflushed) => addToPair(unflushed.ads, decision.adId, 0, 1));
      // Tallied as it is queued below, as an impression (writeImpression).
      if (web)
        this.tally.add(utcDay(at), decision.publisherId, this.addressOf(decision, requester, at), 'click', clickId);
    }
    const spent = money.cost + money.trialCost;
    if (spendsCredit && campaign) {
      campaign.remainingClicks -= 1;
      addTo(this.unflushedClickSpend, campaign.id, 1);
      addTo(this.adSpent, decision.adId, spent);
      addTo(this.unflushedAdSpend, decision.adId, spent);
    }
    events.push({
      t: 'click',
      id: clickId,
      decisionId: decision.id,
      visitor,
      isUnique,
      spendsCredit,
      money,
      ...adRef(decision),
      at,
    });
    try {
      await this.recorder.record(events);
    } catch (error) {
      if (isUnique) {
        ownKeys.forEach((key, index) => {
          const before = previous[index];
          if (before === undefined) this.lastUniqueClick.delete(key);
          else this.lastUniqueClick.set(key, before);
        });
        this.ctrWindow.add(utcDay(at), decision.adId, 0, -1);
      }
      if (spendsCredit && campaign) {
        // On the index of now: a reload while the batch was written replaced the campaign's object.
        (this.snapshot().campaigns.get(campaign.id) ?? campaign).remainingClicks += 1;
        addTo(this.adSpent, decision.adId, -spent);
      }
      if (rerecorded) decision.unrecorded = true;
      throw error;
    } finally {
      if (isUnique) this.addUnflushed(utcDay(at), (unflushed) => addToPair(unflushed.ads, decision.adId, 0, -1));
      if (spendsCredit && campaign) {
        addTo(this.unflushedClickSpend, campaign.id, -1);
        addTo(this.unflushedAdSpend, decision.adId, -spent);
      }
    }
    return { location, counted: isUnique ? 'unique' : 'repeat' };
  }

  /** Whether a lead of this click id is counted already, in memory: seen, or being written. */
  private leadTaken(clickId: string): boolean {
    return this.leadsSeen.has(clickId) || this.leadsWriting.has(clickId);
  }

  /**
   * A lead for a click id (pixel or postback): once per billed click, within 30 days of it. A repeat click
   * (the same visitor on the same ad within the hour) stands for the unique click before it, so that leads
   * never outnumber the clicks they are divided by (LR = leads / clicks).
   */
  async lead(clickIdGiven: unknown, source: 'pixel' | 'postback'): Promise<boolean> {
    if (typeof clickIdGiven !== 'string' || !/^[A-Za-z0-9_-]{8,40}$/.test(clickIdGiven)) return false;
    if (this.leadTaken(clickIdGiven)) return false;
    const at = this.now();
    this.leadsBeingRead += 1;
    let click: typeof adClicks.$inferSelect | undefined;
    try {
      const [given] = await this.options.db.select().from(adClicks).where(eq(adClicks.id, clickIdGiven)).limit(1);
      click = given && !given.isUnique ? await this.uniqueClickBefore(given) : given;
      if (!click || at.getTime() - click.createdAt.getTime() > LEAD_WINDOW_MS) return false;
      // A click set aside with its address (its rule tripped later that day) is no billed click to convert.
      if (click.invalidReason) return false;
      if (this.leadTaken(click.id)) return false;
      const [existing] = await this.options.db
        .select({ id: adLeads.clickId })
        .from(adLeads)
        .where(eq(adLeads.clickId, click.id))
        .limit(1);
      if (existing || this.leadTaken(click.id)) return false;
    } finally {
      this.leadsBeingRead -= 1;
    }
    const clickId = click.id;
    this.leadsWriting.add(clickId);
    const index = this.snapshot();
    const advertiserId =
      index.ads.get(click.adId)?.advertiserId ?? index.campaigns.get(click.campaignId)?.advertiserId ?? 0;
    try {
      const [decision] = await this.options.db
        .select({ channel: adDecisions.channel, url: adDecisions.url })
        .from(adDecisions)
        .where(eq(adDecisions.id, click.decisionId))
        .limit(1);
      await this.recorder.record([
        {
          t: 'lead',
          clickId,
          source,
          publisherId: click.publisherId,
          adId: click.adId,
          campaignId: click.campaignId,
          advertiserId,
          channel: decision?.channel ?? 'owl',
          device: click.device,
          url: decision?.url ?? '',
          at,
        },
      ]);
      this.leadsSeen.add(clickId);
    } finally {
      this.leadsWriting.delete(clickId);
    }
    return true;
  }

  /**
   * The unique click a repeat click repeats: the latest unique click on the ad of the same visitor within the
   * hour, or through the same decision within its token's life (the rules of countClick).
   */
  private async uniqueClickBefore(repeat: typeof adClicks.$inferSelect) {
    const [unique] = await this.options.db
      .select()
      .from(adClicks)
      .where(
        sql`${adClicks.adId} = ${repeat.adId} and ${adClicks.isUnique} and ${adClicks.createdAt} <= ${repeat.createdAt}
          and ((${adClicks.visitor} = ${repeat.visitor}
                and ${adClicks.createdAt} > ${new Date(repeat.createdAt.getTime() - UNIQUE_CLICK_MS)})
            or (${adClicks.decisionId} = ${repeat.decisionId} and ${adClicks.decisionId} not like 'owl:%'
                and ${adClicks.createdAt} > ${new Date(repeat.createdAt.getTime() - CLICK_TOKEN_MS)}))`,
      )
      .orderBy(sql`${adClicks.createdAt} desc`)
      .limit(1);
    return unique;
  }

  /** The ad of a newsletter issue's banner: chosen at the first open, kept for every later open and click. */
  private async owlAd(publisherId: number, bannerIndex: number, issue: string, events: DeliveryEvent[]) {
    const key = `${publisherId}|${bannerIndex}|${issue}`;
    let adId = this.owlIssues.get(key);
    if (adId === undefined) {
      const [row] = await this.options.db
        .select({ adId: owlIssueAds.adId })
        .from(owlIssueAds)
        .where(
          sql`${owlIssueAds.publisherId} = ${publisherId} and ${owlIssueAds.bannerIndex} = ${bannerIndex} and ${owlIssueAds.issue} = ${issue}`,
        )
        .limit(1);
      // Opens that came at once (a mail service fetching for many readers) all waited for that select: the
      // first back chose the issue's ad (synchronously, below), and the others take it.
      adId = this.owlIssues.get(key) ?? row?.adId;
      if (adId === undefined) {
        // One ad for every reader of the issue: their location is unknown, so untargeted campaigns only.
        const ad = this.choose(publisherId, 'owl', 'desktop', OWL_FORMATS, new Set(), null);
        if (!ad) return null;
        adId = ad.id;
        events.push({
          t: 'owlIssue',
          publisherId,
          bannerIndex,
          issue,
          adId,
          campaignId: ad.campaignId,
          advertiserId: ad.advertiserId,
          at: this.now(),
        });
      }
      // Bounded (issue names come from the link, which anyone may vary): the oldest go first; the database
      // keeps every issue's ad, read back on its next open.
      for (const oldest of this.owlIssues.keys()) {
        if (this.owlIssues.size < this.maxOwlIssues) break;
        this.owlIssues.delete(oldest);
      }
      this.owlIssues.set(key, adId);
    }
    return this.snapshot().ads.get(adId) ?? null;
  }

  /**
   * A newsletter open: records the newsletter's heartbeat, counts an impression of the issue's banner ad and
   * answers its media URL, with what was counted (`ignored` when the publisher has no newsletter or no ad can
   * be shown).
   */
  async owlOpen(
    publisherId: number,
    bannerIndex: number,
    issue: string,
    requester: Requester,
  ): Promise<{ location: string | null; counted: ViewOutcome }> {
    const publisher = this.snapshot().publishers.get(publisherId);
    if (!publisher?.isOwl) return { location: null, counted: 'ignored' };
    const at = this.now();
    const events: DeliveryEvent[] = [];
    // The banner was requested: the newsletter is installed, also while no ad can be shown in it.
    this.newsletterHeartbeat(publisherId, at, events);
    const ad = await this.owlAd(publisherId, bannerIndex, issue, events);
    if (!ad) {
      await this.recorder.record(events);
      return { location: null, counted: 'ignored' };
    }
    const location = this.mediaUrl(ad).src;
    if (!this.billableInIssue(ad, publisherId, at)) {
      await this.recorder.record(events);
      return { location, counted: 'ignored' };
    }
    this.rollDay(at);
    const visitor = this.visitorOf(requester, at);
    // Judged before anything is served: an invalid open is no decision (as an invalid pageview serves none).
    // A mail service's image proxy runs from its own addresses, not from rented cloud ranges.
    const invalid = this.isDataCentre(requester)
      ? 'dataCentre'
      : this.filter.open({
          publisherId,
          visitor,
          ipHash: this.hasher.ip(requester.ip, at),
          // The address only to look it up in the mail proxies' ranges (it is not kept), and the issue for their caps.
          ip: requester.ip,
          issue,
          userAgent: requester.userAgent,
          day: this.today,
          nowMs: at.getTime(),
        });
    if (invalid) {
      const noDecision = { id: null, publisherId, adId: ad.id, device: 'desktop' as const };
      events.push(this.invalidEvent('impression', invalid, noDecision, requester, at));
      await this.recorder.record(events);
      return { location, counted: 'invalid' };
    }
    const country = countryOf(this.geo.locate(requester.ip));
    const decision = this.reserve(ad, publisherId, 'owl', 'desktop', '', at, null, country);
    events.push(decisionRecord(decision, { pageviewId: null, slot: bannerIndex, visitor }));
    await this.recorder.record(events);
    return { location, counted: await this.countImpression(decision, requester) };
  }

  /**
   * An issue keeps its ad, but an ad since ejected, switched off or no longer validated bills nothing more: the
   * reader still sees the banner the newsletter was sent with, and its link still leads to the ad's page.
   * Credits, the daily cap and the budget are checked where the open or the click is counted.
   */
  private billableInIssue(ad: IndexedAd, publisherId: number, at: Date): boolean {
    const campaign = this.snapshot().campaigns.get(ad.campaignId);
    const reason = campaign
      ? this.ineligibilityOf(ad, campaign, publisherId, {
          channel: 'owl',
          device: 'desktop',
          formatIds: OWL_FORMATS,
          location: null,
          now: at.getTime(),
        })
      : 'noCredits';
    return !reason || BILLING_LIMITS.has(reason);
  }

  /** A click on a newsletter banner: the issue's ad, counted like a web click. */
  async owlClick(publisherId: number, bannerIndex: number, issue: string, requester: Requester): Promise<ClickOutcome> {
    // Only a newsletter publisher's links choose and keep an issue's ad (as owlOpen).
    if (!this.snapshot().publishers.get(publisherId)?.isOwl) return { location: null, counted: 'ignored' };
    const at = this.now();
    const events: DeliveryEvent[] = [];
    const ad = await this.owlAd(publisherId, bannerIndex, issue, events);
    await this.recorder.record(events);
    if (!ad) return { location: null, counted: 'ignored' };
    if (!this.billableInIssue(ad, publisherId, at)) {
      // As a web click link past its time: to the ad's page, with a click id no lead can report.
      return { location: ad.link ? linkWithClickId(ad.link, 'expired') : null, counted: 'ignored' };
    }
    const decision: DecisionState = {
      id: `owl:${publisherId}:${bannerIndex}:${issue}`.slice(0, 120),
      publisherId,
      adId: ad.id,
      campaignId: ad.campaignId,
      advertiserId: ad.advertiserId,
      channel: 'owl',
      device: 'desktop',
      url: '',
      country: countryOf(this.geo.locate(requester.ip)),
      at: at.getTime(),
      reserved: false,
      viewed: true,
    };
    return this.countClick(decision, ad, requester, at);
  }

  /**
   * How a display (publisher and device) shares its traffic now: its mode, each advertiser's Balancer share
   * and each eligible ad's share of its advertiser (under AutoPilot, its probability of winning the Thompson
   * draw, computed rather than sampled: the admin view is exact and stable between refreshes).
   */
  displayPlan(publisherId: number, device: Device) {
    const index = this.snapshot();
    const candidates = this.candidates(publisherId, 'web', device, null, new Set(), 'anywhere');
    const today = this.displayToday.get(displayKey(publisherId, 'web', device)) ?? 0;
    const mode = selectionMode(today, index.settings.minImpressionsToAutoPilot);
    const shares = balancerShares(this.needs(candidates.map((candidate) => candidate.ad)));
    const advertisers = [...shares.keys()].map((advertiserId) => {
      const group = candidates.filter((candidate) => candidate.ad.advertiserId === advertiserId);
      const inside = sharesInsideAdvertiser(
        group.map((candidate) => candidate.selectable),
        mode,
      );
      return {
        advertiserId,
        brand: index.advertiserBrand.get(advertiserId) ?? '',
        share: shares.get(advertiserId) ?? 0,
        ads: group.map((candidate, position) => ({ ad: candidate.ad, share: inside[position] ?? 0 })),
      };
    });
    return { mode, today, minImpressionsToAutoPilot: index.settings.minImpressionsToAutoPilot, advertisers };
  }

  /**
   * The network's CTR percentiles over the last 7 days (each ad's CTR sorted: compute them once to rank many
   * ads, then give them to ctrRankOf); null while no ad has the impressions to count.
   */
  ctrThresholds(): CtrThresholds | null {
    return ctrThresholds([...this.ctrWindow.values()], this.snapshot().settings.minImpressionsForCtrRank);
  }

  /** An ad's CTR rank over the last 7 days against the network's percentiles (`ctrThresholds()` by default). */
  ctrRankOf(adId: number, thresholds: CtrThresholds | null = this.ctrThresholds()) {
    const minimum = this.snapshot().settings.minImpressionsForCtrRank;
    return { rank: ctrRank(this.ctrWindow.get(adId), thresholds, minimum), thresholds };
  }

  /** Read-only views for the admin activity call and the tests. */
  state() {
    const index = this.snapshot();
    return {
      index,
      reserved: this.reserved,
      campaignToday: this.campaignToday,
      displayToday: this.displayToday,
      ctrWindow: this.ctrWindow as Pick<CtrWindow, 'get' | 'values'>,
      random: this.random,
    };
  }
}
