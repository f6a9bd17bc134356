import type { DeliveryEvent } from './events.ts';

interface Pending {
  events: DeliveryEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

type Job = { kind: 'job'; run: () => Promise<void>; resolve: () => void; reject: (error: unknown) => void };

/**
 * Group commit: events of concurrent requests are queued, written together in one transaction, and each
 * request's promise resolves only once its batch is durable, so a request answered 2xx is never lost.
 * While one batch is being written the next one fills up, which makes batches larger under load.
 * Exclusive jobs (reloading the in-memory index) run between batches, never during one.
 */
export class GroupCommitRecorder {
  private queue: Array<Pending | Job> = [];
  private running = false;
  private idle: Array<() => void> = [];
  private closed = false;
  /** Events queued and not yet taken into a batch (kept as a count: read on every decision). */
  private queuedEvents = 0;
  batches = 0;
  eventsWritten = 0;

  constructor(
    private readonly write: (events: DeliveryEvent[]) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Resolves when the events are durable. */
  record(events: DeliveryEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('The recorder is closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ events, resolve, reject });
      this.queuedEvents += events.length;
      this.schedule();
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

  private schedule() {
    if (this.running) return;
    this.running = true;
    setImmediate(() => void this.loop());
  }

  private async loop() {
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head && 'kind' in head) {
        this.queue.shift();
        try {
          await head.run();
          head.resolve();
        } catch (error) {
          head.reject(error);
        }
        continue;
      }
      const batch: Pending[] = [];
      while (this.queue.length > 0 && !('kind' in (this.queue[0] as Pending | Job))) {
        batch.push(this.queue.shift() as Pending);
      }
      const events = batch.flatMap((item) => item.events);
      this.queuedEvents -= events.length;
      try {
        await this.write(events);
        this.batches += 1;
        this.eventsWritten += events.length;
        for (const item of batch) item.resolve();
      } catch (error) {
        this.onError(error);
        for (const item of batch) item.reject(error);
      }
    }
    this.running = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Resolves once everything queued so far is written. */
  flush(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Graceful stop: refuses new events and writes what is queued. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}
