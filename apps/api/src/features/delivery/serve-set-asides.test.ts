import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adClicks, adImpressions, dailyAdStats, invalidTraffic, ledgerEntries } from '@helium/db';
import { DAY_MS, MINUTE_MS } from '@helium/domain';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  campaignOfBrand,
  click,
  decide,
  decisionIdOf,
  onlyCampaign,
  publisherId,
  showOneAdOnly,
  view,
  blogAndTwoCampaigns,
} from '../../../test/serve-support.ts';
import { chromeLike, expectConsistent, one, trustChecks, written } from '../../../test/trust-support.ts';
import { DAILY_LEDGER_JOB } from '../revenue-ledger/daily-ledger.ts';
import { DEFAULT_TRAFFIC_LIMITS } from './traffic-filter.ts';
import { utcDay } from './visitor.ts';

/*
 * Issue 21, point 2 ("Trust"): what an address counted before one of its rules tripped (visitors a minute, the
 * one-IP share) is set aside afterwards. Each test checks what stays billed: the campaign's credits and the day's
 * money move by what is billed only, the summaries agree with the event rows that are not set aside, a set-aside
 * the database refused is written at the next sweep and one after the day is posted not at all, and the daily
 * ledger posts valid traffic. The attack itself and a browser's evidence: serve-trust.test.ts.
 */

let t: TestApp;
let blog: number;
let bikes: number;
let ceramics: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ blog, bikes, ceramics } = await blogAndTwoCampaigns(t.db));
  await showOneAdOnly(t.db, bikes);
  await showOneAdOnly(t.db, ceramics);
});
afterAll(async () => t.close());

const { startOfNextMinute, billing } = trustChecks(() => t);

/** The publisher's impressions of today in its realtime counters and in its daily summary. */
async function publisherImpressions(publisher: number) {
  const day = utcDay(t.clock.now());
  const row = await one<Record<string, string | number>>(
    t,
    sql`select
      (select coalesce(sum(impressions_desktop + impressions_mobile), 0) from realtime_counters
        where publisher_id = ${publisher} and minute >= ${`${day}T00:00:00Z`}::timestamptz) as realtime,
      (select coalesce(sum(impressions), 0) from daily_publisher_stats where publisher_id = ${publisher} and day = ${day}) as daily,
      (select count(*) from ad_impressions where publisher_id = ${publisher} and invalid_reason is null
        and (created_at at time zone 'UTC')::date = ${day}) as rows`,
  );
  return { realtime: Number(row.realtime), daily: Number(row.daily), rows: Number(row.rows) };
}

