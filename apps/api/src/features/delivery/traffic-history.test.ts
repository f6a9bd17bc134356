import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ads,
  advertisers,
  campaigns,
  dailyAdStats,
  dailyPublisherStats,
  dailyUrlStats,
  publishers,
  realtimeCounters,
  type Database,
} from '@helium/db';
import { DEMO_RECIPE_PLACEMENT } from '@helium/db/seed/delivery';
import { HISTORY_DAYS } from '@helium/db/seed/history';
import { createTestDatabase } from '../../../test/test-database.ts';
import { DAY_MS } from '@helium/domain';

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;

const dayOf = (back: number) => new Date(Date.now() - back * DAY_MS).toISOString().slice(0, 10);
const int = (column: unknown) => sql<number>`coalesce(sum(${column}), 0)::bigint`;

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
}, 60_000);
afterAll(async () => handle?.drop());

describe('demo traffic history (seed)', () => {
  it('covers the 30 full days up to yesterday, leaving today to the engine', async () => {
    const days = await db.selectDistinct({ day: dailyAdStats.day }).from(dailyAdStats).orderBy(dailyAdStats.day);
    expect(days.map((row) => row.day)).toEqual(
      Array.from({ length: HISTORY_DAYS }, (_, index) => dayOf(HISTORY_DAYS - index)),
    );
    const publisherDays = await db.selectDistinct({ day: dailyPublisherStats.day }).from(dailyPublisherStats);
    expect(publisherDays.length).toBe(HISTORY_DAYS);
  });

  it("keeps each publisher's daily totals equal to the sum of its ads' figures", async () => {
    const byAds = await db
      .select({
        day: dailyAdStats.day,
        publisherId: dailyAdStats.publisherId,
        device: dailyAdStats.device,
        served: int(dailyAdStats.served),
        impressions: int(dailyAdStats.impressions),
        clicks: int(dailyAdStats.clicks),
      })
      .from(dailyAdStats)
      .groupBy(dailyAdStats.day, dailyAdStats.publisherId, dailyAdStats.device);
    const rows = await db.select().from(dailyPublisherStats);
    const key = (row: { day: string; publisherId: number; device: string }) =>
      `${row.day}|${row.publisherId}|${row.device}`;
    const daily = new Map(rows.map((row) => [key(row), row]));
    expect(byAds.length).toBeGreaterThan(100);
    for (const row of byAds) {
      const publisher = daily.get(key(row));
      expect(publisher).toBeDefined();
      expect([publisher!.served, publisher!.impressions, publisher!.clicks]).toEqual([
        Number(row.served),
        Number(row.impressions),
        Number(row.clicks),
      ]);
    }
    // Pageviews: mostly valid, a few bots set aside; impressions are a share of what was served.
    const [sums] = await db
      .select({
        pageviews: int(dailyPublisherStats.pageviews),
        invalid: int(dailyPublisherStats.invalidPageviews),
        served: int(dailyPublisherStats.served),
        impressions: int(dailyPublisherStats.impressions),
      })
      .from(dailyPublisherStats);
    expect(Number(sums!.invalid) / Number(sums!.pageviews)).toBeGreaterThan(0.01);
    expect(Number(sums!.invalid) / Number(sums!.pageviews)).toBeLessThan(0.06);
    expect(Number(sums!.impressions)).toBeLessThan(Number(sums!.served));
  });

  it('splits pages and ads by URL consistently with the daily totals', async () => {
    const [pages] = await db
      .select({ pageviews: int(dailyUrlStats.pageviews) })
      .from(dailyUrlStats)
      .where(eq(dailyUrlStats.adId, 0));
    const [daily] = await db.select({ pageviews: int(dailyPublisherStats.pageviews) }).from(dailyPublisherStats);
    expect(Number(pages!.pageviews)).toBe(Number(daily!.pageviews));
    const [web] = await db
      .select({
        impressions: int(dailyAdStats.impressions),
        clicks: int(dailyAdStats.clicks),
        cost: int(dailyAdStats.cost),
      })
      .from(dailyAdStats)
      .where(eq(dailyAdStats.channel, 'web'));
    const [byUrl] = await db
      .select({
        impressions: int(dailyUrlStats.impressions),
        clicks: int(dailyUrlStats.clicks),
        cost: int(dailyUrlStats.cost),
      })
      .from(dailyUrlStats);
    expect(byUrl).toEqual(web);
  });

  it('gives ads a CTR spread between 0.1% and 2%, and money that adds up', async () => {
    const perAd = await db
      .select({ adId: dailyAdStats.adId, impressions: int(dailyAdStats.impressions), clicks: int(dailyAdStats.clicks) })
      .from(dailyAdStats)
      .groupBy(dailyAdStats.adId);
    const ctrs = perAd.map((row) => Number(row.clicks) / Number(row.impressions));
    expect(ctrs.length).toBeGreaterThanOrEqual(4);
    for (const ctr of ctrs) {
      expect(ctr).toBeGreaterThan(0.0005);
      expect(ctr).toBeLessThan(0.025);
    }
    expect(Math.max(...ctrs) / Math.min(...ctrs)).toBeGreaterThan(2);
    const [money] = await db
      .select({
        cost: int(dailyAdStats.cost),
        parts: sql<number>`coalesce(sum(${dailyAdStats.publisherRevenue} + ${dailyAdStats.salesRepRevenue} + ${dailyAdStats.companyRevenue}), 0)::bigint`,
        trial: int(dailyAdStats.trialCost),
      })
      .from(dailyAdStats);
    expect(Number(money!.cost) + Number(money!.trial)).toBe(Number(money!.parts));
    expect(Number(money!.cost)).toBeGreaterThan(0);
  });

  it("serves only the formats of a publisher's placements", async () => {
    const [recipes] = await db.select().from(publishers).where(eq(publishers.brand, 'Cuisine Facile'));
    const formats = await db
      .selectDistinct({ formatId: ads.formatId })
      .from(dailyAdStats)
      .innerJoin(ads, eq(ads.id, dailyAdStats.adId))
      .where(eq(dailyAdStats.publisherId, recipes!.id));
    expect(formats.map((row) => row.formatId)).toEqual([...DEMO_RECIPE_PLACEMENT.formatIds]);
  });

  it("spends the campaigns' credits on what was delivered", async () => {
    const [nordvik] = await db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.advertiserId, nordvik!.id)).limit(1);
    const [delivered] = await db
      .select({ impressions: int(dailyAdStats.impressions) })
      .from(dailyAdStats)
      .where(eq(dailyAdStats.campaignId, campaign!.id));
    expect(Number(delivered!.impressions)).toBeGreaterThan(0);
    expect(campaign!.remainingImpressions + Number(delivered!.impressions)).toBe(400_000);
    for (const row of await db.select().from(campaigns)) {
      expect(row.remainingImpressions).toBeGreaterThanOrEqual(0);
      expect(row.remainingClicks).toBeGreaterThanOrEqual(0);
    }
  });

  it("fills the realtime counters of the last full day with that day's figures", async () => {
    const [blog] = await db.select().from(publishers).where(eq(publishers.brand, 'Demo Blog'));
    const yesterday = dayOf(1);
    const start = new Date(`${yesterday}T00:00:00Z`);
    const [minutes] = await db
      .select({
        pageviews: sql<number>`coalesce(sum(${realtimeCounters.pageviewsDesktop} + ${realtimeCounters.pageviewsMobile}), 0)::bigint`,
        impressions: sql<number>`coalesce(sum(${realtimeCounters.impressionsDesktop} + ${realtimeCounters.impressionsMobile}), 0)::bigint`,
        count: sql<number>`count(*)::int`,
      })
      .from(realtimeCounters)
      .where(
        and(
          eq(realtimeCounters.publisherId, blog!.id),
          gte(realtimeCounters.minute, start),
          lt(realtimeCounters.minute, new Date(start.getTime() + DAY_MS)),
        ),
      );
    const [daily] = await db
      .select({ pageviews: int(dailyPublisherStats.pageviews), impressions: int(dailyPublisherStats.impressions) })
      .from(dailyPublisherStats)
      .where(and(eq(dailyPublisherStats.publisherId, blog!.id), eq(dailyPublisherStats.day, yesterday)));
    expect(Number(minutes!.pageviews)).toBe(Number(daily!.pageviews));
    expect(Number(minutes!.impressions)).toBe(Number(daily!.impressions));
    // Spread over the day's minutes, not lumped into a few: a quiet day (a Sunday) has fewer pageviews than
    // minutes, so the bound follows the day's volume.
    const pageviews = Number(daily!.pageviews);
    expect(pageviews).toBeGreaterThan(100);
    expect(Number(minutes!.count)).toBeGreaterThan(Math.min(1440, pageviews) / 2);
  });
});
