import { migrateDatabase, openDatabase } from '@helium/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AdRef, DeliveryEvent, EventMoney } from './events.ts';
import {
  BATCH_PARAMETERS,
  adClickRows,
  campaignCreditRows,
  dailyAdStatsRows,
  dailyPublisherStatsRows,
  dailyUrlStatsRows,
  installHeartbeatRows,
  installedPublisherIds,
  invalidTrafficRows,
  realtimeCounterRows,
  writeBatch,
} from './store.ts';

/*
 * The store's row builders: the rules of what a batch's events count where. That the rows reach the tables is
 * the serving tests' subject (serve-counting and others); that the stored function's columns match the schema
 * is packages/db/test/record-delivery-batch.test.ts's.
 */

const at = new Date('2026-11-25T10:00:30.000Z');
const money: EventMoney = { cost: 100, publisherRevenue: 60, salesRepRevenue: 5, companyRevenue: 35, trialCost: 0 };
const adRef = (overrides: Partial<AdRef> = {}): AdRef => ({
  publisherId: 1,
  adId: 2,
  campaignId: 3,
  advertiserId: 4,
  channel: 'web',
  device: 'desktop',
  url: 'https://news.example/a',
  ...overrides,
});
const pageview = (overrides: Partial<Extract<DeliveryEvent, { t: 'pageview' }>> = {}): DeliveryEvent => ({
  t: 'pageview',
  id: 'p1',
  publisherId: 1,
  device: 'desktop',
  url: 'https://news.example/a',
  visitor: 'v1',
  invalidReason: null,
  at,
  ...overrides,
});
const impression = (spendsCredit = true, overrides: Partial<AdRef> = {}): DeliveryEvent => ({
  t: 'impression',
  decisionId: 'd1',
  spendsCredit,
  money,
  at,
  ...adRef(overrides),
});
const click = (isUnique: boolean, spendsCredit = isUnique, overrides: Partial<AdRef> = {}): DeliveryEvent => ({
  t: 'click',
  id: isUnique ? 'c1' : 'c2',
  decisionId: 'd1',
  visitor: 'v1',
  isUnique,
  spendsCredit,
  money: isUnique ? money : { cost: 0, publisherRevenue: 0, salesRepRevenue: 0, companyRevenue: 0, trialCost: 0 },
  at,
  ...adRef(overrides),
});
const heartbeat = (host: string, installs: boolean, seconds: number): DeliveryEvent => ({
  t: 'heartbeat',
  publisherId: 1,
  host,
  installs,
  at: new Date(at.getTime() + seconds * 1000),
});