describe('set aside afterwards: what an address counted before its rule tripped', () => {
  it('moves its impressions out of the cost and the stats, gives the credits back, once, and keeps them aside', async () => {
    await onlyCampaign(t, bikes, { impressions: 1_000 });
    startOfNextMinute();
    const setAsideMetric = async () =>
      (await t.app.ctx.metrics.registry.getSingleMetric('helium_events_set_aside_total')!.get()).values;
    const setAsideBefore = (await setAsideMetric())[0]?.value ?? 0;
    const before = await billing(bikes);
    const publisherBefore = await publisherImpressions(blog);
    // An honest visitor elsewhere: counted, and stays so.
    const honest = { ip: '10.210.0.1' };
    const { ads: honestAds } = await decide(t, blog, honest);
    expect((await view(t, honestAds[0]!.view, honest, 1_000)).headers['x-helium-counted']).toBe('counted');
    // Five visitors from one office address, each viewing an ad: counted.
    const office = '203.0.113.50';
    const officeDecisions: string[] = [];
    for (let index = 0; index < 5; index++) {
      const visitor = { ip: office, ua: chromeLike(2_000 + index) };
      const { ads } = await decide(t, blog, visitor);
      officeDecisions.push(decisionIdOf(ads[0]!));
      expect((await view(t, ads[0]!.view, visitor, 1_000)).headers['x-helium-counted']).toBe('counted');
    }
    const counted = await billing(bikes);
    expect(counted.impressions).toBe(before.impressions + 6);
    expect(counted.remainingImpressions).toBe(before.remainingImpressions - 6);
    // Then sixteen more user agents within the minute: the 21st visitor of the address trips the rule.
    const pending: Array<{ token: string; ua: string }> = [];
    for (let index = 5; index < 21; index++) {
      const { response, ads } = await decide(t, blog, { ip: office, ua: chromeLike(2_000 + index) });
      const expected = index < 20 ? 'counted' : 'invalid';
      expect(response.headers['x-helium-counted']).toBe(expected);
      if (ads[0]) pending.push({ token: ads[0].view, ua: chromeLike(2_000 + index) });
    }
    await written(t);
    const after = await billing(bikes);
    // Only the honest visitor's impression is billed: the office's five left the cost, the publisher's revenue,
    // the summaries and the realtime counters, and their credits came back.
    expect(after.impressions).toBe(before.impressions + 1);
    expect(after.remainingImpressions).toBe(before.remainingImpressions - 1);
    const honestCost = await t.db
      .select({ cost: adImpressions.cost, revenue: adImpressions.publisherRevenue })
      .from(adImpressions)
      .where(eq(adImpressions.decisionId, decisionIdOf(honestAds[0]!)));
    expect(after.cost).toBe(before.cost + honestCost[0]!.cost);
    expect(after.revenue).toBe(before.revenue + honestCost[0]!.revenue);
    expectConsistent(after);
    const publisherAfter = await publisherImpressions(blog);
    expect(publisherAfter.daily).toBe(publisherBefore.daily + 1);
    expect(publisherAfter.realtime).toBe(publisherBefore.realtime + 1);
    expect(publisherAfter.daily).toBe(publisherAfter.rows);
    // Kept, not deleted: the rows stay with their reason, and are in invalid_traffic.
    const kept = await t.db
      .select({ id: adImpressions.decisionId, reason: adImpressions.invalidReason })
      .from(adImpressions)
      .where(sql`${adImpressions.decisionId} in ${officeDecisions}`);
    expect(kept.map((row) => row.reason)).toEqual(Array(5).fill('ipVisitors'));
    const aside = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invalidTraffic)
      .where(
        and(
          eq(invalidTraffic.kind, 'impression'),
          eq(invalidTraffic.reason, 'ipVisitors'),
          sql`${invalidTraffic.decisionId} in ${officeDecisions}`,
        ),
      );
    expect(aside[0]!.n).toBe(5);
    // And in the metrics, by the rule that tripped.
    expect(await setAsideMetric()).toEqual([
      { labels: { kind: 'impression', reason: 'ipVisitors' }, value: setAsideBefore + 5 },
    ]);
    // Once: the same set-aside again, twice at once, reverses nothing more.
    const again = await Promise.all(
      [1, 2].map(() =>
        one<{ reversed: unknown }>(
          t,
          sql`select set_aside_traffic(${JSON.stringify(officeDecisions)}::json, '[]'::json, 'ipVisitors', now()) as reversed`,
        ),
      ),
    );
    for (const { reversed } of again) {
      expect(typeof reversed === 'string' ? JSON.parse(reversed) : reversed).toEqual([]);
    }
    expect(await billing(bikes)).toEqual(after);
    // The address's traffic is invalid from then on: the views of its decisions served before the rule tripped,
    // from there or from elsewhere, and its new pageviews.
    expect(
      (await view(t, pending[0]!.token, { ip: office, ua: pending[0]!.ua }, 1_000)).headers['x-helium-counted'],
    ).toBe('invalid');
    expect(
      (await view(t, pending[1]!.token, { ip: '10.210.0.2', ua: pending[1]!.ua }, 1_000)).headers['x-helium-counted'],
    ).toBe('invalid');
    expect((await decide(t, blog, { ip: office })).response.headers['x-helium-counted']).toBe('invalid');
    await written(t);
    expect((await billing(bikes)).impressions).toBe(after.impressions);
  });

  it("moves a CPC campaign's unique clicks out of the cost, gives the clicks back, and lets no lead of them count", async () => {
    await onlyCampaign(t, ceramics, { clicks: 100 });
    startOfNextMinute();
    const before = await billing(ceramics);
    const address = '203.0.113.60';
    const clickIds: string[] = [];
    for (let index = 0; index < 3; index++) {
      const visitor = { ip: address, ua: chromeLike(3_000 + index) };
      const { ads } = await decide(t, blog, visitor);
      const clicked = await click(t, ads[0]!.click, visitor);
      expect(clicked.headers['x-helium-counted']).toBe('unique');
      clickIds.push(new URL(String(clicked.headers.location)).searchParams.get('hclid')!);
    }
    const counted = await billing(ceramics);
    expect(counted.clicks).toBe(before.clicks + 3);
    expect(counted.remainingClicks).toBe(before.remainingClicks - 3);
    expect(counted.cost).toBeGreaterThan(before.cost);
    // A lead of the first click, reported before the rule trips, counts (it is no billing).
    const pixel = (clickId: string) =>
      t.app.inject({ method: 'GET', url: `/serve/l?hclid=${clickId}`, remoteAddress: '127.0.0.1' });
    expect((await pixel(clickIds[0]!)).headers['x-helium-counted']).toBe('counted');
    let lastAds: Awaited<ReturnType<typeof decide>>['ads'] = [];
    for (let index = 3; index < 21; index++) {
      lastAds = (await decide(t, blog, { ip: address, ua: chromeLike(3_000 + index) })).ads;
    }
    expect(lastAds).toEqual([]);
    await written(t);
    const after = await billing(ceramics);
    expect(after.clicks).toBe(before.clicks);
    expect(after.cost).toBe(before.cost);
    expect(after.revenue).toBe(before.revenue);
    expect(after.remainingClicks).toBe(before.remainingClicks);
    expectConsistent(after);
    const kept = await t.db
      .select({ reason: adClicks.invalidReason, isUnique: adClicks.isUnique })
      .from(adClicks)
      .where(sql`${adClicks.id} in ${clickIds}`);
    expect(kept).toEqual(Array(3).fill({ reason: 'ipVisitors', isUnique: true }));
    // A lead of a click set aside counts nothing; a click from the address now neither.
    expect((await pixel(clickIds[1]!)).headers['x-helium-counted']).toBe('ignored');
    const { ads } = await decide(t, blog, { ip: '10.211.0.1' });
    expect((await click(t, ads[0]!.click, { ip: address, ua: chromeLike(3_100) })).headers['x-helium-counted']).toBe(
      'invalid',
    );
  });
});

