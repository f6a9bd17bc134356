import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledJobs } from '@helium/db';
import { AD_PREVIEWS_JOB } from '../features/ads/previews.ts';
import { RAW_EVENT_RETENTION_JOB } from '../features/event-retention/raw-event-retention.ts';
import { DAILY_LEDGER_JOB } from '../features/revenue-ledger/daily-ledger.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { capturedLog } from '../../test/captured-log.ts';
import { createTestDatabase, openTestDatabaseAgain, TEST_DRIVER, type TestDatabase } from '../../test/test-database.ts';
import { DatabaseJobClaims } from './job-claims.ts';
import { Scheduler } from './scheduler.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that counts its runs, how many ran at once at most, and when each started (this process's clock). */
function countingJob(runMs = 0) {
  const job = {
    runs: 0,
    active: 0,
    mostAtOnce: 0,
    starts: [] as number[],
    run: async () => {
      job.runs += 1;
      job.starts.push(performance.now());
      job.active += 1;
      job.mostAtOnce = Math.max(job.mostAtOnce, job.active);
      try {
        await sleep(runMs);
        return job.runs;
      } finally {
        job.active -= 1;
      }
    },
  };
  return job;
}

describe('the scheduler in one process (the embedded database, and jobs run by each process)', () => {
  it('runs an atStart job at start, before its first period has passed', async () => {
    const scheduler = new Scheduler();
    const daily = countingJob();
    const later = countingJob();
    // A period no test waits for: any run seen is the run at start (a loaded machine cannot make it a tick).
    scheduler.every('daily', 60_000, daily.run, { atStart: true });
    scheduler.every('later', 60_000, later.run);
    scheduler.start();
    await sleep(50);
    expect(daily.runs).toBe(1);
    expect(later.runs).toBe(0);
    await scheduler.stop();
  });

  it('runs a job each period, never overlapping itself', async () => {
    const scheduler = new Scheduler();
    const quick = countingJob();
    const slow = countingJob(120);
    scheduler.every('quick', 40, quick.run, { atStart: true });
    scheduler.every('slow', 10, slow.run);
    scheduler.start();
    await sleep(410);
    await scheduler.stop();
    expect(quick.runs).toBeGreaterThanOrEqual(4);
    expect(slow.runs).toBeGreaterThanOrEqual(2);
    expect(slow.mostAtOnce).toBe(1);
  });

  it('runNow answers what the job returned, after a run under way, one run at a time', async () => {
    const scheduler = new Scheduler();
    const job = countingJob(60);
    scheduler.every('job', 60_000, job.run, { atStart: true });
    scheduler.start();
    const answers = await Promise.all([scheduler.runNow('job'), scheduler.runNow('job')]);
    expect(answers.sort()).toEqual([2, 3]);
    expect(job.mostAtOnce).toBe(1);
    await expect(scheduler.runNow('nothing')).rejects.toThrow(/No job nothing/);
    await scheduler.stop();
  });

  it('logs a failure and runs again at the next tick; stop aborts the signal and waits for the run', async () => {
    const { lines, logger } = capturedLog('info');
    const runs: Array<{ job: string; outcome: string; milliseconds: number }> = [];
    const scheduler = new Scheduler({
      log: logger,
      onRun: (job, outcome, milliseconds) => runs.push({ job, outcome, milliseconds }),
    });
    let calls = 0;
    scheduler.every('flaky', 30, async () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
    });
    let aborted = false;
    scheduler.every(
      'long',
      60_000,
      async (signal) => {
        while (!signal.aborted) await sleep(5);
        aborted = true;
      },
      { atStart: true },
    );
    scheduler.start();
    await sleep(150);
    // The failed run, then the next tick's (waited for: on a loaded machine it may come after 150 ms).
    await expect.poll(() => calls, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    await scheduler.stop();
    expect(aborted).toBe(true);
    expect(lines.filter((line) => line.msg === 'scheduled job failed' && line.job === 'flaky')).toHaveLength(1);
    // Each run told with its outcome (the metrics' helium_job_runs_total): the failed one first, then the others.
    const flaky = runs.filter((run) => run.job === 'flaky');
    expect(flaky.map((run) => run.outcome)).toEqual(['failed', ...Array(calls - 1).fill('ok')]);
    const long = runs.find((run) => run.job === 'long');
    expect(long?.outcome).toBe('ok');
    expect(long?.milliseconds).toBeGreaterThanOrEqual(100);
  });
});

