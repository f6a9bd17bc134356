import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZPublisherStatsSchema, type TPublisherStats } from '@helium/contracts';
import { ads, dailyAdStats, ledgerEntries } from '@helium/db';
import { DAY_MS, microsToEuros } from '@helium/domain';
import { shiftDay } from '@helium/domain/activity';
import { formatDate } from '@helium/domain/format';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';
import { click, decide, publisherId, view } from '../../../test/serve-support.ts';
import { utcDay } from '../delivery/visitor.ts';
import { DAILY_LEDGER_JOB } from '../revenue-ledger/daily-ledger.ts';
import { publisherStatsDays, STATS_DAYS } from './publisher-stats.ts';

const STATS = '/api/publisher/get-stats';

let t: TestApp;
let blog: number;
let newsletter: number;
let cuisine: number;
let rando: number;
/** publisher@demo.test, working as Demo Blog (its account in use). */
let blogClient: TestClient;

const runLedger = () => t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB) as Promise<{ posted: number }>;

async function stats(client: TestClient, body: unknown = {}): Promise<TPublisherStats> {
  const response = await client.post(STATS, body);
  expect(response.statusCode, response.body).toBe(200);
  return ZPublisherStatsSchema.parse(response.json());
}

/** The publisher's revenue entries by day, in micro-euros. */
async function revenueEntries(publisher: number): Promise<Map<string, number>> {
  const rows = await t.db
    .select({ day: ledgerEntries.day, amount: ledgerEntries.amount })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.accountType, 'publisher'),
        eq(ledgerEntries.accountId, publisher),
        eq(ledgerEntries.kind, 'revenue'),
      ),
    );
  return new Map(rows.map((row) => [row.day!, Number(row.amount)]));
}

/** Moves the clock to `hour`:`minute` UTC on the day `days` after the clock's current day. */
function moveTo(days: number, hour: number, minute = 0) {
  const now = t.clock.now().getTime();
  const target = Math.floor(now / DAY_MS) * DAY_MS + days * DAY_MS + (hour * 60 + minute) * 60_000;
  t.clock.advance(target - now);
}

beforeAll(async () => {
  t = await buildTestApp();
  // Yesterday closes 5 minutes after midnight: a run just after midnight starts once it is closed.
  if (t.clock.now().getUTCHours() < 1) moveTo(0, 1);
  blog = await publisherId(t.db, 'Demo Blog');
  newsletter = await publisherId(t.db, 'La Lettre Tech');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  rando = await publisherId(t.db, 'Rando Alpes');
  // The start-up run of the daily ledger, finished (it posts the closed days the seed did not).
  await runLedger();
  blogClient = await signedInPublisher(t);
}, 60_000);
afterAll(async () => t?.close());

