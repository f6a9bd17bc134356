import { and, eq, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, dailyAdStats, ledgerEntries } from '@helium/db';
import { DAILY_LEDGER_JOB, DailyRevenueLedger } from './daily-ledger.ts';
import { utcDay } from '../delivery/visitor.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { publisherId } from '../../../test/serve-support.ts';
import { DAY_MS } from '@helium/domain';

let t: TestApp;
let blog: number;
let cuisine: number;
let ad: typeof ads.$inferSelect;

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  [ad] = (await t.db.select().from(ads).where(eq(ads.adminValidation, 1)).limit(1)) as [typeof ads.$inferSelect];
});
afterAll(async () => t.close());

/** Moves the clock to `hour`:`minute` UTC on the day `days` after the clock's current day. */
function moveTo(days: number, hour: number, minute = 0) {
  const now = t.clock.now().getTime();
  const target = Math.floor(now / DAY_MS) * DAY_MS + days * DAY_MS + (hour * 60 + minute) * 60_000;
  t.clock.advance(target - now);
}

async function stats(
  day: string,
  publisher: number,
  device: 'desktop' | 'mobile',
  revenue: number,
  impressions: number,
) {
  await t.db.insert(dailyAdStats).values({
    day,
    adId: ad.id,
    publisherId: publisher,
    device,
    campaignId: ad.campaignId,
    advertiserId: ad.advertiserId,
    impressions,
    publisherRevenue: revenue,
    cost: Math.round(revenue / 0.7),
  });
}

async function revenueEntries(day: string) {
  return t.db
    .select({
      accountId: ledgerEntries.accountId,
      amount: ledgerEntries.amount,
      impressions: ledgerEntries.impressions,
    })
    .from(ledgerEntries)
    .where(
      and(eq(ledgerEntries.kind, 'revenue'), eq(ledgerEntries.accountType, 'publisher'), eq(ledgerEntries.day, day)),
    )
    .orderBy(ledgerEntries.accountId);
}

const run = () => t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB) as Promise<{ posted: number; closedBefore: string }>;

describe('daily revenue ledger', () => {
  it('posted every closed day of the stats at start (missed days)', async () => {
    // The start-up run is under way or done: wait for it by polling, without running the job ourselves.
    const today = utcDay(t.clock.now());
    const unposted = async () => {
      const [row] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(
          t.db
            .select({ publisherId: dailyAdStats.publisherId, day: dailyAdStats.day })
            .from(dailyAdStats)
            .where(lt(dailyAdStats.day, today))
            .groupBy(dailyAdStats.publisherId, dailyAdStats.day)
            .having(sql`sum(${dailyAdStats.publisherRevenue}) <> 0 or sum(${dailyAdStats.impressions}) > 0`)
            .as('days'),
        )
        .where(
          sql`not exists (select 1 from ${ledgerEntries} l where l.kind = 'revenue' and l.account_type = 'publisher' and l.account_id = days.publisher_id and l.day = days.day)`,
        );
      return row?.n ?? 0;
    };
    const deadline = Date.now() + 10_000;
    while ((await unposted()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await unposted()).toBe(0);
  });

  it("posts one entry per publisher for a day once it is closed, from the day's publisher revenue", async () => {
    moveTo(400, 12);
    const day = utcDay(t.clock.now());
    await stats(day, blog, 'desktop', 1_000_000, 300);
    await stats(day, blog, 'mobile', 250_000, 120);
    await stats(day, cuisine, 'desktop', 70_000, 20);

    // Not before the day is over, nor in the first minutes after midnight (batches in flight).
    expect((await run()).posted).toBe(0);
    moveTo(1, 0, 2);
    expect((await run()).posted).toBe(0);
    expect(await revenueEntries(day)).toEqual([]);

    moveTo(0, 0, 6);
    const result = await run();
    expect(result).toEqual({ posted: 2, closedBefore: utcDay(t.clock.now()) });
    expect(await revenueEntries(day)).toEqual([
      { accountId: blog, amount: 1_250_000, impressions: 420 },
      { accountId: cuisine, amount: 70_000, impressions: 20 },
    ]);
  });

  it('is idempotent: a second run, or another process, posts nothing more', async () => {
    const day = utcDay(new Date(t.clock.now().getTime() - DAY_MS));
    expect((await run()).posted).toBe(0);
    const otherProcess = new DailyRevenueLedger(t.db, t.clock);
    expect((await otherProcess.run()).posted).toBe(0);
    const [a, b] = await Promise.all([
      new DailyRevenueLedger(t.db, t.clock).run(),
      new DailyRevenueLedger(t.db, t.clock).run(),
    ]);
    expect(a.posted + b.posted).toBe(0);
    expect(await revenueEntries(day)).toHaveLength(2);
  });

  it('posts every day missed while the server was stopped, in one run', async () => {
    const first = utcDay(t.clock.now());
    const second = utcDay(new Date(t.clock.now().getTime() + DAY_MS));
    const third = utcDay(new Date(t.clock.now().getTime() + 2 * DAY_MS));
    await stats(first, blog, 'desktop', 100, 1);
    await stats(second, blog, 'desktop', 200, 2);
    await stats(third, blog, 'desktop', 300, 3);
    // A day with no revenue and no impressions gets no entry.
    await stats(third, cuisine, 'desktop', 0, 0);
    moveTo(3, 0, 10);
    // A fresh process, as at start after a stop of three days.
    expect((await new DailyRevenueLedger(t.db, t.clock).run()).posted).toBe(3);
    expect(await revenueEntries(first)).toEqual([{ accountId: blog, amount: 100, impressions: 1 }]);
    expect(await revenueEntries(second)).toEqual([{ accountId: blog, amount: 200, impressions: 2 }]);
    expect(await revenueEntries(third)).toEqual([{ accountId: blog, amount: 300, impressions: 3 }]);
    expect((await run()).posted).toBe(0);
  });
});