describe('claims in the database (scheduled_jobs)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());
  const job = (name: string, everyMs = 60_000) => ({ name, everyMs, atStart: true });

  it('gives a due run to one of two instances claiming at once, and the next one a period after it started', async () => {
    const first = new DatabaseJobClaims(database.db);
    const second = new DatabaseJobClaims(database.db);
    const claims = await Promise.all([first.claim(job('a'), false), second.claim(job('a'), false)]);
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
    const winner = claims[0] ? first : second;
    const claim = claims[0] ?? claims[1]!;
    expect(claim).toMatchObject({ name: 'a', run: 1, takenOverFrom: null });
    // Leased: nobody else, not even forced.
    expect(await (winner === first ? second : first).claim(job('a'), true)).toBeNull();
    await winner.release(claim, job('a'), 'ok');
    // Not due for a minute, unless forced (runNow).
    expect(await first.claim(job('a'), false)).toBeNull();
    expect(await second.claim(job('a'), false)).toBeNull();
    const forced = await second.claim(job('a'), true);
    expect(forced).toMatchObject({ run: 2, takenOverFrom: null });
    await second.release(forced!, job('a'), 'failed');
    const [row] = await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, 'a'));
    expect(row).toMatchObject({ runs: 2, outcome: 'failed', leaseOwner: null, leaseUntil: null });
    expect(row!.nextDueAt.getTime() - row!.startedAt!.getTime()).toBe(60_000);
  });

  it("takes over the run of a holder that stopped renewing once its lease expired; the dead holder's end changes nothing", async () => {
    const dead = new DatabaseJobClaims(database.db, 200);
    const alive = new DatabaseJobClaims(database.db, 200);
    const held = await dead.claim(job('b'), false);
    expect(held).not.toBeNull();
    expect(await alive.claim(job('b'), false)).toBeNull();
    await sleep(300);
    const taken = await alive.claim(job('b'), false);
    expect(taken).toMatchObject({ run: 2, takenOverFrom: dead.owner });
    expect(await dead.renew(held!)).toBe(false);
    await dead.release(held!, job('b'), 'ok');
    const [row] = await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, 'b'));
    expect(row).toMatchObject({ leaseOwner: alive.owner, runs: 2, outcome: null });
    expect(await alive.renew(taken!)).toBe(true);
  });
});

describe.skipIf(TEST_DRIVER !== 'pglite')('on the embedded database (one process)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('runs every job itself, as before: nothing is claimed in scheduled_jobs', async () => {
    expect(await t.app.ctx.scheduler.runNow('ad-validation-timeouts')).toBe(0);
    expect(await t.app.ctx.scheduler.runNow(RAW_EVENT_RETENTION_JOB)).toMatchObject({ pageviews: 0 });
    expect(await t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB)).toMatchObject({ posted: expect.any(Number) });
    expect(await t.db.select().from(scheduledJobs)).toEqual([]);
  });
});