describe('the daily revenue ledger', () => {
  it("posts the day's valid traffic only: what was set aside is not in the publisher's revenue", async () => {
    const day = utcDay(t.clock.now());
    const billed = await one<{ revenue: string; impressions: string; setAside: string }>(
      t,
      sql`select
        (select coalesce(sum(publisher_revenue), 0) from (
          select publisher_revenue from ad_impressions where publisher_id = ${blog} and invalid_reason is null
            and (created_at at time zone 'UTC')::date = ${day}
          union all
          select publisher_revenue from ad_clicks where publisher_id = ${blog} and invalid_reason is null
            and (created_at at time zone 'UTC')::date = ${day}) as valid) as revenue,
        (select count(*) from ad_impressions where publisher_id = ${blog} and invalid_reason is null
          and (created_at at time zone 'UTC')::date = ${day}) as impressions,
        (select coalesce(sum(publisher_revenue), 0) from (
          select publisher_revenue from ad_impressions where publisher_id = ${blog} and invalid_reason is not null
          union all
          select publisher_revenue from ad_clicks where publisher_id = ${blog} and invalid_reason is not null) as aside)
          as "setAside"`,
    );
    expect(Number(billed.setAside)).toBeGreaterThan(0);
    // The day closes 5 minutes after its midnight.
    const now = t.clock.now().getTime();
    t.clock.advance(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS + 6 * MINUTE_MS - now);
    await t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB);
    const [entry] = await t.db
      .select({ amount: ledgerEntries.amount, impressions: ledgerEntries.impressions })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.kind, 'revenue'),
          eq(ledgerEntries.accountType, 'publisher'),
          eq(ledgerEntries.accountId, blog),
          eq(ledgerEntries.day, day),
        ),
      );
    expect(entry).toEqual({ amount: Number(billed.revenue), impressions: Number(billed.impressions) });
    // Once posted, the day is final: a set-aside of it comes too late and changes nothing.
    const [valid] = await t.db
      .select({ id: adImpressions.decisionId })
      .from(adImpressions)
      .where(and(eq(adImpressions.publisherId, blog), sql`${adImpressions.invalidReason} is null`))
      .orderBy(sql`${adImpressions.createdAt} desc`)
      .limit(1);
    const late = await one<{ reversed: unknown }>(
      t,
      sql`select set_aside_traffic(${JSON.stringify([valid!.id])}::json, '[]'::json, 'ipVisitors', now()) as reversed`,
    );
    expect(typeof late.reversed === 'string' ? JSON.parse(late.reversed) : late.reversed).toEqual([]);
  });
});

