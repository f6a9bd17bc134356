import type { Database } from '@helium/db';
import type { Random } from '@helium/domain';
import type { Clock } from '../../infra/clock.ts';
import type { CreditBook } from './credits.ts';
import type { DecisionBook } from './decisions.ts';
import type { GeoLocator } from './geo.ts';
import type { Heartbeats } from './heartbeats.ts';
import type { IpRanges } from './ip-ranges.ts';
import type { LeadBook } from './leads.ts';
import type { NewsletterIssues } from './newsletter-issues.ts';
import type { Pacing } from './pacing.ts';
import type { GroupCommitRecorder } from './recorder.ts';
import type { ServingIndex } from './serving-index.ts';
import type { SetAsides } from './set-asides.ts';
import type { SelectionState } from './slot-selection.ts';
import type { TokenSigner } from './tokens.ts';
import type { TrafficFilter } from './traffic-filter.ts';
import type { UniqueClicks } from './unique-clicks.ts';
import type { VisitorHasher } from './visitor.ts';

/** Who sent a visitor's request: the address (through trusted proxies) and the user agent. */
export interface Requester {
  ip: string;
  userAgent: string;
}

/**
 * The delivery engine's parts, each the one owner of its state (docs/server-behaviour.md): the serving index,
 * credits and their reservations, pacing (today's figures, budgets, CTR), decisions and their views, unique clicks,
 * leads, newsletter issues, heartbeats, the traffic filter and the set-asides it trips, and the recorder that makes
 * what they count durable.
 */
export interface DeliveryParts {
  db: Database;
  clock: Clock;
  /** The public address of the server, for absolute URLs in what the script receives. */
  baseUrl: string;
  random: Random;
  recorder: GroupCommitRecorder;
  index: ServingIndex;
  credits: CreditBook;
  pacing: Pacing;
  decisions: DecisionBook;
  uniqueClicks: UniqueClicks;
  leads: LeadBook;
  issues: NewsletterIssues;
  heartbeats: Heartbeats;
  filter: TrafficFilter;
  setAsides: SetAsides;
  /** Addresses of hosting and cloud providers, whose traffic is invalid (DATACENTER_IP_RANGES_FILE). */
  dataCentres: IpRanges;
  geo: GeoLocator;
  hasher: VisitorHasher;
  signer: TokenSigner;
}

/** What selection reads now. */
export function selectionState(parts: DeliveryParts): SelectionState {
  return {
    index: parts.index.snapshot(),
    credits: parts.credits,
    pacing: parts.pacing,
    nowMs: parts.clock.now().getTime(),
  };
}
