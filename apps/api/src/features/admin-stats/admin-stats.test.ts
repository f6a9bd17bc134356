import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import {
  dailyAdStats,
  dailyPublisherStats,
  dailyUrlStats,
  ledgerEntries,
  networkSettings,
  publishers,
  users,
} from '@helium/db';
import type { TAdminStats } from '@helium/contracts';
import { DAY_MS } from '@helium/domain';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';

/*
 * Admin Stats on the demo data (a history of closed days) plus rows each test writes for publishers of its own:
 * the split reconciles with what advertisers were charged, trial costs come off the company, the 60 % rule and
 * the balance against the minimum, and only admins may call it.
 */

let t: TestApp;
let admin: TestClient;
const CALL = '/api/admin/get-stats';
const dayFromToday = (days: number) => new Date(t.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);

async function stats(body: object = {}): Promise<TAdminStats> {
  const response = await admin.post(CALL, body);
  expect(response.statusCode).toBe(200);
  return response.json<TAdminStats>();
}

/** A web publisher of the demo publisher user, with its own minimum balance. */
async function addPublisher(brand: string, minBalanceForPayout: number) {
  const [owner] = await t.db.select().from(users).where(eq(users.email, 'publisher@demo.test'));
  const [row] = await t.db
    .insert(publishers)
    .values({ userId: owner!.id, brand, isWeb: true, isInstalled: true, minBalanceForPayout })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
}, 60_000);

afterAll(async () => t?.close());

describe('admin stats: revenue', () => {
  it('splits every day of the window into h + p + s = what advertisers were charged, to the micro-euro and cent', async () => {
    const answer = await stats();
    expect(answer.BACK_DAYS_TO_ANALYZE).toBe(7);
    expect(answer.revenues).toHaveLength(7);
    expect(answer.revenues.at(-1)!.day).toBe(dayFromToday(-1));
    const rows = await t.db
      .select({
        day: dailyAdStats.day,
        cost: sql<string>`sum(${dailyAdStats.cost})`.mapWith(Number),
        parts:
          sql<string>`sum(${dailyAdStats.companyRevenue} - ${dailyAdStats.trialCost} + ${dailyAdStats.publisherRevenue} + ${dailyAdStats.salesRepRevenue})`.mapWith(
            Number,
          ),
      })
      .from(dailyAdStats)
      .where(and(gte(dailyAdStats.day, answer.revenues[0]!.day), lte(dailyAdStats.day, dayFromToday(-1))))
      .groupBy(dailyAdStats.day);
    const charged = new Map(rows.map((row) => [row.day, row]));
    // The demo history has money on the days shown.
    expect(rows.some((row) => row.cost > 0)).toBe(true);
    for (const day of answer.revenues) {
      const cents = (euros: number) => Math.round(euros * 100);
      const stored = charged.get(day.day) ?? { cost: 0, parts: 0 };
      expect(stored.parts).toBe(stored.cost);
      expect(cents(day.charged)).toBe(Math.round(stored.cost / 10_000));
      expect(cents(day.parts.h) + cents(day.parts.p) + cents(day.parts.s)).toBe(cents(day.charged));
      expect(day.parts.total).toBe(day.charged);
    }
    for (const parts of [answer.revenue.yesterday, answer.revenue.projectedMonthly]) {
      expect(Math.round(parts.h * 100) + Math.round(parts.p * 100) + Math.round(parts.s * 100)).toBe(
        Math.round(parts.total * 100),
      );
    }
    expect(answer.revenue.yesterday).toEqual(answer.revenues.at(-1)!.parts);
    expect(answer.totalRev).toBeCloseTo(answer.heliumRev + answer.publishersRev + answer.salesRepsRev, 2);
    // Projected monthly = the daily average x 30 (within the cents of rounding).
    expect(Math.abs(answer.revenue.projectedMonthly.total - answer.totalRev * 30)).toBeLessThan(0.31);
  });

  it("subtracts trial costs from the company's figure, not from what publishers earn", async () => {
    const before = await stats();
    const yesterday = dayFromToday(-1);
    // 10 EUR of trial delivery: the advertiser pays nothing, the publisher gets 7 EUR, the company carries it.
    await t.db.insert(dailyAdStats).values({
      day: yesterday,
      adId: 990_001,
      publisherId: before.publishers[0]!.id,
      device: 'desktop',
      campaignId: 990_001,
      advertiserId: 990_001,
      impressions: 4000,
      cost: 0,
      publisherRevenue: 7_000_000,
      salesRepRevenue: 0,
      companyRevenue: 3_000_000,
      trialCost: 10_000_000,
    });
    const after = await stats();
    const { yesterday: was } = before.revenue;
    const { yesterday: is } = after.revenue;
    expect(is.total).toBeCloseTo(was.total, 2);
    expect(is.p).toBeCloseTo(was.p + 7, 2);
    expect(is.h).toBeCloseTo(was.h - 7, 2);
    expect(is.s).toBeCloseTo(was.s, 2);
    expect(after.revenues.at(-1)!.trialCosts).toBeCloseTo(before.revenues.at(-1)!.trialCosts + 10, 2);
    expect(after.revenue.trialCosts).toBeCloseTo(before.revenue.trialCosts + 10 / 7, 2);
    await t.db.delete(dailyAdStats).where(eq(dailyAdStats.adId, 990_001));
  });
});

