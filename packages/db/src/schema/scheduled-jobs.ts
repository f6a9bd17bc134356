import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The server's timed jobs on a shared PostgreSQL database (apps/api/src/infra/job-claims.ts): each due run is
 * claimed by one instance with a conditional update, and held under a lease that the holder renews while the
 * job runs; a holder that dies stops renewing, its lease expires and another instance takes the run over.
 * Times are the database's (`now()`), so that machines whose clocks differ agree on them.
 */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  /** The next periodic run may start from then (set by the end of each run: its start + the job's period). */
  nextDueAt: timestamp('next_due_at', { withTimezone: true }).notNull(),
  /** The instance running the job, until `leaseUntil`; null when none is. */
  leaseOwner: text('lease_owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  /** Runs started so far; each claim's number, which its renewals and its end must still match. */
  runs: bigint('runs', { mode: 'number' }).notNull().default(0),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /** How the last finished run ended. */
  outcome: text('outcome', { enum: ['ok', 'failed'] }),
});
