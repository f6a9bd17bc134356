import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import { scheduledJobs, type Database } from '@helium/db';

/** A run of a job that this instance may start: its number, and whose expired lease it took over (if any). */
export interface JobClaim {
  name: string;
  run: number;
  takenOverFrom: string | null;
}

export interface JobToClaim {
  name: string;
  everyMs: number;
  /** Due as soon as the scheduler starts (else one period after the job is first known). */
  atStart: boolean;
}

/**
 * Who may run a job's due run (scheduler.ts). `shared` claims are decided by a store that every instance of the
 * network sees: a job is then due when the store says so, and the scheduler only looks now and then.
 */
export interface JobClaims {
  readonly shared: boolean;
  /** How long a claim holds unless renewed (null: it never expires); the scheduler renews it every third of it. */
  readonly leaseMs: number | null;
  /** This instance's run of the job, or null when it is not due (unless `force`) or another instance runs it. */
  claim(job: JobToClaim, force: boolean): Promise<JobClaim | null>;
  /** Keeps the claim while the job runs; false when it was lost (expired and taken over). */
  renew(claim: JobClaim): Promise<boolean>;
  /** The run ended: the job is next due one period after the run started. */
  release(claim: JobClaim, job: JobToClaim, outcome: 'ok' | 'failed'): Promise<void>;
}

/**
 * This process alone decides: every tick of a job is a due run. For the embedded database (one process, held by
 * its folder lock) and for the jobs each process runs for itself.
 */
export class ProcessJobClaims implements JobClaims {
  readonly shared = false;
  readonly leaseMs = null;
  private runs = 0;

  async claim(job: JobToClaim): Promise<JobClaim> {
    this.runs += 1;
    return { name: job.name, run: this.runs, takenOverFrom: null };
  }

  async renew(): Promise<boolean> {
    return true;
  }

  async release(): Promise<void> {}
}

/** How long a claim holds without being renewed: a dead holder's run is taken over at most this long after. */
export const JOB_LEASE_MS = 60_000;

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;
const milliseconds = (ms: number) => sql`(${Math.round(ms)}::bigint * interval '1 millisecond')`;

/**
 * Claims in the `scheduled_jobs` table of a database that several instances share (migration 0019): a due run is
 * taken by one conditional update (the job not leased, or its lease expired; and due, unless forced), under a
 * lease its holder renews every third of its length. Every time is the database's, whatever the machines' clocks.
 */
export class DatabaseJobClaims implements JobClaims {
  readonly shared = true;
  /** This instance, as the other instances see it in the table (host, process, and a random part: two apps in one process differ). */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly known = new Set<string>();

  constructor(
    private readonly db: Database,
    readonly leaseMs = JOB_LEASE_MS,
  ) {}

  async claim(job: JobToClaim, force: boolean): Promise<JobClaim | null> {
    if (!this.known.has(job.name)) {
      await this.db.execute(sql`
        insert into ${scheduledJobs} (name, next_due_at)
        values (${job.name}, now() + ${milliseconds(job.atStart ? 0 : job.everyMs)})
        on conflict (name) do nothing`);
      this.known.add(job.name);
    }
    // Two instances claiming at once: the second's update waits for the first's, then finds the job leased.
    const rows = rowsOf<{ run: string | number; previousOwner: string | null }>(
      await this.db.execute(sql`
        update ${scheduledJobs} as j
        set lease_owner = ${this.owner}, lease_until = now() + ${milliseconds(this.leaseMs)}, runs = j.runs + 1,
          started_at = now()
        from (select name, lease_owner from ${scheduledJobs} where name = ${job.name}) as previous
        where j.name = previous.name
          and (j.lease_until is null or j.lease_until <= now())
          and (${force}::boolean or j.next_due_at <= now())
        returning j.runs as run, previous.lease_owner as "previousOwner"`),
    );
    const [row] = rows;
    if (!row) return null;
    return { name: job.name, run: Number(row.run), takenOverFrom: row.previousOwner };
  }

  async renew(claim: JobClaim): Promise<boolean> {
    const rows = rowsOf<unknown>(
      await this.db.execute(sql`
        update ${scheduledJobs} set lease_until = now() + ${milliseconds(this.leaseMs)}
        where name = ${claim.name} and lease_owner = ${this.owner} and runs = ${claim.run}
        returning name`),
    );
    return rows.length === 1;
  }

  async release(claim: JobClaim, job: JobToClaim, outcome: 'ok' | 'failed'): Promise<void> {
    await this.db.execute(sql`
      update ${scheduledJobs}
      set lease_owner = null, lease_until = null, finished_at = now(), outcome = ${outcome},
        next_due_at = started_at + ${milliseconds(job.everyMs)}
      where name = ${claim.name} and lease_owner = ${this.owner} and runs = ${claim.run}`);
  }
}
