import { CREDITS_NEVER_NEGATIVE, refusedByDatabase } from '@helium/db';
import type { DeliveryEvent } from './events.ts';

interface Pending {
  events: DeliveryEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

type Job = { kind: 'job'; run: () => Promise<void>; resolve: () => void; reject: (error: unknown) => void };

/** How long a deferred event waits at most for another's batch (GroupCommitRecorder.record). */
export const DEFERRED_MS = 10;

/**
 * How long the first event of an idle recorder waits for others before its batch is written (`lingerMs`). At a
 * moderate rate each event would otherwise be a batch of its own, and a batch's fixed cost (a round trip, a
 * commit, the statement's plan) is most of what an event costs; under load batches fill while one is written.
 */
export const LINGER_MS = 2;
/** A lingering batch that reaches this many events is written at once. */
export const LINGER_FULL_EVENTS = 64;

const isJob = (item: Pending | Job): item is Job => 'kind' in item;

/** The database refused a batch because a spend in it would overdraw a campaign (CREDITS_NEVER_NEGATIVE). */
export function isOverdraw(error: unknown): boolean {
  const refused = error as { code?: unknown; constraint?: unknown } | null;
  return refused?.code === '23514' && refused.constraint === CREDITS_NEVER_NEGATIVE;
}

/**
 * Group commit: events of concurrent requests are queued, written together in one transaction, and each
 * request's promise resolves only once its batch is durable, so a request answered 2xx is never lost.
 * While one batch is being written the next one fills up, which makes batches larger under load.
 *
 * `maxInFlight` batches may be handed to the database before the first is durable. With one database
 * thread that runs statements in the order received (PGlite), two in flight keep it busy: the next batch
 * is already waiting there while the server's thread, busy with requests, has not yet read that the
 * previous one is done. Batches still commit in order and each resolves only when its own commit is done.
 * With a pool of connections (PostgreSQL) keep one: two batches on two connections could commit out of
 * order or deadlock on the same summary rows.
 *
 * Exclusive jobs (reloading the in-memory index) run with no batch in flight, never during one.
 */
export class GroupCommitRecorder {
  private queue: Array<Pending | Job> = [];
  private scheduled = false;
  private deferredTimer: NodeJS.Timeout | null = null;
  private lingerTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private jobRunning = false;
  private idle: Array<() => void> = [];
  private closed = false;
  /** Events queued and not yet taken into a batch (kept as a count: read on every decision). */
  private queuedEvents = 0;
  batches = 0;
  eventsWritten = 0;
  /**
   * The last batch could not reach the database (an error other than a refusal: connection lost, database away),
   * and none was written since: serving then promises no ad (pageviews.ts), whose view could not be counted.
   */
  databaseAway = false;

  constructor(
    private readonly write: (events: DeliveryEvent[]) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly maxInFlight = 1,
    /** How long events recorded with `deferred` may wait for a batch that something else starts. */
    private readonly deferredMs = DEFERRED_MS,
    /** How long an idle recorder's first event waits for company (LINGER_MS; 0: not at all). */
    private readonly lingerMs = 0,
  ) {}

