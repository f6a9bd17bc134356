import type { FastifyBaseLogger } from 'fastify';

interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /** Also run once when the scheduler starts (catching up on what was due while the server was down). */
  atStart: boolean;
  timer: NodeJS.Timeout | null;
  running: Promise<unknown> | null;
}

/**
 * Jobs the server runs on a timer (for example expiring unanswered publisher requests). Time inside a
 * job comes from the app's clock, so tests advance a ManualClock and call `runNow(name)` instead of
 * waiting. A job never overlaps itself; a failure is logged and the next tick runs as usual.
 */
export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private started = false;

  constructor(private readonly log?: FastifyBaseLogger) {}

  every(name: string, everyMs: number, run: () => Promise<unknown>, options: { atStart?: boolean } = {}): void {
    if (this.jobs.has(name)) throw new Error(`Job ${name} is already scheduled`);
    const job: Job = { name, everyMs, run, atStart: options.atStart ?? false, timer: null, running: null };
    this.jobs.set(name, job);
    if (this.started) this.arm(job);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs.values()) {
      this.arm(job);
      if (job.atStart) void this.execute(job).catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const job of this.jobs.values()) {
      if (job.timer) clearInterval(job.timer);
      job.timer = null;
    }
    await Promise.all([...this.jobs.values()].map((job) => job.running?.catch(() => undefined)));
  }

  /** Runs a job now (waiting for a run already under way) and answers what it returned. */
  async runNow(name: string): Promise<unknown> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No job ${name}`);
    if (job.running) await job.running.catch(() => undefined);
    return this.execute(job);
  }

  private arm(job: Job): void {
    job.timer = setInterval(() => {
      if (!job.running) void this.execute(job).catch(() => undefined);
    }, job.everyMs);
    job.timer.unref();
  }

  private async execute(job: Job): Promise<unknown> {
    const running = job.run();
    job.running = running;
    try {
      return await running;
    } catch (error) {
      this.log?.error({ err: error, job: job.name }, 'scheduled job failed');
      throw error;
    } finally {
      if (job.running === running) job.running = null;
    }
  }
}
