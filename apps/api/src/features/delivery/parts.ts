import type { Database } from '@helium/db';
import type { ClickKey, Random } from '@helium/domain';
import type { Clock } from '../../infra/clock.ts';
import type { Billing } from './billing.ts';
import type { DecisionBook } from './decisions.ts';
import type { DeliveryMetrics } from './delivery-metrics.ts';
import type { GeoLocator } from './geo.ts';
import type { Heartbeats } from './heartbeats.ts';
import type { IpRanges } from './ip-ranges.ts';
import type { LeadBook } from './leads.ts';
import type { NewsletterIssues } from './newsletter-issues.ts';
import type { GroupCommitRecorder } from './recorder.ts';
import type { ServingIndex } from './serving-index.ts';
import type { SetAsides } from './set-asides.ts';
import type { SelectionState } from './slot-selection.ts';
import type { TokenSigner } from './tokens.ts';
import type { AddressRule, AddressTrip, InvalidReason, OpenRequest, PageviewRequest } from './traffic-filter.ts';
import type { CountHold } from './credits.ts';
import type { CounterSnapshot } from './ad-index.ts';
import type { VisitorHasher } from './visitor.ts';

/** A value, or the promise of it: what a part answers at once in this process and from a shared store later. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The traffic filter's rules (traffic-filter.ts), on this process's counters or on counters several instances share
 * (shared/shared-traffic.ts).
 */
export interface TrafficJudge {
  /** Whether some address may be set aside today (in this process: only once a rule tripped). */
  readonly hasFlags: boolean;
  isBot(userAgent: string): boolean;
  pageview(input: PageviewRequest): Awaitable<InvalidReason | null>;
  click(input: { visitor: string; ipHash: string; userAgent: string; nowMs: number }): Awaitable<InvalidReason | null>;
  open(input: OpenRequest): Awaitable<InvalidReason | null>;
  flagOfAny(
    publisherId: number,
    ipHashes: ReadonlyArray<string | null | undefined>,
    day: string,
  ): Awaitable<AddressRule | null>;
  visitorsOfIp(publisherId: number, ipHash: string): number;
  onTrip: (trip: AddressTrip) => void;
}

/** Unique clicks' marks (unique-clicks.ts), in this process or shared (shared/shared-claims.ts). */
export interface ClickMarks {
  load(clicks: CounterSnapshot['recentUniqueClicks'], nowMs: number): void;
  claim(keys: { own: readonly ClickKey[]; checked: readonly ClickKey[] }, nowMs: number): Awaitable<CountHold | null>;
  sweep(nowMs: number): void;
}

/** Who sent a visitor's request: the address (through trusted proxies) and the user agent. */
export interface Requester {
  ip: string;
  userAgent: string;
}

/**
 * The delivery engine's parts, each the one owner of its state (docs/server-behaviour.md): the serving index,
 * billing (credits and their reservations, pacing: today's figures, budgets, CTR), decisions and their views, unique clicks,
 * leads, newsletter issues, heartbeats, the traffic filter and the set-asides it trips, and the recorder that makes
 * what they count durable.
 */
export interface DeliveryParts {
  db: Database;
  clock: Clock;
  /** The public address of the server, for absolute URLs in what the script receives. */
  baseUrl: string;
  random: Random;
  /** Where batches, events and reservations are reported (the app's metrics). */
  metrics: DeliveryMetrics;
  recorder: GroupCommitRecorder;
  index: ServingIndex;
  /** Credits, reservations and pacing: in this process, or shared by several instances (billing.ts). */
  billing: Billing;
  decisions: DecisionBook;
  uniqueClicks: ClickMarks;
  leads: LeadBook;
  issues: NewsletterIssues;
  heartbeats: Heartbeats;
  filter: TrafficJudge;
  setAsides: SetAsides;
  /** Addresses of hosting and cloud providers, whose traffic is invalid (DATACENTER_IP_RANGES_FILE). */
  dataCentres: IpRanges;
  geo: GeoLocator;
  hasher: VisitorHasher;
  signer: TokenSigner;
}

/** What selection reads now. */
export function selectionState(parts: DeliveryParts): SelectionState {
  return parts.billing.state(parts.index.snapshot(), parts.clock.now().getTime());
}