  /**
   * Resolves when the events are durable. `deferred` events start no batch of their own: they join the next
   * one that an undeferred record starts, or one of their own after `deferredMs` (for what nobody waits on).
   */
  record(events: DeliveryEvent[], options: { deferred?: boolean } = {}): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('The recorder is closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ events, resolve, reject });
      this.queuedEvents += events.length;
      if (options.deferred) this.scheduleDeferred();
      else this.scheduleLingering();
    });
  }

  /** Runs a job with no batch in flight. */
  exclusive(run: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ kind: 'job', run, resolve, reject });
      this.schedule();
    });
  }

  /** Closed for a graceful stop: new events are refused. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Events queued and not yet taken into a batch being written. */
  get pending(): number {
    return this.queuedEvents;
  }

  private get isIdle(): boolean {
    return this.queue.length === 0 && this.inFlight === 0 && !this.jobRunning && !this.scheduled && !this.lingerTimer;
  }

  /**
   * A batch to start for events someone waits on: at once while batches are in flight (the next fills meanwhile)
   * or when the queue is full, else after `lingerMs`, so that the events of the next milliseconds share it.
   */
  private scheduleLingering() {
    if (this.lingerMs <= 0 || this.inFlight > 0 || this.queuedEvents >= LINGER_FULL_EVENTS || this.closed) {
      this.schedule();
      return;
    }
    if (this.lingerTimer || this.scheduled) return;
    if (this.deferredTimer) {
      clearTimeout(this.deferredTimer);
      this.deferredTimer = null;
    }
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = null;
      this.schedule();
    }, this.lingerMs);
  }

  private scheduleDeferred() {
    if (this.scheduled || this.deferredTimer || this.lingerTimer) return;
    this.deferredTimer = setTimeout(() => {
      this.deferredTimer = null;
      this.schedule();
    }, this.deferredMs);
  }

  // Events recorded during the same turn of the event loop join one batch.
  private schedule() {
    if (this.deferredTimer) {
      clearTimeout(this.deferredTimer);
      this.deferredTimer = null;
    }
    if (this.lingerTimer) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Starts what may start now: a job once nothing is in flight, or batches up to `maxInFlight`. */
  private pump() {
    while (this.queue.length > 0 && !this.jobRunning) {
      const head = this.queue[0]!;
      if (isJob(head)) {
        if (this.inFlight > 0) return;
        this.queue.shift();
        this.jobRunning = true;
        void head
          .run()
          .then(head.resolve, head.reject)
          .finally(() => {
            this.jobRunning = false;
            this.pump();
          });
        return;
      }
      if (this.inFlight >= this.maxInFlight) return;
      const batch: Pending[] = [];
      while (this.queue.length > 0 && !isJob(this.queue[0]!)) batch.push(this.queue.shift() as Pending);
      const events = batch.flatMap((item) => item.events);
      this.queuedEvents -= events.length;
      this.inFlight += 1;
      this.writeBatch(batch, events);
    }
    this.notifyIfIdle();
  }

  private writeBatch(batch: Pending[], events: DeliveryEvent[]) {
    this.attempt(events)
      .then(
        () => {
          for (const item of batch) item.resolve();
        },
        (error: unknown) => {
          this.onError(error);
          // A refused batch wrote nothing (refusedByDatabase); any other failure (a connection lost while the commit
          // was on its way, the database's thread gone) may have come after the commit: its requests are refused,
          // never written a second time (their summaries and credits would count twice).
          if (batch.length === 1 || !refusedByDatabase(error)) {
            for (const item of batch) item.reject(error);
            return;
          }
          // One request's bad event must not lose the others' (the refused batch wrote nothing: one
          // transaction): each request's events are written again on their own, in order.
          return batch.reduce(
            (previous, item) => previous.then(() => this.attempt(item.events).then(item.resolve, item.reject)),
            Promise.resolve(),
          );
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
  }

  /** Writes events as one batch, counted once written; a write that throws is a rejected promise. */
  private attempt(events: DeliveryEvent[]): Promise<void> {
    let written: Promise<void>;
    try {
      written = this.write(events);
    } catch (error) {
      written = Promise.reject(error);
    }
    return written.then(
      () => {
        this.batches += 1;
        this.eventsWritten += events.length;
        this.databaseAway = false;
      },
      (error: unknown) => {
        if (!refusedByDatabase(error)) this.databaseAway = true;
        throw error;
      },
    );
  }

  private notifyIfIdle() {
    if (this.isIdle) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Resolves once everything queued so far is written. */
  flush(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    if (this.deferredTimer || this.lingerTimer) this.schedule();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Graceful stop: refuses new events and writes what is queued. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}
