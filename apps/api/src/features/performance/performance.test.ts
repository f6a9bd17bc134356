import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZGetPerformanceHistoryResponseSchema, ZGetRealtimePerformanceResponseSchema } from '@helium/contracts';
import { dailyPublisherStats, publishers, realtimeCounters } from '@helium/db';
import { buildTestApp, signedInPublisher, type TestApp } from '../../../test/helper.ts';
import { publisherId } from '../../../test/serve-support.ts';
import { DAY_MS } from '@helium/domain';

const REALTIME = '/api/publisher/get-realtime-performance';
const HISTORY = '/api/publisher/get-performance-history';
const CALLS = [REALTIME, HISTORY];
const MINUTE = 60_000;

let t: TestApp;
let blog: number;
let cuisine: number;
let rando: number;
/** The start of the current UTC minute and of today, from the test clock (it does not move in this file). */
let minute: number;
let todayStart: number;

const dayText = (daysBack: number) => new Date(todayStart - daysBack * DAY_MS).toISOString().slice(0, 10);
const dayId = (daysBack: number) => Math.round((todayStart - daysBack * DAY_MS) / DAY_MS);

type Counts = Partial<Omit<typeof realtimeCounters.$inferInsert, 'publisherId' | 'minute'>>;
async function counters(publisher: number, minutesBack: number, counts: Counts) {
  await t.db
    .insert(realtimeCounters)
    .values({ publisherId: publisher, minute: new Date(minute - minutesBack * MINUTE), ...counts });
}

async function daily(
  publisher: number,
  daysBack: number,
  device: 'desktop' | 'mobile',
  pageviews: number,
  impressions: number,
  extra: { served?: number; invalidPageviews?: number } = {},
) {
  await t.db
    .insert(dailyPublisherStats)
    .values({ day: dayText(daysBack), publisherId: publisher, device, pageviews, impressions, ...extra });
}

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  rando = await publisherId(t.db, 'Rando Alpes');
  const now = t.clock.now().getTime();
  minute = Math.floor(now / MINUTE) * MINUTE;
  todayStart = Math.floor(now / DAY_MS) * DAY_MS;

  // Cuisine Facile and Rando Alpes get exactly the rows below instead of the demo history.
  for (const id of [cuisine, rando]) {
    await t.db.delete(dailyPublisherStats).where(eq(dailyPublisherStats.publisherId, id));
    await t.db.delete(realtimeCounters).where(eq(realtimeCounters.publisherId, id));
  }
  await t.db.update(publishers).set({ isInstalled: true }).where(eq(publishers.id, cuisine));

  // Per-minute counters of Cuisine Facile.
  await counters(cuisine, 0, {
    pageviewsDesktop: 500,
    pageviewsMobile: 500,
    impressionsDesktop: 500,
    impressionsMobile: 500,
  }); // in progress
  await counters(cuisine, 1, { pageviewsDesktop: 7, pageviewsMobile: 5, impressionsDesktop: 4, impressionsMobile: 3 }); // latest complete
  await counters(cuisine, 10, {
    pageviewsDesktop: 40,
    pageviewsMobile: 2,
    impressionsDesktop: 30,
    impressionsMobile: 9,
  });
  await counters(cuisine, 24 * 60, { impressionsMobile: 50 }); // 24 hours before the current minute: still in
  await counters(cuisine, 24 * 60 + 1, {
    pageviewsDesktop: 999,
    pageviewsMobile: 999,
    impressionsDesktop: 999,
    impressionsMobile: 999,
  }); // out
  // Rando Alpes: one busy minute of desktop pageviews only.
  await counters(rando, 1, { pageviewsDesktop: 1000 });

  // Daily stats of Cuisine Facile.
  await daily(cuisine, 0, 'desktop', 300, 120, { served: 9999 }); // today: in today's count, not in the history
  await daily(cuisine, 0, 'mobile', 200, 80);
  await daily(cuisine, 1, 'desktop', 1000, 700);
  await daily(cuisine, 1, 'mobile', 800, 300);
  await daily(cuisine, 2, 'desktop', 400, 100);
  await daily(cuisine, 5, 'desktop', 0, 0, { invalidPageviews: 10 }); // only bots: no data
  await daily(cuisine, 30, 'desktop', 50, 40);
  await daily(cuisine, 30, 'mobile', 1500, 1000);
  await daily(cuisine, 31, 'desktop', 5000, 4000); // older than 30 days
  // Rando Alpes has today's figures only: its history starts (the live dials show), with no day rows yet.
  await daily(rando, 0, 'desktop', 10, 6);
});
afterAll(async () => t.close());

