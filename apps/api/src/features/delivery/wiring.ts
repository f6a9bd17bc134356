import { eq } from 'drizzle-orm';
import { campaigns, type Database, type DatabaseHandle } from '@helium/db';
import type { Random } from '@helium/domain';
import type { Redis } from 'ioredis';
import type { Clock } from '../../infra/clock.ts';
import type { AdIndexSnapshot } from './ad-index.ts';
import { LocalBilling } from './billing.ts';
import { DecisionBook } from './decisions.ts';
import type { ReversedEvent } from './event-reads.ts';
import { GeoLocator, type IpLookup } from './geo.ts';
import { Heartbeats } from './heartbeats.ts';
import { IpRanges } from './ip-ranges.ts';
import { LeadBook } from './leads.ts';
import { NewsletterIssues } from './newsletter-issues.ts';
import type { DeliveryParts } from './parts.ts';
import { NO_DELIVERY_METRICS, type DeliveryMetrics } from './delivery-metrics.ts';
import { DEFERRED_MS, GroupCommitRecorder, LINGER_MS } from './recorder.ts';
import { ServingIndex } from './serving-index.ts';
import { SetAsides } from './set-asides.ts';
import { SharedKeys } from './shared/keys.ts';
import { RedisScripts } from './shared/redis-scripts.ts';
import { ServingChanges } from './shared/serving-changes.ts';
import { settleLostCommit } from './batch-outcome.ts';
import { SharedBilling } from './shared/shared-billing.ts';
import { SharedDecisionBook, SharedIssueClaims, SharedLeadClaims, SharedUniqueClicks } from './shared/shared-claims.ts';
import { SharedTally, SharedTrafficFilter } from './shared/shared-traffic.ts';
import { writeBatch } from './store.ts';
import { deriveKey, TokenSigner } from './tokens.ts';
import { DEFAULT_TRAFFIC_LIMITS, TrafficFilter, type TrafficLimits } from './traffic-filter.ts';
import { UniqueClicks } from './unique-clicks.ts';
import { VisitorHasher } from './visitor.ts';

/**
 * Several instances serving one network (PostgreSQL and Redis): the state they decide by is shared in Redis under
 * `namespace` (docs/scaling.md).
 */
export interface SharedStateOptions {
  redis: Redis;
  /** A second connection, for the announcements of changes (a subscribed connection takes no other command). */
  subscriber: Redis;
  namespace: string;
}

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
  /** Shared with other instances; this process's memory when absent (the embedded default). */
  shared?: SharedStateOptions;
  /** Where batches, events and reservations are reported (the app's metrics); nowhere when absent. */
  metrics?: DeliveryMetrics;
}

/** Set-asides run again this much later when several instances count (SetAsides `repeatAfterMs`). */
const SET_ASIDE_REPEAT_MS = 5_000;

/** What the engine does when the index or a batch or a set-aside is done: the engine's own steps. */
export interface EngineHooks {
  indexLoaded(index: AdIndexSnapshot): Promise<void>;
  loadCounters(always: boolean): Promise<void>;
  reversed(events: ReversedEvent[]): void;
}