describe('a set-aside the database could not write', () => {
  /** Makes the database refuse any decrement of daily_ad_stats (a set-aside), until the returned function is called. */
  async function refuseSetAsides(): Promise<() => Promise<void>> {
    await t.db.execute(
      sql.raw(`create or replace function helium_test_refuse() returns trigger language plpgsql as $$
        begin if new.impressions < old.impressions then raise exception 'refused for the test'; end if; return new; end $$`),
    );
    await t.db.execute(
      sql.raw(
        'create trigger helium_test_refuse before update on daily_ad_stats for each row execute function helium_test_refuse()',
      ),
    );
    return async () => {
      await t.db.execute(sql.raw('drop trigger helium_test_refuse on daily_ad_stats'));
    };
  }

  /** Two views counted from `address`, then the minute's 21st user agent from it: answers their decisions. */
  async function countThenTrip(address: string, first: number): Promise<string[]> {
    startOfNextMinute();
    const decisions: string[] = [];
    for (let index = 0; index < 21; index++) {
      const visitor = { ip: address, ua: chromeLike(first + index) };
      const { ads } = await decide(t, blog, visitor);
      if (index < 2) {
        decisions.push(decisionIdOf(ads[0]!));
        expect((await view(t, ads[0]!.view, visitor, 1_000)).headers['x-helium-counted']).toBe('counted');
      }
    }
    await written(t);
    return decisions;
  }

  async function reasons(decisions: string[]) {
    const rows = await t.db
      .select({ reason: adImpressions.invalidReason })
      .from(adImpressions)
      .where(sql`${adImpressions.decisionId} in ${decisions}`);
    return rows.map((row) => row.reason);
  }

  it('is tried again at the next sweep, and written once', async () => {
    await onlyCampaign(t, bikes, { impressions: 1_000 });
    const before = await billing(bikes);
    const allow = await refuseSetAsides();
    const decisions = await countThenTrip('203.0.113.80', 5_000);
    // Refused: still billed, in the database as in memory.
    const refused = await billing(bikes);
    expect(refused.impressions).toBe(before.impressions + 2);
    expectConsistent(refused);
    expect(await reasons(decisions)).toEqual([null, null]);
    await allow();
    t.app.delivery.sweep();
    await written(t);
    const after = await billing(bikes);
    expect(after.impressions).toBe(before.impressions);
    expect(after.remainingImpressions).toBe(before.remainingImpressions);
    expectConsistent(after);
    expect(await reasons(decisions)).toEqual(['ipVisitors', 'ipVisitors']);
    t.app.delivery.sweep();
    await written(t);
    expect(await billing(bikes)).toEqual(after);
  });
});

