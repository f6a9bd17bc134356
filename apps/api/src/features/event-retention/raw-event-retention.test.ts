import { getTableName, lt, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS, type CallAccess } from '@helium/contracts';
import {
  adClicks,
  adDecisions,
  adImpressions,
  adLeads,
  invalidTraffic,
  pageviews,
  realtimeCounters,
  type Database,
} from '@helium/db';
import { DAY_MS, isoDay } from '@helium/domain';
import { retentionCutoffs } from '@helium/domain/retention';
import { DAILY_LEDGER_JOB } from '../revenue-ledger/daily-ledger.ts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { CALL_SAMPLES, databaseFingerprint, demoIds, type DemoIds } from '../../../test/call-samples.ts';
import { BOT_UA, click, decide, onlyCampaign, publisherId, view } from '../../../test/serve-support.ts';
import { pruneRawEvents, RAW_EVENT_RETENTION_JOB } from './raw-event-retention.ts';

let t: TestApp;
let ids: DemoIds;
let blog: number;

beforeAll(async () => {
  t = await buildTestApp();
  ids = await demoIds(t.db);
  blog = await publisherId(t.db, 'Demo Blog');
});
afterAll(async () => t?.close());

/** Every raw event table with the column its age is read from. */
const RAW_TABLES: Array<[PgTable, PgColumn]> = [
  [pageviews, pageviews.createdAt],
  [adDecisions, adDecisions.createdAt],
  [adImpressions, adImpressions.createdAt],
  [adClicks, adClicks.createdAt],
  [adLeads, adLeads.createdAt],
  [invalidTraffic, invalidTraffic.createdAt],
  [realtimeCounters, realtimeCounters.minute],
];

/** Rows of each raw table older than `before` (all rows without it). */
async function rawRows(db: Database, before?: Date): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [table, createdAt] of RAW_TABLES) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(before ? lt(createdAt, before) : undefined);
    counts[getTableName(table)] = Number(row?.n ?? 0);
  }
  return counts;
}

/**
 * Web traffic of `visitors` visitors from their own addresses: each a pageview whose first ad is viewed, every
 * third clicks it and every sixth of those converts (the lead pixel); and a bot's pageview, set aside.
 */
async function traffic(visitors: number, network: string) {
  for (let index = 0; index < visitors; index++) {
    const visitor = { ip: `${network}.${index + 1}` };
    const { ads } = await decide(t, blog, visitor);
    expect(ads.length).toBeGreaterThan(0);
    expect((await view(t, ads[0]!.view, visitor)).headers['x-helium-counted']).toBe('counted');
    if (index % 3 !== 0) continue;
    const clicked = await click(t, ads[0]!.click, visitor);
    const clickId = new URL(String(clicked.headers.location)).searchParams.get('hclid')!;
    if (index % 6 !== 0) continue;
    const lead = await t.app.inject({ method: 'GET', url: `/serve/l?hclid=${clickId}`, remoteAddress: '127.0.0.1' });
    expect(lead.headers['x-helium-counted']).toBe('counted');
  }
  await decide(t, blog, { ip: `${network}.250`, ua: BOT_UA });
}

/** A signed-in client per role; the call's access says whose. */
const clients = new Map<string, TestClient>();
async function clientFor(access: CallAccess): Promise<TestClient> {
  const email = {
    public: null,
    signedIn: 'publisher@demo.test',
    admin: 'admin@demo.test',
    publisher: 'publisher@demo.test',
    advertiser: 'advertiser@demo.test',
    advertiserOrAdmin: 'advertiser@demo.test',
  }[access];
  if (!email) return t.client();
  let client = clients.get(email);
  if (!client) {
    client = t.client();
    await client.signIn(email);
    clients.set(email, client);
  }
  return client;
}

/**
 * What every screen's read call answers: each call that reads (a `get-` call, the install check), with its sample
 * body and, for those that take a period, one reaching back to the old traffic.
 */
async function everyScreen(oldDay: string, today: string): Promise<Record<string, unknown>> {
  const reads = API_CALLS.filter((call) => /\/get-|\/check-install$/.test(call.path));
  const wider: Record<string, unknown> = {
    '/api/admin/get-invalid-traffic': { days: 90 },
    '/api/advertiser/get-campaign-countries': { campaignId: ids.campaignId, from: oldDay, to: today },
  };
  const answers: Record<string, unknown> = {};
  for (const call of reads) {
    const sample = CALL_SAMPLES[call.path];
    expect(sample, call.path).toBeDefined();
    const bodies = [sample!.body(ids), ...(call.path in wider ? [wider[call.path]] : [])];
    for (const [index, body] of bodies.entries()) {
      const response = await (await clientFor(call.access)).post(call.path, body);
      answers[`${call.path}#${index}`] = { status: response.statusCode, body: response.json() as unknown };
    }
  }
  return answers;
}

