import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type LabelValues,
} from 'prom-client';
import type { LostCommitOutcome } from '../features/delivery/batch-outcome.ts';
import type { DeliveryMetrics } from '../features/delivery/delivery-metrics.ts';
import type { DeliveryEvent } from '../features/delivery/events.ts';

/** Latency buckets in seconds, from a decision answered from memory to a view waiting on a slow commit. */
const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Events in one group-commit batch: one at a quiet moment, thousands under a backlog. */
const BATCH_EVENT_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500];
/** A timed job runs from milliseconds (nothing due) to minutes (a retention sweep). */
const JOB_SECONDS_BUCKETS = [0.01, 0.1, 1, 10, 60, 300];

/** The route label of a request no route matched (a 404 or a bad method): not its URL, whose variety is endless. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Node's own figures (memory, CPU, event loop, GC) describe the process, not an app: collected once per process
 * into one registry that every app's answer adds, so that two apps in one process (tests) do not each watch it.
 */
let processRegistry: Registry | null = null;
function nodeProcessRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    // Gauges named like counters, which `promtool check metrics` refuses; their `{type}` breakdowns stay.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/** Up to three parts of a label set, as the caller has them (interned strings, numbers): no string is built. */
type Key = string | number;

/**
 * A counter moved on the serving path: counted in a plain number per label set, and handed to its prom-client
 * counter when that is read (a scrape). prom-client's own inc() hashes and checks its labels at every call (about
 * 1 µs, measured); this is up to three Map lookups on the label values as they are (under 0.1 µs), where joining
 * them into one key would cost 0.6 µs.
 */
class DeferredCounter<L extends string> {
  private readonly counts = new Map<Key, Map<Key, Map<Key, { labels: LabelValues<L>; count: number }>>>();
  private readonly counter: Counter<L>;

  constructor(configuration: CounterConfiguration<L>) {
    this.counter = new Counter({ ...configuration, collect: () => this.flush() });
  }

  /** `count` more for the label set keyed `a`, `b`, `c`; `labels` is called once, at its first count. */
  inc(a: Key, b: Key, c: Key, labels: () => LabelValues<L>, count = 1): void {
    let byB = this.counts.get(a);
    if (!byB) this.counts.set(a, (byB = new Map()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new Map()));
    const entry = byC.get(c);
    if (entry) entry.count += count;
    else byC.set(c, { labels: labels(), count });
  }

  private flush() {
    for (const byB of this.counts.values()) {
      for (const byC of byB.values()) {
        for (const entry of byC.values()) {
          this.counter.inc(entry.labels, entry.count);
          entry.count = 0;
        }
      }
    }
  }
}

/**
 * The app's metrics (GET /metrics, docs/operations.md): the one owner of its Prometheus registry, reached through
 * `app.ctx.metrics`. Each app has its own registry. What the serving path calls only adds to counts (DeferredCounter)
 * and observes a histogram (about 0.6 µs).
 */
export class Metrics implements DeliveryMetrics {
  readonly registry = new Registry();
  /** Where the exposition comes from: this process's registries, or every worker's (infra/cluster-metrics.ts). */
  private source: () => Promise<string> = () => this.processText();

