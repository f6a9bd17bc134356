import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_TOKEN_MS } from '@helium/domain';
import { adClicks, adDecisions, adImpressions, adLeads, ads, campaigns, owlIssueAds } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { TEST_DRIVER } from '../../../test/test-database.ts';
import { HAS_REDIS_SERVER, TestRedisServer, waitFor } from '../../../test/redis-server.ts';
import { toStartOfNextMinute } from '../../../test/trust-support.ts';
import {
  blogAndTwoCampaigns,
  BROWSER_UA,
  click,
  decide,
  decisionIdOf,
  onlyCampaign,
  pageHeadersOf,
  publisherId as publisherIdOf,
  showOneAdOnly,
  view,
} from '../../../test/serve-support.ts';

/*
 * Two instances of the server (standing for two machines) on one PostgreSQL database and one Redis: they behave as
 * one network (docs/scaling.md). A campaign's credits are spent once across both, a token's view counts once
 * whichever instance receives it, a unique click is unique once, a lead counts once, a newsletter issue keeps one
 * ad, an address's visitors add up across both, and a change made through one reaches the other.
 */

const redisUrl = process.env.TEST_REDIS_URL;

/** Sets `app`'s clock to `source`'s: each test app has its own, and machines' clocks agree (NTP). */
function setClockTo(app: TestApp, source: TestApp) {
  app.clock.advance(source.clock.now().getTime() - app.clock.now().getTime());
}