describe('access', () => {
  it('answers 401 when signed out', async () => {
    for (const call of CALLS) {
      const response = await t.client().post(call);
      expect(response.statusCode, call).toBe(401);
      expect(response.json().status).toBe('unauthenticated');
    }
  });

  it('answers 403 to an admin and an advertiser', async () => {
    for (const email of ['admin@demo.test', 'advertiser@demo.test']) {
      const client = t.client();
      await client.signIn(email);
      for (const call of CALLS) {
        const response = await client.post(call);
        expect(response.statusCode, `${email} ${call}`).toBe(403);
        expect(response.json().status).toBe('forbidden');
      }
    }
  });

  it('answers 419 without the anti-forgery token', async () => {
    const client = await signedInPublisher(t);
    for (const call of CALLS) expect((await client.post(call, {}, { xsrf: false })).statusCode).toBe(419);
  });
});

describe('get-realtime-performance', () => {
  it("answers the latest complete minute, the 24-hour maxima and today's validated impressions", async () => {
    const client = await signedInPublisher(t, cuisine, 'multi@demo.test');
    const response = await client.post(REALTIME);
    expect(response.statusCode).toBe(200);
    expect(ZGetRealtimePerformanceResponseSchema.parse(response.json())).toEqual({
      pageviewsDesktopPerMinute: 7,
      pageviewsMobilePerMinute: 5,
      impressionsDesktopPerMinute: 4,
      impressionsMobilePerMinute: 3,
      pageviewsDesktopPerMinuteMax: 40,
      pageviewsMobilePerMinuteMax: 5,
      impressionsDesktopPerMinuteMax: 30,
      impressionsMobilePerMinuteMax: 50,
      publisherCurrentImpressionsToday: 200,
    });
  });

  it('answers 0 per minute when the last minute had no traffic, and maxima of at least 1', async () => {
    const client = await signedInPublisher(t, rando, 'multi@demo.test');
    t.clock.advance(2 * MINUTE);
    try {
      expect((await client.post(REALTIME)).json()).toEqual({
        pageviewsDesktopPerMinute: 0,
        pageviewsMobilePerMinute: 0,
        impressionsDesktopPerMinute: 0,
        impressionsMobilePerMinute: 0,
        pageviewsDesktopPerMinuteMax: 1000,
        pageviewsMobilePerMinuteMax: 1,
        impressionsDesktopPerMinuteMax: 1,
        impressionsMobilePerMinuteMax: 1,
        publisherCurrentImpressionsToday: 6,
      });
    } finally {
      t.clock.advance(-2 * MINUTE);
    }
  });
});