/** The parts of one engine, each with its in-process or its shared implementation, and the announcer of changes. */
export function createParts(
  options: EngineOptions,
  hooks: EngineHooks,
): { parts: DeliveryParts; changes: ServingChanges | null; sharedBilling: SharedBilling | null } {
  const { db, clock } = options;
  const onError = options.onError ?? (() => {});
  const shared = options.shared;
  const scripts = shared ? new RedisScripts(shared.redis) : null;
  const keys = shared ? new SharedKeys(shared.namespace) : null;
  const changes =
    shared && keys ? new ServingChanges(shared.redis, shared.subscriber, keys.servingChanges(), onError) : null;
  const sharedBilling =
    scripts && keys
      ? new SharedBilling(
          scripts,
          keys,
          (id) => storedCredits(db, id),
          () => clock.now().getTime(),
          onError,
        )
      : null;
  const billing = sharedBilling ?? new LocalBilling();
  const metrics = options.metrics ?? NO_DELIVERY_METRICS;
  const recorder = new GroupCommitRecorder(
    async (events) => {
      const started = performance.now();
      let after: Awaited<ReturnType<typeof writeBatch>>;
      try {
        after = await writeBatch(options.executePrepared, events);
      } catch (error) {
        // Cut off while its commit was on its way: the database says, once it answers, whether it was written.
        await settleLostCommit(db, events, error, (outcome) => metrics.lostCommit(outcome)).catch(
          (outcome: unknown) => {
            metrics.batch(events, (performance.now() - started) / 1000, false);
            throw outcome;
          },
        );
        after = [];
      }
      metrics.batch(events, (performance.now() - started) / 1000, true);
      billing.written(after, events);
    },
    onError,
    options.batchesInFlight,
    DEFERRED_MS,
    LINGER_MS,
  );
  const limits = options.limits ?? DEFAULT_TRAFFIC_LIMITS;
  const filter = scripts && keys ? new SharedTrafficFilter(scripts, keys, limits) : new TrafficFilter(limits);
  const index = new ServingIndex(
    db,
    recorder,
    hooks.indexLoaded,
    (reload) => hooks.loadCounters(reload.counters),
    onError,
    {
      announce: changes ? () => changes.announce() : undefined,
      countersEveryReload: Boolean(shared),
    },
  );
  const setAsides = new SetAsides({
    db,
    recorder,
    clock,
    visitorsOfIp: (publisherId, ipHash) => filter.visitorsOfIp(publisherId, ipHash),
    onReversed: (events, reason) => {
      metrics.setAside(reason, events);
      hooks.reversed(events);
    },
    onError,
    maxTalliedEvents: options.maxTalliedEvents,
    tally: scripts && keys ? new SharedTally(scripts, keys) : undefined,
    repeatAfterMs: shared ? SET_ASIDE_REPEAT_MS : undefined,
  });
  filter.onTrip = (trip) => setAsides.trip(trip);
  // Redis back after an outage (perhaps emptied by a restart): today's figures and recent unique clicks are read
  // again from the database, from which the shared store starts where it has nothing.
  shared?.redis.on('ready', () => void index.refresh({ counters: true }).catch(onError));
  const release = (decision: { campaignId: number; id: string }) => billing.release(decision.campaignId, decision.id);
  const parts: DeliveryParts = {
    db,
    clock,
    baseUrl: options.baseUrl,
    random: options.random ?? Math.random,
    metrics,
    recorder,
    index,
    billing,
    decisions: scripts && keys ? new SharedDecisionBook(db, release, scripts, keys) : new DecisionBook(db, release),
    uniqueClicks: scripts && keys ? new SharedUniqueClicks(scripts, keys, onError) : new UniqueClicks(),
    leads: new LeadBook(
      db,
      recorder,
      () => index.snapshot(),
      scripts && keys ? new SharedLeadClaims(scripts, keys) : undefined,
    ),
    issues: new NewsletterIssues(db, scripts && keys ? new SharedIssueClaims(scripts, keys) : undefined),
    heartbeats: new Heartbeats(),
    filter,
    setAsides,
    dataCentres: options.dataCentres ?? IpRanges.EMPTY,
    geo: new GeoLocator(options.geoLookup),
    hasher: new VisitorHasher(deriveKey(options.secret, 'visitors')),
    signer: new TokenSigner(deriveKey(options.secret, 'tokens')),
  };
  return { parts, changes, sharedBilling };
}

/** A campaign's credits as stored, with their version: what the shared store starts from. */
async function storedCredits(db: Database, campaignId: number) {
  const [row] = await db
    .select({
      impressions: campaigns.remainingImpressions,
      clicks: campaigns.remainingClicks,
      version: campaigns.creditsVersion,
    })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return row ?? null;
}