describe('the store of delivery events', () => {
  it("sends each table's rows as the stored function's parameter of that name, in its order", async () => {
    const handle = await openDatabase();
    try {
      await migrateDatabase(handle);
      const result = await handle.db.execute(
        sql`select pg_get_function_identity_arguments('record_delivery_batch'::regproc) as arguments`,
      );
      const [row] = (result as unknown as { rows: Array<{ arguments: string }> }).rows;
      expect(row!.arguments.split(', ')).toEqual(BATCH_PARAMETERS.map(([name]) => `${name} json`));
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('calls the database only for a batch with something to write, with null for a table without rows', async () => {
    const calls: Array<Array<string | null>> = [];
    const executePrepared = async (_statement: unknown, values: Array<string | null>) => void calls.push(values);
    await writeBatch(executePrepared, []);
    expect(calls).toEqual([]);
    await writeBatch(executePrepared, [heartbeat('news.example', false, 0)]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.map((value, index) => (value === null ? null : BATCH_PARAMETERS[index]![0]))).toEqual(
      BATCH_PARAMETERS.map(([name]) => (name === 'heartbeat_rows' ? name : null)),
    );
  });

  it("counts an invalid pageview only in its publisher's invalid pageviews", () => {
    const events = [pageview(), pageview({ id: 'p2', invalidReason: 'bot', device: 'mobile' })];
    expect(dailyPublisherStatsRows(events)).toEqual([
      { day: '2026-11-25', publisherId: 1, device: 'desktop', pageviews: 1 },
      { day: '2026-11-25', publisherId: 1, device: 'mobile', invalidPageviews: 1 },
    ]);
    expect(realtimeCounterRows(events)).toEqual([
      { publisherId: 1, minute: '2026-11-25T10:00:00.000Z', pageviewsDesktop: 1 },
    ]);
    expect(dailyUrlStatsRows(events)).toEqual([
      { day: '2026-11-25', publisherId: 1, url: 'https://news.example/a', device: 'desktop', pageviews: 1 },
    ]);
  });

  it('counts every click in allClicks and a unique one also in clicks, with its money', () => {
    const events = [click(true), click(false)];
    expect(dailyAdStatsRows(events)).toEqual([
      expect.objectContaining({ clicks: 1, allClicks: 2, cost: 100, publisherRevenue: 60, companyRevenue: 35 }),
    ]);
    expect(dailyPublisherStatsRows(events)).toEqual([expect.objectContaining({ clicks: 1 })]);
    expect(dailyUrlStatsRows(events)).toEqual([expect.objectContaining({ adId: 2, clicks: 1, cost: 100 })]);
    expect(adClickRows(events).map((row) => row.isUnique)).toEqual([true, false]);
  });

  it("gives an ad event without a page URL its ad's daily row, and no page row", () => {
    const events = [impression(true, { url: '' })];
    expect(dailyAdStatsRows(events)).toEqual([expect.objectContaining({ impressions: 1, cost: 100 })]);
    expect(dailyUrlStatsRows(events)).toEqual([]);
  });

  it('spends credits per campaign only for the events that spend one', () => {
    const events = [
      impression(true),
      impression(false),
      click(true, true, { campaignId: 9 }),
      click(false, false),
      impression(true),
    ];
    expect(campaignCreditRows(events)).toEqual([
      { id: 3, impressions: 2, clicks: 0 },
      { id: 9, impressions: 0, clicks: 1 },
    ]);
  });

  it('gives every summary and the credits their rows in key order, whatever the order of the events', () => {
    // Two instances' batches then update shared rows in the same order: they wait for each other, never deadlock.
    const events = [
      impression(true, { campaignId: 9, adId: 7, publisherId: 5 }),
      pageview({ publisherId: 5 }),
      impression(true, { campaignId: 3, adId: 2, publisherId: 1 }),
      pageview({ publisherId: 1, device: 'mobile' }),
    ];
    for (const build of [
      campaignCreditRows,
      dailyAdStatsRows,
      dailyPublisherStatsRows,
      dailyUrlStatsRows,
      realtimeCounterRows,
    ] as const) {
      expect(build([...events].reverse()), build.name).toEqual(build(events));
    }
    expect(campaignCreditRows(events).map((row) => row.id)).toEqual([3, 9]);
  });

  it("keeps a host's last heartbeat, each installed publisher once, and an invalid hit's first 500 characters of user agent", () => {
    const events = [
      heartbeat('news.example', true, 0),
      heartbeat('newsletter', true, 1),
      heartbeat('news.example', false, 2),
    ];
    expect(installHeartbeatRows(events)).toEqual([
      { publisherId: 1, host: 'news.example', lastSeenAt: '2026-11-25T10:00:32.000Z' },
      { publisherId: 1, host: 'newsletter', lastSeenAt: '2026-11-25T10:00:31.000Z' },
    ]);
    expect(installedPublisherIds(events)).toEqual([1]);
    const invalid: DeliveryEvent = {
      t: 'invalid',
      kind: 'pageview',
      reason: 'bot',
      publisherId: 1,
      adId: null,
      decisionId: null,
      visitor: null,
      userAgent: 'x'.repeat(600),
      device: 'desktop',
      at,
    };
    expect(invalidTrafficRows([invalid])[0]!.userAgent).toHaveLength(500);
  });
});