describe('get-performance-history', () => {
  it('answers one row per day with data over the 30 days before today, newest first', async () => {
    const client = await signedInPublisher(t, cuisine, 'multi@demo.test');
    const response = await client.post(HISTORY);
    expect(response.statusCode).toBe(200);
    expect(ZGetPerformanceHistoryResponseSchema.parse(response.json())).toEqual({
      isAnyPerformanceHistory: true,
      publisherPerformanceHistory: [
        {
          id: dayId(1),
          day: dayText(1),
          perfs_pageviews_desktop: 1000,
          perfs_pageviews_mobile: 800,
          perfs_validated_impressions_desktop: 700,
          perfs_validated_impressions_mobile: 300,
        },
        {
          id: dayId(2),
          day: dayText(2),
          perfs_pageviews_desktop: 400,
          perfs_pageviews_mobile: 0,
          perfs_validated_impressions_desktop: 100,
          perfs_validated_impressions_mobile: 0,
        },
        {
          id: dayId(30),
          day: dayText(30),
          perfs_pageviews_desktop: 50,
          perfs_pageviews_mobile: 1500,
          perfs_validated_impressions_desktop: 40,
          perfs_validated_impressions_mobile: 1000,
        },
      ],
      publisherDailyPageviewsMax: 1500,
      hash: t.app.ctx.hashIds.encodePublisher(cuisine),
      publisherIsInstalled: true,
    });
  });

  it("answers the demo publisher's seeded 30 days, up to yesterday", async () => {
    const client = await signedInPublisher(t, blog);
    const data = ZGetPerformanceHistoryResponseSchema.parse((await client.post(HISTORY)).json());
    expect(data.isAnyPerformanceHistory).toBe(true);
    expect(data.publisherPerformanceHistory).toHaveLength(30);
    expect(data.publisherPerformanceHistory[0]!.day).toBe(dayText(1));
    expect(data.publisherPerformanceHistory.at(-1)!.day).toBe(dayText(30));
    const largest = Math.max(
      ...data.publisherPerformanceHistory.flatMap((row) => [row.perfs_pageviews_desktop, row.perfs_pageviews_mobile]),
    );
    expect(data.publisherDailyPageviewsMax).toBe(largest);
    expect(data.publisherIsInstalled).toBe(true); // the seed marks the demo publishers installed
  });

  it("starts the history with a publisher's first day of data: no rows before tomorrow, but no empty state", async () => {
    const client = await signedInPublisher(t, rando, 'multi@demo.test');
    expect((await client.post(HISTORY)).json()).toEqual({
      isAnyPerformanceHistory: true,
      publisherPerformanceHistory: [],
      publisherDailyPageviewsMax: 0,
      hash: t.app.ctx.hashIds.encodePublisher(rando),
      publisherIsInstalled: false,
    });
  });

  it('answers no history for a publisher with no data, today or in the 30 days before', async () => {
    const client = await signedInPublisher(t, rando, 'multi@demo.test');
    const [todayRow] = await t.db.select().from(dailyPublisherStats).where(eq(dailyPublisherStats.publisherId, rando));
    await t.db.delete(dailyPublisherStats).where(eq(dailyPublisherStats.publisherId, rando));
    try {
      await daily(rando, 31, 'desktop', 5000, 4000); // older than the window
      expect((await client.post(HISTORY)).json()).toEqual({
        isAnyPerformanceHistory: false,
        publisherPerformanceHistory: [],
        publisherDailyPageviewsMax: 0,
        hash: t.app.ctx.hashIds.encodePublisher(rando),
        publisherIsInstalled: false,
      });
    } finally {
      await t.db.delete(dailyPublisherStats).where(eq(dailyPublisherStats.publisherId, rando));
      await t.db.insert(dailyPublisherStats).values(todayRow!);
    }
  });
});

describe('isolation', () => {
  it("never shows another publisher's data, whatever the body says", async () => {
    const multi = await signedInPublisher(t, rando, 'multi@demo.test');
    // The bodies are empty by contract: a publisher named in them, of any type, is ignored (as for the installation calls).
    for (const body of [
      { publisherId: cuisine },
      { publisherId: String(blog) },
      { publisherId: [cuisine], extra: true },
    ]) {
      const realtime = await multi.post(REALTIME, body);
      expect(realtime.statusCode).toBe(200);
      expect(realtime.json().pageviewsDesktopPerMinute).toBe(1000);
      expect(realtime.json().publisherCurrentImpressionsToday).toBe(6);
      const history = await multi.post(HISTORY, body);
      expect(history.json().publisherPerformanceHistory).toEqual([]);
      expect(history.json().hash).toBe(t.app.ctx.hashIds.encodePublisher(rando));
    }
    // Switching to another user's publisher is refused, so its figures stay out of reach.
    const refused = await multi.post('/api/common/update-user', { key: 'type', value: `1,${blog}` });
    expect(refused.statusCode).toBe(403);
    expect((await multi.post(HISTORY)).json().publisherPerformanceHistory).toEqual([]);

    // The demo publisher sees none of Cuisine Facile's or Rando Alpes's rows.
    const demo = await signedInPublisher(t, blog);
    const realtime = (await demo.post(REALTIME)).json();
    expect(realtime.pageviewsDesktopPerMinute).not.toBe(1000);
    expect(realtime.pageviewsDesktopPerMinuteMax).not.toBe(1000);
    expect(realtime.impressionsMobilePerMinuteMax).not.toBe(50);
    const history = (await demo.post(HISTORY)).json();
    expect(history.publisherDailyPageviewsMax).not.toBe(1500);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const client = await signedInPublisher(t, cuisine, 'multi@demo.test');
    await client.csrf();
    const response = await t.app.inject({
      method: 'POST',
      url: REALTIME,
      headers: {
        cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        'x-xsrf-token': client.cookies.get('XSRF-TOKEN') ?? '',
      },
      payload: '{"publisherId":',
    });
    expect(response.statusCode).toBe(400);
  });
});