describe('get-stats', () => {
  it("answers the web publisher's closed days, newest first, each ad with its figures and device split", async () => {
    const answer = await stats(blogClient);
    expect(answer.publisher).toEqual({ id: blog, brand: 'Demo Blog', isWeb: true, isOwl: false });
    expect(answer.isAnySummaries).toBe(true);
    const today = utcDay(t.clock.now());
    const days = answer.newSummaryDays.map((day) => day.day);
    // The demo history: the 30 days up to yesterday; today is not closed.
    expect(days).toHaveLength(30);
    expect(days[0]).toBe(shiftDay(today, -1));
    expect(days.at(-1)).toBe(shiftDay(today, -30));
    expect([...days].sort().reverse()).toEqual(days);

    for (const day of answer.newSummaryDays) {
      expect(day.dayStr).toBe(formatDate(day.day, 'en'));
      expect(day.owlAds).toEqual([]);
      expect(day.webAds.length).toBeGreaterThan(0);
      expect(day.totalImpressions).toBe(day.webAds.reduce((sum, ad) => sum + ad.impressions, 0));
      for (const line of day.webAds) {
        expect(line.impressions).toBe(line.desktopImpressions + line.mobileImpressions);
        expect(line.clicks).toBe(line.desktopClicks + line.mobileClicks);
        expect(line.ctr).toBeCloseTo(line.impressions > 0 ? (line.clicks / line.impressions) * 100 : 0, 1);
        if (line.impressions > 0) expect(line.desktopImpressionsPct + line.mobileImpressionsPct).toBeCloseTo(100, 0);
        if (line.clicks > 0) expect(line.desktopClicksPct + line.mobileClicksPct).toBeCloseTo(100, 0);
        expect(line.ad.hashId).toBe(t.app.ctx.hashIds.encodeAd(line.ad.id));
        expect(line.ad.image ?? line.ad.mp4).toMatch(/^\/media\//);
      }
      // Ordered by impressions, largest first.
      const impressions = day.webAds.map((line) => line.impressions);
      expect([...impressions].sort((a, b) => b - a)).toEqual(impressions);
    }
    // The demo traffic has both devices.
    const lines = answer.newSummaryDays.flatMap((day) => day.webAds);
    expect(lines.some((line) => line.desktopImpressions > 0 && line.mobileImpressions > 0)).toBe(true);

    // Each line is the ad's row of daily_ad_stats, summed over devices.
    const sample = answer.newSummaryDays[3]!.webAds[0]!;
    const [row] = await t.db
      .select({
        impressions: sql<number>`sum(${dailyAdStats.impressions})::int`,
        mobileClicks: sql<number>`sum(case when ${dailyAdStats.device} = 'mobile' then ${dailyAdStats.clicks} else 0 end)::int`,
        revenue: sql<string>`sum(${dailyAdStats.publisherRevenue})::bigint`,
      })
      .from(dailyAdStats)
      .where(
        and(
          eq(dailyAdStats.publisherId, blog),
          eq(dailyAdStats.adId, sample.ad.id),
          eq(dailyAdStats.day, answer.newSummaryDays[3]!.day),
        ),
      );
    expect(sample.impressions).toBe(row!.impressions);
    expect(sample.mobileClicks).toBe(row!.mobileClicks);
    expect(sample.publisherRevenue).toBe(microsToEuros(Number(row!.revenue)));
  });

  it("makes totalRevenues the Accounting screen's total: the sum of the revenue entries of the ledger", async () => {
    const answer = await stats(blogClient);
    const entries = await revenueEntries(blog);
    expect(entries.size).toBeGreaterThanOrEqual(30);
    const total = [...entries.values()].reduce((sum, amount) => sum + amount, 0);
    expect(answer.totalRevenues).toBe(microsToEuros(total));
    const accounting = await blogClient.post('/api/publisher/get-accounting', {});
    expect(accounting.statusCode, accounting.body).toBe(200);
    expect((accounting.json() as { totalRevenues: number }).totalRevenues).toBe(answer.totalRevenues);
  });

  it("gives each closed day the revenue of that day's entry in the ledger, to the micro-euro", async () => {
    // Today's traffic, with a click, then the day closes and is posted.
    for (let visitor = 1; visitor <= 4; visitor++) {
      const who = { ip: `198.51.100.${visitor}` };
      const { ads: served } = await decide(t, blog, who);
      for (const ad of served) expect((await view(t, ad.view, who)).headers['x-helium-counted']).toBe('counted');
      if (visitor === 1) expect((await click(t, served[0]!.click, who)).headers['x-helium-counted']).toBe('unique');
    }
    await t.app.delivery.recorder.flush();
    const today = utcDay(t.clock.now());
    // Not listed while it is not closed, nor in the 5 minutes after its midnight.
    expect((await publisherStatsDays(t.db, blog, t.clock.now())).map((day) => day.day)).not.toContain(today);
    moveTo(1, 0, 3);
    expect((await publisherStatsDays(t.db, blog, t.clock.now())).map((day) => day.day)).not.toContain(today);
    moveTo(0, 0, 6);
    expect((await runLedger()).posted).toBeGreaterThan(0);

    for (const publisher of [blog, newsletter, cuisine, rando]) {
      const days = await publisherStatsDays(t.db, publisher, t.clock.now());
      const entries = await revenueEntries(publisher);
      expect(days.length, `publisher ${publisher}`).toBeGreaterThan(0);
      for (const day of days) {
        expect(day.publisherRevenue, `${publisher} ${day.day}`).toBe(entries.get(day.day));
        expect(day.publisherRevenue).toBe(day.ads.reduce((sum, ad) => sum + ad.publisherRevenue, 0));
      }
      // And every entry of the last 90 days is a day of the screen.
      const since = shiftDay(utcDay(t.clock.now()), -STATS_DAYS);
      expect(days.map((day) => day.day).sort()).toEqual([...entries.keys()].filter((day) => day >= since).sort());
    }
    const answer = await stats(blogClient);
    const posted = answer.newSummaryDays[0]!;
    expect(posted.day).toBe(today);
    expect(posted.totalRevenue).toBe(microsToEuros((await revenueEntries(blog)).get(today)!));
    expect(posted.webAds.reduce((sum, ad) => sum + ad.clicks, 0)).toBe(1);
  });

  it("answers the newsletter's opens as owlAds", async () => {
    const client = await signedInPublisher(t, newsletter);
    const answer = await stats(client);
    expect(answer.publisher).toEqual({ id: newsletter, brand: 'La Lettre Tech', isWeb: false, isOwl: true });
    expect(answer.newSummaryDays.length).toBeGreaterThanOrEqual(30);
    for (const day of answer.newSummaryDays) {
      expect(day.webAds).toEqual([]);
      expect(day.owlAds.length).toBeGreaterThan(0);
      expect(day.owlAds.every((line) => line.ad.format_id === 2)).toBe(true);
      expect(day.totalImpressions).toBe(day.owlAds.reduce((sum, line) => sum + line.impressions, 0));
    }
    // The account in use is the user's: back to Demo Blog for the next tests.
    await signedInPublisher(t, blog);
    expect((await stats(blogClient)).publisher.id).toBe(blog);
  });

  it('orders the ads of a day as sortBy asks', async () => {
    const answer = await stats(blogClient, { sortBy: 'publisherRevenue' });
    expect(answer.publisher.id).toBe(blog);
    for (const day of answer.newSummaryDays) {
      const revenues = day.webAds.map((line) => line.publisherRevenue);
      expect([...revenues].sort((a, b) => b - a)).toEqual(revenues);
    }
    const unknown = await stats(blogClient, { sortBy: 'nonsense' });
    expect(unknown.newSummaryDays.length).toBe(answer.newSummaryDays.length);
  });

  it(`goes back ${STATS_DAYS} days, no further`, async () => {
    const [ad] = await t.db.select().from(ads).where(eq(ads.adminValidation, 1)).limit(1);
    const today = utcDay(t.clock.now());
    for (const back of [STATS_DAYS, STATS_DAYS + 1]) {
      await t.db.insert(dailyAdStats).values({
        day: shiftDay(today, -back),
        adId: ad!.id,
        publisherId: blog,
        device: 'desktop',
        campaignId: ad!.campaignId,
        advertiserId: ad!.advertiserId,
        impressions: 10,
        publisherRevenue: 17_500,
        cost: 25_000,
        companyRevenue: 7_500,
      });
    }
    const days = (await stats(blogClient)).newSummaryDays.map((day) => day.day);
    expect(days).toContain(shiftDay(today, -STATS_DAYS));
    expect(days).not.toContain(shiftDay(today, -STATS_DAYS - 1));
    expect(days.at(-1)).toBe(shiftDay(today, -STATS_DAYS));
    await t.db.delete(dailyAdStats).where(and(eq(dailyAdStats.publisherId, blog), eq(dailyAdStats.impressions, 10)));
  });

  it("gives another publisher its own days only, whatever the body names; in the user's language", async () => {
    const multi = t.client();
    await multi.signIn('multi@demo.test');
    const answer = await stats(multi, { publisherId: blog, sortBy: 'clicks' });
    expect(answer.publisher.id).toBe(cuisine);
    const own = await publisherStatsDays(t.db, cuisine, t.clock.now());
    expect(answer.newSummaryDays.map((day) => [day.day, day.totalImpressions])).toEqual(
      own.map((day) => [day.day, day.impressions]),
    );
    const cuisineAds = await t.db
      .selectDistinct({ adId: dailyAdStats.adId })
      .from(dailyAdStats)
      .where(eq(dailyAdStats.publisherId, cuisine));
    const allowed = new Set(cuisineAds.map((row) => row.adId));
    expect(answer.newSummaryDays.flatMap((day) => day.webAds).every((line) => allowed.has(line.ad.id))).toBe(true);
    expect(answer.totalRevenues).not.toBe((await stats(blogClient)).totalRevenues);
    // multi@demo.test reads French.
    expect(answer.newSummaryDays[0]!.dayStr).toBe(formatDate(answer.newSummaryDays[0]!.day, 'fr'));
  });

  it('answers a publisher without figures that it has none', async () => {
    const client = await signedInPublisher(t, rando, 'multi@demo.test');
    const since = shiftDay(utcDay(t.clock.now()), -STATS_DAYS - 5);
    await t.db.delete(dailyAdStats).where(and(eq(dailyAdStats.publisherId, rando), gte(dailyAdStats.day, since)));
    const answer = await stats(client);
    expect(answer.isAnySummaries).toBe(false);
    expect(answer.newSummaryDays).toEqual([]);
    expect(answer.publisher.id).toBe(rando);
  });

  it('refuses the signed out (401), advertisers and admins (403)', async () => {
    expect((await t.client().post(STATS, {})).statusCode).toBe(401);
    for (const email of ['advertiser@demo.test', 'admin@demo.test']) {
      const client = t.client();
      await client.signIn(email);
      const response = await client.post(STATS, {});
      expect(response.statusCode, email).toBe(403);
      expect(response.body).not.toContain('webAds');
    }
  });
});