describe.skipIf(TEST_DRIVER !== 'postgres')('two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;
  const logs = [capturedLog('debug'), capturedLog('debug')];
  // Short, so that a takeover is seen soon; not shorter: on a loaded machine (CI runs the browser tests beside
  // these) a renewal can wait over a second, and a start job's lease would expire under it.
  const LEASE_MS = 3_000;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const again = await openTestDatabaseAgain(database);
    // Both start at once, as two machines after a deployment.
    const apps = await Promise.all(
      [database, again].map((shared, index) =>
        buildTestApp({
          database: shared,
          scheduler: { pollMs: 20, leaseMs: LEASE_MS },
          loggerInstance: logs[index]!.logger,
        }),
      ),
    );
    [first, second] = apps as [TestApp, TestApp];
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const runsOf = async (name: string) => {
    const [row] = await first.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, name));
    return row?.runs ?? 0;
  };

  it('runs the start jobs once between them (the daily ledger, the previews), and each job is known', async () => {
    await expect.poll(() => runsOf(DAILY_LEDGER_JOB), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => runsOf(AD_PREVIEWS_JOB), { timeout: 10_000 }).toBe(1);
    await sleep(200);
    expect(await runsOf(DAILY_LEDGER_JOB)).toBe(1);
    expect(await runsOf(AD_PREVIEWS_JOB)).toBe(1);
    const ran = logs.flatMap(({ lines }) => lines.filter((line) => line.msg === 'scheduled job ran'));
    expect(ran.filter((line) => line.job === DAILY_LEDGER_JOB)).toHaveLength(1);
    // Not due at start: a period after the first instance knew of them.
    expect(await runsOf(RAW_EVENT_RETENTION_JOB)).toBe(0);
    expect(await runsOf('ad-validation-timeouts')).toBe(0);
  });

  it('runs each due run of a job once while both schedulers tick, never two at once', async () => {
    const PERIOD_MS = 250;
    let active = 0;
    let mostAtOnce = 0;
    /** Each run: its instance, and its claim's number and start as the database recorded them. */
    const runs: Array<{ instance: number; run: number; startedAt: number }> = [];
    const jobOn = (instance: number, t: TestApp) => async () => {
      active += 1;
      mostAtOnce = Math.max(mostAtOnce, active);
      try {
        const [row] = await t.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, 'count'));
        runs.push({ instance, run: row!.runs, startedAt: row!.startedAt!.getTime() });
        await sleep(30);
      } finally {
        active -= 1;
      }
    };
    // One job, as every instance registers it; both look every 20 ms whether it is due.
    first.app.ctx.scheduler.every('count', PERIOD_MS, jobOn(1, first));
    second.app.ctx.scheduler.every('count', PERIOD_MS, jobOn(2, second));
    await sleep(2_600);
    // Every claim recorded is a run seen (one may be under way as the time ends).
    await expect.poll(async () => (await runsOf('count')) === runs.length && active === 0).toBe(true);
    const seen = [...runs].sort((a, b) => a.run - b.run);
    // About 2,600 / (250 + a poll) runs: never one per instance and period.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.length).toBeLessThanOrEqual(11);
    expect(seen.map((one) => one.run)).toEqual(seen.map((_, index) => index + 1));
    for (let index = 1; index < seen.length; index++) {
      // By the database's clock, each run starts a period or more after the one before.
      expect(seen[index]!.startedAt - seen[index - 1]!.startedAt).toBeGreaterThanOrEqual(PERIOD_MS);
    }
    expect(mostAtOnce).toBe(1);
  });

  it('runNow on both at once: two runs, one after the other', async () => {
    const onFirst = countingJob(150);
    const onSecond = countingJob(150);
    first.app.ctx.scheduler.every('manual', 3_600_000, onFirst.run);
    second.app.ctx.scheduler.every('manual', 3_600_000, onSecond.run);
    await Promise.all([first.app.ctx.scheduler.runNow('manual'), second.app.ctx.scheduler.runNow('manual')]);
    expect([onFirst.runs, onSecond.runs]).toEqual([1, 1]);
    const [a, b] = [onFirst.starts[0]!, onSecond.starts[0]!].sort((x, y) => x - y);
    expect(b! - a!).toBeGreaterThanOrEqual(140);
  });

  it("keeps a long run's claim while it runs (no second run), and takes over a dead holder's once its lease expired", async () => {
    // A run three leases long on the first instance: renewed, so the second's runNow waits for its end.
    const longOnFirst = countingJob(3 * LEASE_MS);
    const longOnSecond = countingJob();
    first.app.ctx.scheduler.every('long', 3_600_000, longOnFirst.run);
    second.app.ctx.scheduler.every('long', 3_600_000, longOnSecond.run);
    const onFirst = first.app.ctx.scheduler.runNow('long');
    await expect.poll(() => longOnFirst.runs).toBe(1);
    await second.app.ctx.scheduler.runNow('long');
    const firstEnded = performance.now();
    await onFirst;
    expect(longOnSecond.runs).toBe(1);
    expect(longOnSecond.starts[0]! - longOnFirst.starts[0]!).toBeGreaterThanOrEqual(3 * LEASE_MS);
    expect(longOnSecond.starts[0]!).toBeLessThanOrEqual(firstEnded);

    // A holder that died right after claiming (it never renews nor ends its run): taken over after its lease.
    const dead = new DatabaseJobClaims(first.db, LEASE_MS);
    const job = { name: 'orphan', everyMs: 50, atStart: false };
    await first.db.insert(scheduledJobs).values({ name: 'orphan', nextDueAt: new Date(0) });
    // Taken before the claim: its lease ends at least LEASE_MS after this.
    const diedAt = performance.now();
    expect(await dead.claim(job, false)).not.toBeNull();
    const orphan = countingJob();
    second.app.ctx.scheduler.every('orphan', 50, orphan.run);
    await expect.poll(() => orphan.runs, { timeout: 3 * LEASE_MS }).toBeGreaterThanOrEqual(1);
    expect(orphan.starts[0]! - diedAt).toBeGreaterThanOrEqual(LEASE_MS - 5);
    const takeovers = logs[1]!.lines.filter((line) => line.msg === 'scheduled job: an expired run taken over');
    expect(takeovers).toEqual([expect.objectContaining({ job: 'orphan', from: dead.owner })]);
  });
});