describe('admin stats: the web publishers table', () => {
  it('shows the 60 % rule per device and the balance against the minimum', async () => {
    const over = await addPublisher('Stats Over Minimum', 10_000_000);
    const under = await addPublisher('Stats Under Minimum', 50_000_000);
    const yesterday = dayFromToday(-1);
    await t.db.insert(dailyPublisherStats).values([
      { day: yesterday, publisherId: over, device: 'desktop', pageviews: 7000, impressions: 3500, clicks: 70 },
      { day: yesterday, publisherId: over, device: 'mobile', pageviews: 7000, impressions: 4900, clicks: 7 },
    ]);
    await t.db.insert(ledgerEntries).values([
      { accountType: 'publisher', accountId: over, kind: 'adjustment', amount: 20_000_000 },
      { accountType: 'publisher', accountId: under, kind: 'adjustment', amount: 20_000_000 },
    ]);
    await t.db.insert(dailyUrlStats).values([
      { day: yesterday, publisherId: over, url: 'https://over.test/a', device: 'desktop', pageviews: 600 },
      { day: yesterday, publisherId: over, url: 'https://over.test/a', device: 'desktop', adId: 5, impressions: 250 },
      { day: yesterday, publisherId: over, url: 'https://over.test/b', device: 'desktop', pageviews: 900 },
    ]);

    const answer = await stats({ sortBy: 'brand' });
    const row = answer.publishers.find((publisher) => publisher.id === over)!;
    expect(row.performance).toMatchObject({
      perfs_pageviews_desktop: 1000,
      perfs_validated_impressions_desktop: 500,
      perfs_validated_impressions_mobile: 700,
      perfs_clicks_desktop: 10,
      perfs_clicks_mobile: 1,
      validatedDesktopPct: 50,
      validatedMobilePct: 70,
      missingValidatedDesktopPct: 10,
      missingValidatedMobilePct: 0,
      mostFrequentUrlsDesktop: [],
    });
    expect(row.allValidatedImpressions).toBe(1200);
    expect(row).toMatchObject({
      balance: 20,
      min_balance_for_payout: 10,
      isBalanceOverMinimum: true,
      balanceStr: '20.00 €',
    });
    expect(answer.publishers.find((publisher) => publisher.id === under)).toMatchObject({
      balance: 20,
      isBalanceOverMinimum: false,
    });
    const web = answer.publishers.filter((publisher) => publisher.is_web);
    expect(answer.totals.impressionsDesktop).toBe(
      web.reduce((sum, publisher) => sum + publisher.performance.perfs_validated_impressions_desktop, 0),
    );

    const withUrls = await stats({ withUrls: true });
    expect(withUrls.publishers.find((publisher) => publisher.id === over)!.performance.mostFrequentUrlsDesktop).toEqual(
      [
        { href: 'https://over.test/b', pageviews_count: 900, impressions_count: 0, difference: 900 },
        { href: 'https://over.test/a', pageviews_count: 600, impressions_count: 250, difference: 350 },
      ],
    );
  });

  it('answers in French with French figures', async () => {
    const french = t.client();
    await french.signIn('admin@demo.test');
    await french.post('/api/common/update-user', { key: 'locale', value: 'fr' });
    const response = await french.post(CALL, {});
    expect(response.statusCode).toBe(200);
    const answer = response.json<TAdminStats>();
    expect(answer.ctrTotalStr).toMatch(/ %$/);
    expect(answer.buyCpmStr).toMatch(/,\d\d €$/);
  });
});

describe('admin stats: who may call it', () => {
  it('refuses publishers and advertisers (403) and signed-out callers (401), and bad input (422)', async () => {
    const publisher = await signedInPublisher(t);
    expect((await publisher.post(CALL, {})).statusCode).toBe(403);
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    expect((await advertiser.post(CALL, {})).statusCode).toBe(403);
    expect((await t.client().post(CALL, {})).statusCode).toBe(401);
    expect((await admin.post(CALL, { withUrls: 'yes' })).statusCode).toBe(422);
  });
});

describe('admin stats: the days averaged, a network setting', () => {
  it('averages over the days the settings say; one day is yesterday', async () => {
    const [latest] = await t.db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1);
    const { id: _id, createdAt: _createdAt, ...copy } = latest!;
    await t.db.insert(networkSettings).values({ ...copy, statsDaysAveraged: 1 });
    const answer = await stats();
    expect(answer.BACK_DAYS_TO_ANALYZE).toBe(1);
    expect(answer.revenues.map((day) => day.day)).toEqual([dayFromToday(-1)]);
    expect({ h: answer.heliumRev, p: answer.publishersRev, s: answer.salesRepsRev, total: answer.totalRev }).toEqual(
      answer.revenue.yesterday,
    );
  });
});