  private readonly requests = new DeferredCounter({
    name: 'helium_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly decisionSeconds = this.histogram(
    'helium_decision_seconds',
    'Time to answer a pageview of the publisher script with its ads (GET /serve/d).',
    SECONDS_BUCKETS,
  );
  private readonly viewSeconds = this.histogram(
    'helium_view_seconds',
    'Time to answer a view beacon (/serve/v), its impression durable when counted.',
    SECONDS_BUCKETS,
  );
  private readonly batchEvents = this.histogram(
    'helium_group_commit_batch_events',
    'Delivery events written per group-commit batch.',
    BATCH_EVENT_BUCKETS,
  );
  private readonly batchSeconds = this.histogram(
    'helium_group_commit_batch_seconds',
    'Time to write and commit one group-commit batch.',
    SECONDS_BUCKETS,
  );
  private readonly batchFailures = new Counter({
    name: 'helium_group_commit_batch_failures_total',
    help: 'Group-commit batches the database refused or could not be reached for.',
    registers: [this.registry],
  });
  private readonly lostCommits = new Counter({
    name: 'helium_group_commit_lost_answers_total',
    help: "Batches whose commit's answer was lost, by what the database then said (written, notWritten, unknown).",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly counted = new DeferredCounter({
    name: 'helium_events_counted_total',
    help: 'Delivery events written as valid, by kind (pageview, decision, impression, click, lead).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly refused = new DeferredCounter({
    name: 'helium_events_refused_total',
    help: 'Delivery events written as invalid traffic, not billed, by kind and reason.',
    labelNames: ['kind', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly setAsides = new DeferredCounter({
    name: 'helium_events_set_aside_total',
    help: 'Billed events set aside afterwards when a rule tripped for their address, by kind and rule.',
    labelNames: ['kind', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly reservations = new DeferredCounter({
    name: 'helium_credit_reservations_total',
    help: 'CPM credits promised to served ads until viewed (reserved), or refused.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private reservationsHeldNow: () => number = () => 0;
  private readonly reservationsHeld: Gauge = new Gauge({
    name: 'helium_credit_reservations_held',
    help: 'Impressions promised to served ads not yet viewed, now.',
    registers: [this.registry],
    collect: () => this.reservationsHeld.set(this.reservationsHeldNow()),
    // Workers sharing their credits through Redis each see the network's figure: it is not summed.
    aggregator: 'max',
  });
  private readonly jobRuns = new Counter({
    name: 'helium_job_runs_total',
    help: 'Runs of the timed jobs, by job and outcome (ok, failed).',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly jobSeconds = new Histogram({
    name: 'helium_job_seconds',
    help: 'Duration of the timed jobs, by job.',
    labelNames: ['job'] as const,
    buckets: JOB_SECONDS_BUCKETS,
    registers: [this.registry],
  });
  private readonly mails = new Counter({
    name: 'helium_mail_total',
    help: 'E-mails handed to SMTP or the outbox (sent), or that could not be (failed).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Made at once so that they show 0 before the first event, and a rate() starts from there.
    for (const outcome of ['reserved', 'refused'] as const)
      this.reservations.inc(outcome, '', '', () => ({ outcome }), 0);
    for (const outcome of ['sent', 'failed']) this.mails.labels(outcome).inc(0);
  }

  private histogram(name: string, help: string, buckets: number[]) {
    return new Histogram({ name, help, buckets, registers: [this.registry] });
  }

  /** A request answered (Fastify onResponse): counted by its route's pattern, never its URL. */
  requestAnswered(method: string, route: string | undefined, status: number): void {
    const pattern = route ?? UNMATCHED_ROUTE;
    this.requests.inc(pattern, method, status, () => ({ method, route: pattern, status: String(status) }));
  }

  decisionAnswered(milliseconds: number): void {
    this.decisionSeconds.observe(milliseconds / 1000);
  }

  viewAnswered(milliseconds: number): void {
    this.viewSeconds.observe(milliseconds / 1000);
  }

  lostCommit(outcome: LostCommitOutcome): void {
    this.lostCommits.inc({ outcome });
  }

  batch(events: readonly DeliveryEvent[], seconds: number, ok: boolean): void {
    if (!ok) {
      this.batchFailures.inc();
      return;
    }
    this.batchEvents.observe(events.length);
    this.batchSeconds.observe(seconds);
    for (const event of events) {
      if (event.t === 'invalid') {
        const { kind, reason } = event;
        this.refused.inc(kind, reason, '', () => ({ kind, reason }));
      } else if (COUNTED_KINDS.has(event.t) && !(event.t === 'pageview' && event.invalidReason)) {
        // (An invalid pageview is counted by its 'invalid' event.)
        const kind = event.t;
        this.counted.inc(kind, '', '', () => ({ kind }));
      }
    }
  }

  setAside(reason: string, events: ReadonlyArray<{ kind: string }>): void {
    for (const { kind } of events) this.setAsides.inc(kind, reason, '', () => ({ kind, reason }));
  }

  reservation(outcome: 'reserved' | 'refused'): void {
    this.reservations.inc(outcome, '', '', () => ({ outcome }));
  }

  /** How many reservations are held, read at each scrape (nothing is kept up to date for it while serving). */
  watchReservations(held: () => number): void {
    this.reservationsHeldNow = held;
  }

  jobRan(job: string, outcome: 'ok' | 'failed', milliseconds: number): void {
    this.jobRuns.labels(job, outcome).inc();
    this.jobSeconds.labels(job).observe(milliseconds / 1000);
  }

  mail(outcome: 'sent' | 'failed'): void {
    this.mails.labels(outcome).inc();
  }

  /** This app's registry and the process's Node figures, the registries a cluster worker hands to its primary. */
  registries(): Registry[] {
    return [this.registry, nodeProcessRegistry()];
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition GET /metrics answers. */
  text(): Promise<string> {
    return this.source();
  }

  /** Answers every worker's figures (WORKERS, infra/cluster-metrics.ts) instead of this process's. */
  answerFrom(source: () => Promise<string>): void {
    this.source = source;
  }

  private async processText(): Promise<string> {
    const texts = await Promise.all(this.registries().map((registry) => registry.metrics()));
    return texts.join('\n');
  }
}

/** The kinds of delivery events counted as valid (heartbeats and newsletter issues are bookkeeping). */
const COUNTED_KINDS = new Set(['pageview', 'decision', 'impression', 'click', 'lead']);
