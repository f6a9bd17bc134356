import type { FastifyBaseLogger } from 'fastify';
import { OutageLog } from './outage-log.ts';
import { ProcessJobClaims, type JobClaim, type JobClaims } from './job-claims.ts';

/** What a job does; `signal` is aborted when the server stops (a long job ends at its next step). */
export type JobRun = (signal: AbortSignal) => Promise<unknown>;

export interface JobOptions {
  /** Also look at start whether it is due (catching up on what was due while no server ran). */
  atStart?: boolean;
  /**
   * Run by each process for itself, whatever the other instances do (the embedded database's upkeep, a sweep of
   * this process's memory). Without it a job runs once across all instances that share the database.
   */
  eachProcess?: boolean;
}

interface Job {
  name: string;
  everyMs: number;
  run: JobRun;
  atStart: boolean;
  claims: JobClaims;
  timer: NodeJS.Timeout | null;
  running: Promise<Outcome> | null;
}

type Outcome = { ran: true; result: unknown } | { ran: false };

/** How often a job shared across instances looks whether it is due (at most its period). */
export const SHARED_JOB_POLL_MS = 10_000;
/** runNow, while another instance runs the job: how often it tries again. */
const RUN_NOW_RETRY_MS = 100;

export interface SchedulerOptions {
  log?: FastifyBaseLogger;
  /** Claims of the jobs run once across instances (scheduled_jobs on PostgreSQL); this process alone by default. */
  claims?: JobClaims;
  pollMs?: number;
  /** Told of every run this process made, with its outcome and duration (the app's metrics). */
  onRun?: (job: string, outcome: 'ok' | 'failed', milliseconds: number) => void;
}

/**
 * Jobs the server runs on a timer (for example expiring unanswered publisher requests). Each due run happens on
 * one instance only: it is claimed first (job-claims.ts), so that instances sharing a PostgreSQL database never
 * run it twice nor at the same time; jobs marked `eachProcess` run in every process. Time inside a job comes
 * from the app's clock, so tests advance a ManualClock and call `runNow(name)` instead of waiting. A job never
 * overlaps itself; a failure is logged and the next due run happens as usual.
 */
export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly local = new ProcessJobClaims();
  private readonly claims: JobClaims;
  private readonly pollMs: number;
  private readonly log: FastifyBaseLogger | undefined;
  private readonly databaseAway = new OutageLog();
  private readonly onRun: SchedulerOptions['onRun'];
  private stopping = new AbortController();
  private started = false;

  constructor(options: SchedulerOptions = {}) {
    this.log = options.log;
    this.onRun = options.onRun;
    this.claims = options.claims ?? this.local;
    this.pollMs = options.pollMs ?? SHARED_JOB_POLL_MS;
  }

  every(name: string, everyMs: number, run: JobRun, options: JobOptions = {}): void {
    if (this.jobs.has(name)) throw new Error(`Job ${name} is already scheduled`);
    const claims = options.eachProcess ? this.local : this.claims;
    const job: Job = { name, everyMs, run, atStart: options.atStart ?? false, claims, timer: null, running: null };
    this.jobs.set(name, job);
    if (this.started) this.arm(job);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = new AbortController();
    for (const job of this.jobs.values()) {
      this.arm(job);
      if (job.atStart) void this.execute(job, false).catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    this.stopping.abort();
    for (const job of this.jobs.values()) {
      if (job.timer) clearInterval(job.timer);
      job.timer = null;
    }
    await Promise.all([...this.jobs.values()].map((job) => job.running?.catch(() => undefined)));
  }

  /**
   * Runs a job now, once (waiting for a run already under way, here or on another instance, to end first), and
   * answers what it returned. The same claim as a timed run: never two runs at once across instances.
   */
  async runNow(name: string, options: { waitMs?: number } = {}): Promise<unknown> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No job ${name}`);
    // Long enough for another instance's run to end, or for a dead holder's lease to expire.
    const deadline = Date.now() + (options.waitMs ?? 2 * (job.claims.leaseMs ?? 0) + 5_000);
    for (;;) {
      while (job.running) await job.running.catch(() => undefined);
      const outcome = await this.execute(job, true);
      if (outcome.ran) return outcome.result;
      if (Date.now() >= deadline) throw new Error(`Job ${name} is still running on another instance`);
      await new Promise((resolve) => setTimeout(resolve, RUN_NOW_RETRY_MS));
    }
  }

  private arm(job: Job): void {
    // A shared job's period is kept by the claims' store; each instance only looks now and then.
    const tickMs = job.claims.shared ? Math.min(job.everyMs, this.pollMs) : job.everyMs;
    job.timer = setInterval(() => {
      if (!job.running) void this.execute(job, false).catch(() => undefined);
    }, tickMs);
    job.timer.unref();
  }

  /** Claims the job's run and runs it; `job.running` is set at once, so that nothing else starts it meanwhile. */
  private execute(job: Job, force: boolean): Promise<Outcome> {
    const running = this.claimAndRun(job, force);
    job.running = running;
    const clear = () => {
      if (job.running === running) job.running = null;
    };
    running.then(clear, clear);
    return running;
  }

  private async claimAndRun(job: Job, force: boolean): Promise<Outcome> {
    const toClaim = { name: job.name, everyMs: job.everyMs, atStart: job.atStart };
    let claim: JobClaim | null;
    try {
      claim = await job.claims.claim(toClaim, force);
    } catch (error) {
      if (this.databaseAway.shouldLog(error, job.name)) {
        this.log?.error({ err: error, job: job.name }, 'scheduled job: could not claim its run');
      }
      throw error;
    }
    if (!claim) return { ran: false };
    if (claim.takenOverFrom) {
      this.log?.warn({ job: job.name, from: claim.takenOverFrom }, 'scheduled job: an expired run taken over');
    }
    const { leaseMs } = job.claims;
    const renewal = leaseMs === null ? null : this.keepClaim(job, claim, Math.max(1, Math.floor(leaseMs / 3)));
    const started = performance.now();
    let outcome: 'ok' | 'failed' = 'failed';
    try {
      const result = await job.run(this.stopping.signal);
      outcome = 'ok';
      this.log?.debug(
        { job: job.name, run: claim.run, ms: Math.round(performance.now() - started) },
        'scheduled job ran',
      );
      return { ran: true, result };
    } catch (error) {
      this.log?.error({ err: error, job: job.name }, 'scheduled job failed');
      throw error;
    } finally {
      this.onRun?.(job.name, outcome, performance.now() - started);
      if (renewal) clearInterval(renewal);
      await job.claims.release(claim, toClaim, outcome).catch((error: unknown) => {
        // Its lease expires by itself: the job is then due again, and runs once more (every job is idempotent).
        this.log?.error({ err: error, job: job.name }, 'scheduled job: could not record the end of its run');
      });
    }
  }

  private keepClaim(job: Job, claim: JobClaim, everyMs: number): NodeJS.Timeout {
    const timer = setInterval(() => {
      job.claims.renew(claim).then(
        (held) => {
          if (!held) this.log?.error({ job: job.name }, 'scheduled job: its claim expired while it ran');
        },
        (error: unknown) => this.log?.error({ err: error, job: job.name }, 'scheduled job: could not renew its claim'),
      );
    }, everyMs);
    timer.unref();
    return timer;
  }
}