describe('a set-aside that comes too late', () => {
  it('is not written once the daily ledger may close its day: a posted day is final', async () => {
    await onlyCampaign(t, bikes, { impressions: 1_000 });
    startOfNextMinute();
    const day = utcDay(t.clock.now());
    await t.db.execute(
      sql.raw(`create or replace function helium_test_refuse() returns trigger language plpgsql as $$
        begin if new.impressions < old.impressions then raise exception 'refused for the test'; end if; return new; end $$`),
    );
    await t.db.execute(
      sql.raw(
        'create trigger helium_test_refuse before update on daily_ad_stats for each row execute function helium_test_refuse()',
      ),
    );
    const decisions: string[] = [];
    for (let index = 0; index < 21; index++) {
      const visitor = { ip: '203.0.113.81', ua: chromeLike(6_000 + index) };
      const { ads } = await decide(t, blog, visitor);
      if (index < 2) {
        decisions.push(decisionIdOf(ads[0]!));
        expect((await view(t, ads[0]!.view, visitor, 1_000)).headers['x-helium-counted']).toBe('counted');
      }
    }
    await written(t);
    const billed = await billing(bikes);
    await t.db.execute(sql.raw('drop trigger helium_test_refuse on daily_ad_stats'));
    // 00:04:30 the next day: the ledger closes the day at 00:05; the set-aside tried again now is not written.
    const now = t.clock.now().getTime();
    t.clock.advance(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS + 4.5 * MINUTE_MS - now);
    t.app.delivery.sweep();
    await written(t);
    const rows = await t.db
      .select({ reason: adImpressions.invalidReason })
      .from(adImpressions)
      .where(sql`${adImpressions.decisionId} in ${decisions}`);
    expect(rows.map((row) => row.reason)).toEqual([null, null]);
    const [stats] = await t.db
      .select({ impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int` })
      .from(dailyAdStats)
      .where(and(eq(dailyAdStats.campaignId, bikes), eq(dailyAdStats.day, day)));
    expect(stats!.impressions).toBe(billed.impressions);
    t.app.delivery.sweep();
    await written(t);
  });
});

describe('the one-IP share (5% of a publisher’s visitors of the day)', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await buildTestApp({
      delivery: {
        limits: {
          ...DEFAULT_TRAFFIC_LIMITS,
          oneIpMinVisitors: 20,
          visitorsPerIpPerMinute: 1_000,
          visitorsPerIpPerHour: 1_000,
        },
      },
    });
  });
  afterAll(async () => s.close());

  it('sets aside what an address counted before it tripped the share (today those impressions stayed billed)', async () => {
    const sBlog = await publisherId(s.db, 'Demo Blog');
    const sBikes = await campaignOfBrand(s.db, 'velo-urbain.example');
    await showOneAdOnly(s.db, sBikes);
    await onlyCampaign(s, sBikes, { impressions: 1_000 });
    for (let index = 0; index < 25; index++) await decide(s, sBlog, { ip: `10.220.0.${index + 1}` });
    const before = await billing(sBikes, s);
    const first = { ip: '203.0.113.70', ua: chromeLike(4_000) };
    const { ads } = await decide(s, sBlog, first);
    expect((await view(s, ads[0]!.view, first, 1_000)).headers['x-helium-counted']).toBe('counted');
    expect((await billing(sBikes, s)).impressions).toBe(before.impressions + 1);
    // A second visitor from the address: 2 of 27 visitors (7.4%), beyond the share.
    const second = await decide(s, sBlog, { ip: '203.0.113.70', ua: chromeLike(4_001) });
    expect(second.response.headers['x-helium-counted']).toBe('invalid');
    await written(s);
    const after = await billing(sBikes, s);
    expect(after.impressions).toBe(before.impressions);
    expect(after.remainingImpressions).toBe(before.remainingImpressions);
    expect(after.cost).toBe(before.cost);
    expectConsistent(after);
    const [row] = await s.db
      .select({ reason: adImpressions.invalidReason })
      .from(adImpressions)
      .where(eq(adImpressions.decisionId, decisionIdOf(ads[0]!)));
    expect(row?.reason).toBe('oneIp');
  });
});