describe.runIf(TEST_DRIVER === 'postgres' && redisUrl)('two instances sharing PostgreSQL and Redis', () => {
  let first: TestApp;
  let second: TestApp;
  let blog: number;
  let bikes: number;
  let ceramics: number;

  beforeAll(async () => {
    first = await buildTestApp({ env: { REDIS_URL: redisUrl! } });
    second = await buildTestApp({ env: { REDIS_URL: redisUrl! }, shareDatabaseWith: first });
    ({ blog, bikes, ceramics } = await blogAndTwoCampaigns(first.db));
    await showOneAdOnly(first.db, bikes);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** Both instances' clocks move together (each test app has its own; machines' clocks agree, NTP). */
  function advance(ms: number) {
    first.clock.advance(ms);
    second.clock.advance(ms);
  }

  async function giveOnly(campaignId: number, credits: { impressions?: number; clicks?: number }) {
    await onlyCampaign(first, campaignId, credits);
    setClockTo(second, first);
    await second.app.delivery.refresh();
    advance(3 * 60_000);
  }

  async function stored(campaignId: number) {
    const [row] = await first.db
      .select({ impressions: campaigns.remainingImpressions, clicks: campaigns.remainingClicks })
      .from(campaigns)
      .where(eq(campaigns.id, campaignId));
    return row!;
  }

  it('run with their state shared (PostgreSQL and REDIS_URL)', () => {
    expect(first.app.delivery.parts.billing.constructor.name).toBe('SharedBilling');
    expect(second.app.delivery.parts.billing.constructor.name).toBe('SharedBilling');
  });

  it("promise and spend a campaign's credits once across both: 5 credits, 5 ads served, 5 billed", async () => {
    await giveOnly(bikes, { impressions: 5 });
    const served = [];
    for (let visitor = 1; visitor <= 8; visitor += 1) {
      const instance = visitor % 2 === 0 ? first : second;
      const answer = await decide(instance, blog, { ip: `10.92.0.${visitor}` });
      served.push(...answer.ads.map((ad) => ({ ad, visitor: { ip: `10.92.0.${visitor}` } })));
    }
    // Reservations are shared: no more ads are promised than the credits.
    expect(served).toHaveLength(5);
    advance(2_000);
    // Each view goes to the other instance than its decision's.
    const outcomes = await Promise.all(
      served.map(({ ad, visitor }, index) =>
        view(index % 2 === 0 ? first : second, ad.view, visitor, 0).then((r) => r.headers['x-helium-counted']),
      ),
    );
    expect(outcomes).toEqual(Array(5).fill('counted'));
    expect((await stored(bikes)).impressions).toBe(0);
  });

  it('count a view token sent to both instances at once only once', async () => {
    await giveOnly(bikes, { impressions: 100 });
    const visitor = { ip: '10.92.1.1' };
    const { ads: served } = await decide(first, blog, visitor);
    const decisionId = decisionIdOf(served[0]!);
    advance(2_000);
    const outcomes = await Promise.all(
      [first, second, first, second].map((instance) =>
        view(instance, served[0]!.view, visitor, 0).then((r) => r.headers['x-helium-counted']),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'counted')).toHaveLength(1);
    const rows = await first.db.select().from(adImpressions).where(eq(adImpressions.decisionId, decisionId));
    expect(rows).toHaveLength(1);
    expect((await stored(bikes)).impressions).toBe(99);
  });

  it("bill a visitor's click once whichever instance receives it, and its lead once", async () => {
    await giveOnly(ceramics, { clicks: 10 });
    const visitor = { ip: '10.92.2.1' };
    const { ads: served } = await decide(first, blog, visitor);
    expect(served).toHaveLength(1);
    const clicks = await Promise.all([first, second].map((instance) => click(instance, served[0]!.click, visitor)));
    expect(clicks.map((response) => response.headers['x-helium-counted']).sort()).toEqual(['repeat', 'unique']);
    expect((await stored(ceramics)).clicks).toBe(9);
    const clickId = new URL(String(clicks[0]!.headers.location)).searchParams.get('hclid')!;
    const leads = await Promise.all(
      [first, second, first, second].map((instance) => instance.app.delivery.lead(clickId, 'pixel')),
    );
    expect(leads.filter(Boolean)).toHaveLength(1);
    const [billed] = await first.db
      .select({ id: adClicks.id })
      .from(adClicks)
      .where(eq(adClicks.isUnique, true))
      .orderBy(sql`${adClicks.createdAt} desc`)
      .limit(1);
    const leadRows = await first.db.select().from(adLeads).where(eq(adLeads.clickId, billed!.id));
    expect(leadRows).toHaveLength(1);
  });

  it('give a newsletter issue one ad, whichever instance its first opens reach', async () => {
    await first.db.update(campaigns).set({ remainingImpressions: 10_000, remainingClicks: 1_000 });
    // The newsletter's ads (showOneAdOnly left one web ad of the campaign showing).
    await first.db.update(ads).set({ isShowing: true }).where(eq(ads.campaignId, bikes));
    await Promise.all([first.app.delivery.refresh(), second.app.delivery.refresh()]);
    const hash = first.app.ctx.hashIds.encodePublisher(await publisherIdOf(first.db, 'La Lettre Tech'));
    const open = (instance: TestApp, reader: number) =>
      instance.app.inject({
        method: 'GET',
        url: `/serve/owl/${hash}/1/shared-issue/image`,
        remoteAddress: '127.0.0.1',
        headers: { 'user-agent': `${BROWSER_UA} reader-${reader}`, 'x-forwarded-for': `10.92.3.${reader}` },
      });
    const answers = await Promise.all([1, 2, 3, 4].map((reader) => open(reader % 2 ? first : second, reader)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([302, 302, 302, 302]);
    expect(new Set(answers.map((answer) => answer.headers.location)).size).toBe(1);
    await Promise.all([first.app.delivery.recorder.flush(), second.app.delivery.recorder.flush()]);
    const rows = await first.db.select().from(owlIssueAds).where(eq(owlIssueAds.issue, 'shared-issue'));
    expect(rows).toHaveLength(1);
    await showOneAdOnly(first.db, bikes);
  });

  it("add up an address's visitors across both: the 21st in a minute is set aside, with what the address counted", async () => {
    await giveOnly(bikes, { impressions: 1000 });
    // The rule counts a UTC minute and the test clock starts at the real time: begin one, so that the 2 s the first
    // views wait below stay in it (about one run in 30 crossed into the next, and no rule tripped).
    toStartOfNextMinute(first);
    setClockTo(second, first);
    const counted: Array<string | undefined> = [];
    const ip = '10.92.4.1';
    const served = [];
    for (let visitor = 1; visitor <= 22; visitor += 1) {
      const instance = visitor % 2 === 0 ? first : second;
      const answer = await decide(instance, blog, { ip, ua: `${BROWSER_UA} visitor-${visitor}` });
      counted.push(answer.response.headers['x-helium-counted'] as string | undefined);
      if (visitor <= 2) served.push(answer.ads[0]!);
      if (visitor === 2) {
        // The address's first two visitors view their ads (each on the other instance) before the rule trips.
        advance(2_000);
        for (const [index, ad] of served.entries()) {
          const response = await view(
            index % 2 ? second : first,
            ad.view,
            { ip, ua: `${BROWSER_UA} visitor-${index + 1}` },
            0,
          );
          expect(response.headers['x-helium-counted']).toBe('counted');
        }
      }
    }
    expect(counted.slice(0, 20)).toEqual(Array(20).fill('counted'));
    expect(counted.slice(20)).toEqual(['invalid', 'invalid']);
    // The instance whose pageview tripped the rule set aside what the address had counted on both.
    await Promise.all([first.app.delivery.settle(), second.app.delivery.settle()]);
    const rows = await first.db
      .select({ reason: adImpressions.invalidReason })
      .from(adImpressions)
      .where(
        sql`${adImpressions.decisionId} in (${sql.join(
          served.map((ad) => sql`${decisionIdOf(ad)}`),
          sql`, `,
        )})`,
      );
    expect(rows.map((row) => row.reason)).toEqual(['ipVisitors', 'ipVisitors']);
  });

  it("set aside a view beacon from an address set aside without using the view: the visitor's own still counts", async () => {
    await giveOnly(bikes, { impressions: 1000 });
    toStartOfNextMinute(first);
    setClockTo(second, first);
    // 21 visitors in a minute set this address aside for the day (as above).
    const setAside = '10.92.6.1';
    for (let visitor = 1; visitor <= 21; visitor += 1) {
      await decide(visitor % 2 ? first : second, blog, { ip: setAside, ua: `${BROWSER_UA} visitor-${visitor}` });
    }
    const reader = { ip: '10.92.6.2', ua: `${BROWSER_UA} reader` };
    const [ad] = (await decide(first, blog, reader)).ads;
    advance(2_000);
    // The reader's token replayed from the address set aside: its flag is read with the view's claim, given back.
    const replayed = await view(second, ad!.view, { ...reader, ip: setAside }, 0);
    expect(replayed.headers['x-helium-counted']).toBe('invalid');
    const own = await view(first, ad!.view, reader, 0);
    expect(own.headers['x-helium-counted']).toBe('counted');
    const again = await view(second, ad!.view, reader, 0);
    expect(again.headers['x-helium-counted']).toBe('ignored');
  });

  it('find in Redis a decision the other instance made, where its ad was shown, without the database', async () => {
    await giveOnly(bikes, { impressions: 1000 });
    const reader = { ip: '10.92.7.1', ua: `${BROWSER_UA} reader` };
    const [ad] = (await decide(first, blog, reader)).ads;
    const decisionId = decisionIdOf(ad!);
    // Its record gone from the database, only Redis can say on which page and from which address it was shown.
    const [made] = await first.db.delete(adDecisions).where(eq(adDecisions.id, decisionId)).returning();
    setClockTo(second, first);
    advance(2_000);
    const parts = second.app.delivery.parts;
    const found = await parts.decisions.find(parts.signer.verify(ad!.view, 'v')!, VIEW_TOKEN_MS, () =>
      parts.index.snapshot(),
    );
    expect(found).toMatchObject({ url: made!.url, ip: made!.ip, country: made!.country, viewed: false });
    expect(found?.unrecorded).toBeUndefined();
    const response = await view(second, ad!.view, reader, 0);
    expect(response.headers['x-helium-counted']).toBe('counted');
    const again = await view(first, ad!.view, reader, 0);
    expect(again.headers['x-helium-counted']).toBe('ignored');
  });

  it("hold a video's view to its 2 s whichever instance receives the beacon", async () => {
    await giveOnly(bikes, { impressions: 100 });
    const originals = await first.db
      .select({ id: ads.id, type: ads.type, mp4: ads.mp4 })
      .from(ads)
      .where(eq(ads.campaignId, bikes));
    await first.db.update(ads).set({ type: 'video', mp4: 'video.mp4' }).where(eq(ads.campaignId, bikes));
    await Promise.all([first.app.delivery.refresh(), second.app.delivery.refresh()]);
    try {
      const watcher = { ip: '10.92.8.1' };
      const [ad] = (await decide(first, blog, watcher)).ads;
      expect(ad?.kind).toBe('video');
      setClockTo(second, first);
      // 1.2 s after the decision: long enough for a picture, not for a video.
      advance(1_200);
      expect((await view(second, ad!.view, watcher, 0)).headers['x-helium-counted']).toBe('invalid');
      advance(800);
      expect((await view(second, ad!.view, watcher, 0)).headers['x-helium-counted']).toBe('counted');
    } finally {
      for (const original of originals) {
        await first.db.update(ads).set({ type: original.type, mp4: original.mp4 }).where(eq(ads.id, original.id));
      }
      await Promise.all([first.app.delivery.refresh(), second.app.delivery.refresh()]);
    }
  });

  it("release a served ad's reservation when the other instance counts its view, so that its credit is not held twice", async () => {
    await giveOnly(bikes, { impressions: 3 });
    const visitors = [1, 2, 3].map((n) => ({ ip: `10.92.8.${n}` }));
    const [viewed] = (await decide(first, blog, visitors[0]!)).ads;
    expect((await decide(first, blog, visitors[1]!)).ads).toHaveLength(1);
    setClockTo(second, first);
    advance(2_000);
    const response = await view(second, viewed!.view, visitors[0]!, 0);
    expect(response.headers['x-helium-counted']).toBe('counted');
    // 2 credits left, 1 ad still promised: a third pageview gets the last one.
    expect((await decide(first, blog, visitors[2]!)).ads).toHaveLength(1);
  });

  it('reach the other instance with a change that affects serving within a second', async () => {
    await giveOnly(bikes, { impressions: 1000 });
    expect((await decide(second, blog, { ip: '10.92.5.1' })).ads).toHaveLength(1);
    await first.db.update(ads).set({ isShowing: false }).where(eq(ads.campaignId, bikes));
    await first.app.delivery.servingChanged();
    await expect
      .poll(async () => (await decide(second, blog, { ip: '10.92.5.2' })).ads.length, { timeout: 1_000, interval: 50 })
      .toBe(0);
    await first.db.update(ads).set({ isShowing: true }).where(eq(ads.campaignId, bikes));
    await first.app.delivery.servingChanged();
  });
});

describe.runIf(TEST_DRIVER === 'postgres' && HAS_REDIS_SERVER)('two instances whose Redis goes away mid-load', () => {
  let redis: TestRedisServer;
  let first: TestApp;
  let second: TestApp;
  let blog: number;
  let bikes: number;

  beforeAll(async () => {
    redis = await TestRedisServer.start();
    first = await buildTestApp({ env: { REDIS_URL: redis.url } });
    second = await buildTestApp({ env: { REDIS_URL: redis.url }, shareDatabaseWith: first });
    ({ blog, bikes } = await blogAndTwoCampaigns(first.db));
    await showOneAdOnly(first.db, bikes);
    await onlyCampaign(first, bikes, { impressions: 1000 });
    setClockTo(second, first);
    await second.app.delivery.refresh();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await redis?.kill();
  });

  it('answers no ad and counts nothing while it is away, loses nothing acknowledged, and recovers by itself', async () => {
    const beacon = async (instance: TestApp, token: string, ip: string) =>
      (await view(instance, token, { ip }, 0)).headers['x-helium-counted'];
    // Before: served and counted across both.
    const before = await decide(first, blog, { ip: '10.94.0.1' });
    expect(before.ads).toHaveLength(1);
    const servedBeforeOutage = await decide(second, blog, { ip: '10.94.0.2' });
    first.clock.advance(2_000);
    second.clock.advance(2_000);
    expect(await beacon(second, before.ads[0]!.view, '10.94.0.1')).toBe('counted');
    const impressions = async () =>
      Number((await first.db.select({ n: sql<number>`count(*)::int` }).from(adImpressions))[0]!.n);
    const counted = await impressions();

    await redis.kill();
    // While away: 200 with no ad, a beacon not counted (not acknowledged as counted), nothing written.
    for (const instance of [first, second]) {
      const during = await decide(instance, blog, { ip: '10.94.1.1' });
      expect(during.response.statusCode).toBe(200);
      expect(during.ads).toEqual([]);
    }
    expect(await beacon(first, servedBeforeOutage.ads[0]!.view, '10.94.0.2')).toBe('ignored');
    expect(await impressions()).toBe(counted);
    expect((await first.app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
      status: 'degraded',
      redis: 'unavailable',
    });

    // Back (empty, as a restart without persistence leaves it): serving and counting resume by themselves.
    await redis.start();
    await waitFor(async () => (await decide(second, blog, { ip: '10.94.2.1' })).ads.length === 1, 'ads again', 15_000);
    expect(await beacon(first, servedBeforeOutage.ads[0]!.view, '10.94.0.2')).toBe('counted');
    expect(await impressions()).toBe(counted + 1);
    // The credits were read again from the database: the campaign is not overdrawn, and stays exact.
    const [campaign] = await first.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    expect(campaign!.remainingImpressions).toBe(1000 - 2);
  });
});

describe.runIf(TEST_DRIVER === 'postgres')('an instance whose Redis does not answer', () => {
  let t: TestApp;
  let blog: number;
  let bikes: number;

  beforeAll(async () => {
    // A port nobody listens on: every command fails at once (infra/redis.ts fails fast).
    t = await buildTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    ({ blog, bikes } = await blogAndTwoCampaigns(t.db));
  });
  afterAll(async () => t?.close());

  it("serves no ad rather than an error, counts nothing, and still sends a click to the ad's page", async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const answer = await decide(t, blog, { ip: '10.93.0.1' });
    expect(answer.response.statusCode).toBe(200);
    expect(answer.ads).toEqual([]);
    const beacon = await t.app.inject({
      method: 'POST',
      url: '/serve/v',
      remoteAddress: '127.0.0.1',
      headers: {
        'content-type': 'text/plain',
        'x-forwarded-for': '10.93.0.1',
        'user-agent': BROWSER_UA,
        ...pageHeadersOf(t, blog),
      },
      payload: 'not-a-token',
    });
    expect(beacon.statusCode).toBe(204);
  });
});