describe('raw event retention (RAW_EVENT_DAYS, 90 by default)', () => {
  it('deletes raw rows older than 90 days, keeps the younger ones, and changes nothing any screen shows', async () => {
    await onlyCampaign(t, ids.campaignId, { impressions: 10_000, clicks: 10_000 });
    const oldDay = isoDay(t.clock.now());
    await traffic(9, '198.51.100');
    // 95 days later: the old day is past the 90 kept; then today's traffic.
    t.clock.advance(95 * DAY_MS);
    const today = isoDay(t.clock.now());
    await traffic(6, '203.0.113');
    await t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB);

    const admin = await clientFor('admin');
    const advertiser = await clientFor('advertiser');
    // The screens' longest periods, so that they read the old day's summaries too.
    expect((await admin.post('/api/admin/update-network-settings', { statsDaysAveraged: 365 })).statusCode).toBe(200);
    const range = { campaignId: ids.campaignId, statsExDates: [oldDay, today] };
    expect((await advertiser.post('/api/advertiser/update-stats-ex', range)).statusCode).toBe(200);

    const cutoff = new Date(`${retentionCutoffs(today, 90).events}T00:00:00Z`);
    const all = await rawRows(t.db);
    const old = await rawRows(t.db, cutoff);
    for (const table of ['pageviews', 'ad_decisions', 'ad_impressions', 'ad_clicks', 'ad_leads', 'invalid_traffic']) {
      expect(old[table], table).toBeGreaterThan(0);
      expect(all[table]! - old[table]!, table).toBeGreaterThan(0);
    }
    expect(old.realtime_counters).toBeGreaterThan(0);
    const screens = await everyScreen(oldDay, today);
    // Besides the raw tables, what signing in writes.
    const notCompared = [...Object.keys(all), 'sessions', 'login_codes', 'audit_log'];
    const others = await databaseFingerprint(t.db, notCompared);

    const pruned = (await t.app.ctx.scheduler.runNow(RAW_EVENT_RETENTION_JOB)) as Record<string, number>;

    expect(pruned).toEqual(old);
    const left = await rawRows(t.db);
    for (const [table, count] of Object.entries(all)) expect(left[table], table).toBe(count - old[table]!);
    expect(await rawRows(t.db, cutoff)).toEqual(Object.fromEntries(Object.keys(old).map((table) => [table, 0])));
    expect(await databaseFingerprint(t.db, notCompared)).toEqual(others);
    expect(await everyScreen(oldDay, today)).toEqual(screens);
    // A second run finds nothing more.
    const again = (await t.app.ctx.scheduler.runNow(RAW_EVENT_RETENTION_JOB)) as Record<string, number>;
    expect(Object.values(again).every((count) => count === 0)).toBe(true);
  });

  it('deletes in chunks; keeps invalid traffic 90 days and realtime counters 2 days whatever RAW_EVENT_DAYS; stops when asked', async () => {
    const now = t.clock.now();
    const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const visitorOf = (index: number) => ({ publisherId: blog, device: 'desktop' as const, visitor: `v${index}` });
    await t.db.insert(pageviews).values(
      Array.from({ length: 10 }, (_, index) => ({
        id: `retention-pv-${index}`,
        ...visitorOf(index),
        createdAt: daysAgo(45),
      })),
    );
    await t.db.insert(pageviews).values({ id: 'retention-pv-young', ...visitorOf(99), createdAt: daysAgo(30) });
    await t.db.insert(invalidTraffic).values([
      { kind: 'pageview', reason: 'bot', publisherId: blog, createdAt: daysAgo(60) },
      { kind: 'pageview', reason: 'bot', publisherId: blog, createdAt: daysAgo(91) },
    ]);
    await t.db.insert(realtimeCounters).values([
      { publisherId: blog, minute: daysAgo(3), pageviewsDesktop: 1 },
      { publisherId: blog, minute: new Date(now.getTime() - 3_600_000), pageviewsDesktop: 1 },
    ]);
    const before = await rawRows(t.db);

    const stopped = new AbortController();
    stopped.abort();
    const nothing = await pruneRawEvents(t.db, { now, rawEventDays: 40, chunkRows: 3, signal: stopped.signal });
    expect(Object.values(nothing).every((count) => count === 0)).toBe(true);
    expect(await rawRows(t.db)).toEqual(before);

    const pruned = await pruneRawEvents(t.db, { now, rawEventDays: 40, chunkRows: 3 });
    expect(pruned).toMatchObject({ pageviews: 10, invalid_traffic: 1, realtime_counters: 1 });
    const after = await rawRows(t.db);
    expect(after).toEqual({
      ...before,
      pageviews: before.pageviews! - 10,
      invalid_traffic: before.invalid_traffic! - 1,
      realtime_counters: before.realtime_counters! - 1,
    });
  });
});
