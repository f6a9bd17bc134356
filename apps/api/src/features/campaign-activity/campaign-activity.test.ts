import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adPublisherActivations,
  ads,
  advertisers,
  campaigns,
  dailyAdStats,
  dailyUrlStats,
  publishers,
  userActivities,
  users,
} from '@helium/db';
import { ineligibility, USER_ACTIVITY_RATE, type SlotFacts } from '@helium/domain';
import type { TCampaignEx } from '@helium/contracts';
import { eligibilityFactsFor } from './traffic-shares.ts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';

let t: TestApp;
let owner: TestClient;
let other: TestClient;
let campaignId: number;
let largeAdId: number;
let demoBlogId: number;
let randoId: number;
let cuisineId: number;

const post = (client: TestClient, path: string, body: unknown) => client.post(`/api/advertiser/${path}`, body);

async function adRow(id: number) {
  const [row] = await t.db.select().from(ads).where(eq(ads.id, id));
  if (!row) throw new Error('ad missing');
  return row;
}

async function campaignRow(id: number) {
  const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!row) throw new Error('campaign missing');
  return row;
}

beforeAll(async () => {
  t = await buildTestApp();
  const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  const [campaign] = await t.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, nordvik!.id))
    .orderBy(asc(campaigns.id))
    .limit(1);
  campaignId = campaign!.id;
  const [large] = await t.db
    .select()
    .from(ads)
    .where(and(eq(ads.campaignId, campaignId), eq(ads.formatId, 5), eq(ads.adminValidation, 1)));
  largeAdId = large!.id;
  const byBrand = new Map((await t.db.select().from(publishers)).map((p) => [p.brand, p.id]));
  demoBlogId = byBrand.get('Demo Blog')!;
  randoId = byBrand.get('Rando Alpes')!;
  cuisineId = byBrand.get('Cuisine Facile')!;

  owner = t.client();
  await owner.signIn('advertiser@demo.test');
  // The multi-account user switches to its advertiser Vélo Urbain: another advertiser.
  other = t.client();
  await other.signIn('multi@demo.test');
  const [velo] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Vélo Urbain'));
  const switched = await other.post('/api/common/update-user', { key: 'type', value: `2,${velo!.id}` });
  expect(switched.statusCode).toBe(200);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('get-campaignex', () => {
  it('answers the advertiser campaign with totals that add up its daily figures', async () => {
    const response = await post(owner, 'get-campaignex', { doByPublisher: false, doIncludeRealTimeHits: true });
    expect(response.statusCode).toBe(200);
    const ex = response.json() as TCampaignEx;
    expect(ex.id).toBe(campaignId);
    expect(ex.hashId).toMatch(/^[A-Za-z0-9]{8,}$/);
    const [sum] = await t.db
      .select({
        impressions: sql<number>`sum(${dailyAdStats.impressions})::int`,
        clicks: sql<number>`sum(${dailyAdStats.clicks})::int`,
      })
      .from(dailyAdStats)
      .where(eq(dailyAdStats.campaignId, campaignId));
    expect(ex.stats.total.impressions).toBe(Number(sum!.impressions));
    expect(ex.stats.total.clicks).toBe(Number(sum!.clicks));
    expect(ex.stats.total.impressions).toBeGreaterThan(0);
    expect(ex.stats.total.ctr).toBeCloseTo((ex.stats.total.clicks / ex.stats.total.impressions) * 100, 6);
    expect(ex.stats.byUrl).toBeNull();
    expect(ex.stats.byDay.length).toBeGreaterThan(0);
    const large = ex.ads.find((ad) => ad.id === largeAdId)!;
    expect(large.isShowing).toBe(true);
    expect(large.stats.byPublisher).toBeNull();
    expect(large.sharePct).toBeGreaterThan(0);
    // Only validated ads are on the Activity screen.
    expect(ex.ads.every((ad) => ad.validation === 1)).toBe(true);
  });

  it('adds per-publisher lines and per-URL figures when asked', async () => {
    const response = await post(owner, 'get-campaignex', { doByPublisher: true, doByUrl: true });
    const ex = response.json() as TCampaignEx;
    const large = ex.ads.find((ad) => ad.id === largeAdId)!;
    const lines = large.stats.byPublisher!;
    expect(lines.map((line) => line.brand).sort()).toEqual(['Demo Blog', 'Rando Alpes']);
    const blog = lines.find((line) => line.id === demoBlogId)!;
    expect(blog).toMatchObject({ doShow: true, isPublisherInstalled: true, isPublisherAuthorized: true });
    expect(lines.find((line) => line.id === randoId)!.isPublisherInstalled).toBe(false);
    expect(lines.reduce((total, line) => total + line.impressions, 0)).toBe(large.stats.total.impressions);
    expect(ex.stats.byUrl!.length).toBeGreaterThan(0);
    expect(ex.stats.byUrl!.reduce((total, line) => total + line.impressions, 0)).toBe(ex.stats.total.impressions);
  });

  it("links 'see it live' to a page the script reported on the publisher's own domain, never another site", async () => {
    const liveUrl = async () => {
      const ex = (await post(owner, 'get-campaignex', { doByPublisher: true })).json() as TCampaignEx;
      const large = ex.ads.find((ad) => ad.id === largeAdId)!;
      return { liveUrl: large.liveUrl, blogLine: large.stats.byPublisher!.find((line) => line.id === demoBlogId)! };
    };
    const before = await liveUrl();
    expect(new URL(before.liveUrl!).hostname).toBe('localhost');
    expect(new URL(before.blogLine.sampleUrl!).hostname).toBe('localhost');
    // Anyone may report any address for the blog to the serving endpoints: one that sorts first, elsewhere.
    const [ad] = await t.db.select().from(ads).where(eq(ads.id, largeAdId));
    await t.db.insert(dailyUrlStats).values({
      day: '2026-01-01',
      publisherId: demoBlogId,
      url: 'http://a-phishing-site.example/login',
      device: 'desktop',
      adId: largeAdId,
      campaignId: ad!.campaignId,
      pageviews: 1,
    });
    try {
      const after = await liveUrl();
      expect(new URL(after.liveUrl!).hostname).toBe('localhost');
      expect(after.liveUrl).not.toContain('phishing');
      expect(after.blogLine.sampleUrl).toBeNull();
    } finally {
      await t.db.delete(dailyUrlStats).where(eq(dailyUrlStats.url, 'http://a-phishing-site.example/login'));
    }
  });

  it('honours the stored date range, and clears it', async () => {
    const before = (await post(owner, 'get-campaignex', {})).json() as TCampaignEx;
    const day = before.stats.byDay[before.stats.byDay.length - 1]!.day;
    expect((await post(owner, 'update-stats-ex', { campaignId, statsExDates: [day, day] })).statusCode).toBe(200);
    const ranged = (await post(owner, 'get-campaignex', {})).json() as TCampaignEx;
    expect(ranged.statsDateRange).toEqual([day]);
    expect(ranged.statsDateRangeStr).toBeTruthy();
    expect(ranged.stats.byDay.map((row) => row.day)).toEqual([day]);
    expect(ranged.stats.total.impressions).toBe(before.stats.byDay.at(-1)!.impressions);
    expect(ranged.stats.total.impressions).toBeLessThan(before.stats.total.impressions);
    expect((await post(owner, 'update-stats-ex', { campaignId, statsExDates: null })).statusCode).toBe(200);
    const cleared = (await post(owner, 'get-campaignex', {})).json() as TCampaignEx;
    expect(cleared.statsDateRange).toEqual([]);
    expect(cleared.stats.total.impressions).toBe(before.stats.total.impressions);
  });

  it("leaves today's moving figures out without realtime hits", async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
    await t.db.insert(dailyAdStats).values({
      day: today,
      adId: largeAdId,
      publisherId: demoBlogId,
      device: 'desktop',
      campaignId,
      advertiserId: nordvik!.id,
      impressions: 40,
      clicks: 2,
      cost: 100_000,
    });
    const withToday = (await post(owner, 'get-campaignex', { doIncludeRealTimeHits: true })).json() as TCampaignEx;
    const without = (await post(owner, 'get-campaignex', { doIncludeRealTimeHits: false })).json() as TCampaignEx;
    expect(withToday.stats.total.impressions - without.stats.total.impressions).toBe(40);
    expect(withToday.stats.total.clicks - without.stats.total.clicks).toBe(2);
    await t.db.delete(dailyAdStats).where(and(eq(dailyAdStats.day, today), eq(dailyAdStats.adId, largeAdId)));
  });

  it("refuses another advertiser's campaign", async () => {
    const response = await post(other, 'get-campaignex', { campaignId });
    expect(response.statusCode).toBe(403);
    expect(response.json().status).toBe('notYourCampaign');
  });

  it('is behind the advertiser gate', async () => {
    const admin = t.client();
    await admin.signIn('admin@demo.test');
    expect((await post(admin, 'get-campaignex', {})).statusCode).toBe(403);
    expect((await t.client().post('/api/advertiser/get-campaignex', {})).statusCode).toBe(401);
  });
});

describe('refusals leave everything unchanged', () => {
  it("refuses every change on another advertiser's campaign or ad with 403", async () => {
    const adBefore = await adRow(largeAdId);
    const campaignBefore = await campaignRow(campaignId);
    const calls: Array<[string, unknown]> = [
      ['update-campaign-pause', { campaignId, pauseDailyImpressions: 1000 }],
      ['update-campaign-ad-budget', { campaignId, ad: { id: largeAdId, budget: 100 } }],
      ['update-campaign-ad-ejection', { campaignId, adId: largeAdId, doEject: true }],
      [
        'update-campaign-ad-activation',
        { campaignId, adId: largeAdId, publisherId: null, isAdActive: false, isAdPublisherActive: false },
      ],
      [
        'update-campaign-ad-activation',
        { campaignId, adId: largeAdId, publisherId: demoBlogId, isAdActive: true, isAdPublisherActive: false },
      ],
      ['update-campaign-autopilot', { campaignId, isAutoPilot: false }],
      ['update-stats-ex', { campaignId, statsExDates: ['2026-01-01', '2026-01-02'] }],
    ];
    for (const [path, body] of calls) {
      const response = await post(other, path, body);
      expect(response.statusCode, path).toBe(403);
    }
    // Its own campaign with this advertiser's ad id: still refused.
    const [veloCampaign] = await t.db
      .select()
      .from(campaigns)
      .innerJoin(advertisers, eq(advertisers.id, campaigns.advertiserId))
      .where(eq(advertisers.brand, 'Vélo Urbain'));
    const crossed = await post(other, 'update-campaign-ad-ejection', {
      campaignId: veloCampaign!.campaigns.id,
      adId: largeAdId,
      doEject: true,
    });
    expect(crossed.statusCode).toBe(403);
    expect(crossed.json().status).toBe('notYourAd');
    expect(await adRow(largeAdId)).toEqual(adBefore);
    expect(await campaignRow(campaignId)).toEqual(campaignBefore);
    expect(await t.db.select().from(adPublisherActivations)).toEqual([]);
  });

  it('refuses bad values with 422', async () => {
    const campaignBefore = await campaignRow(campaignId);
    const adBefore = await adRow(largeAdId);
    const bad: Array<[string, unknown]> = [
      ['update-campaign-pause', { campaignId, pauseDailyImpressions: 50_001 }],
      ['update-campaign-pause', { campaignId, pauseDailyImpressions: -100 }],
      ['update-campaign-pause', { campaignId, pauseDailyImpressions: 10.5 }],
      ['update-campaign-ad-budget', { campaignId, ad: { id: largeAdId, budget: 150 } }],
      ['update-campaign-ad-budget', { campaignId, ad: { id: largeAdId, budget: -1 } }],
      ['update-campaign-ad-budget', { campaignId, ad: { id: largeAdId, budget: 100_000_000 } }],
      ['update-stats-ex', { campaignId, statsExDates: '2026-13-01' }],
      ['update-stats-ex', { campaignId, statsExDates: ['2026-02-30', '2026-03-01'] }],
      ['update-stats-ex', { campaignId, statsExDates: '01/02/2026' }],
      ['update-stats-ex', { campaignId, statsExDates: '2999-01-01' }],
      // No year 0 in the database's calendar: refused here, not a 500 from the database.
      ['update-stats-ex', { campaignId, statsExDates: ['0000-01-01', '2026-01-01'] }],
      ['update-stats-ex', { campaignId, statsExDates: '0000-02-29' }],
      ['update-campaign-ad-ejection', { campaignId, adId: largeAdId, doEject: 'yes' }],
      ['update-campaign-autopilot', { campaignId }],
    ];
    for (const [path, body] of bad) {
      const response = await post(owner, path, body);
      expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBe(422);
      expect(typeof response.json().status).toBe('string');
    }
    expect(await campaignRow(campaignId)).toEqual(campaignBefore);
    expect(await adRow(largeAdId)).toEqual(adBefore);
  });
});

describe('changes', () => {
  it('sets the AutoFlow cap, AutoPilot and an ad budget', async () => {
    expect((await post(owner, 'update-campaign-pause', { campaignId, pauseDailyImpressions: 2_500 })).statusCode).toBe(
      200,
    );
    expect((await post(owner, 'update-campaign-autopilot', { campaignId, isAutoPilot: false })).statusCode).toBe(200);
    expect(
      (await post(owner, 'update-campaign-ad-budget', { campaignId, ad: { id: largeAdId, budget: 300 } })).statusCode,
    ).toBe(200);
    const ex = (await post(owner, 'get-campaignex', {})).json() as TCampaignEx;
    expect(ex).toMatchObject({ pauseDailyImpressions: 2_500, isPaused: true, isAutoPilot: false });
    expect(ex.ads.find((ad) => ad.id === largeAdId)!.budget).toBe(300);
    // Back to the seeded state for the next tests.
    await post(owner, 'update-campaign-pause', { campaignId, pauseDailyImpressions: 0 });
    await post(owner, 'update-campaign-autopilot', { campaignId, isAutoPilot: true });
    await post(owner, 'update-campaign-ad-budget', { campaignId, ad: { id: largeAdId, budget: 0 } });
  });

  it('refuses a per-publisher switch where the publisher is not installed or has not approved the ad', async () => {
    const notInstalled = await post(owner, 'update-campaign-ad-activation', {
      campaignId,
      adId: largeAdId,
      publisherId: randoId,
      isAdActive: true,
      isAdPublisherActive: false,
    });
    expect(notInstalled.statusCode).toBe(409);
    expect(notInstalled.json().status).toBe('publisherNotInstalled');
    const declined = await post(owner, 'update-campaign-ad-activation', {
      campaignId,
      adId: largeAdId,
      publisherId: cuisineId,
      isAdActive: true,
      isAdPublisherActive: false,
    });
    expect(declined.statusCode).toBe(409);
    expect(declined.json().status).toBe('publisherNotAuthorized');
    expect(await t.db.select().from(adPublisherActivations)).toEqual([]);
  });

  it('switching an ad off for one publisher stops it there only', async () => {
    const slot: SlotFacts = {
      channel: 'web',
      device: 'desktop',
      formatIds: null,
      location: null,
      now: t.clock.now().getTime(),
    };
    const serving = async (publisherId: number) => {
      const facts = await eligibilityFactsFor(t.db, largeAdId, publisherId, t.clock.now());
      return ineligibility(facts!.ad, facts!.campaign, slot);
    };
    expect(await serving(demoBlogId)).toBeNull();
    expect(await serving(randoId)).toBeNull();
    const off = await post(owner, 'update-campaign-ad-activation', {
      campaignId,
      ad: { id: largeAdId },
      adId: largeAdId,
      publisherId: demoBlogId,
      isAdActive: true,
      isAdPublisherActive: false,
    });
    expect(off.statusCode).toBe(200);
    expect(await serving(demoBlogId)).toBe('switchedOffForPublisher');
    expect(await serving(randoId)).toBeNull();
    const ex = (await post(owner, 'get-campaignex', { doByPublisher: true })).json() as TCampaignEx;
    const large = ex.ads.find((ad) => ad.id === largeAdId)!;
    expect(large.isShowing).toBe(true);
    expect(large.stats.byPublisher!.find((line) => line.id === demoBlogId)!.doShow).toBe(false);

    await post(owner, 'update-campaign-ad-activation', {
      campaignId,
      adId: largeAdId,
      publisherId: demoBlogId,
      isAdActive: true,
      isAdPublisherActive: true,
    });
    expect(await serving(demoBlogId)).toBeNull();
  });

  it('ejecting then serving: a showing ad cannot be ejected; an ejected ad is no longer served', async () => {
    const slot: SlotFacts = {
      channel: 'web',
      device: 'desktop',
      formatIds: null,
      location: null,
      now: t.clock.now().getTime(),
    };
    const serving = async () => {
      const facts = await eligibilityFactsFor(t.db, largeAdId, demoBlogId, t.clock.now());
      return ineligibility(facts!.ad, facts!.campaign, slot);
    };
    const showing = await post(owner, 'update-campaign-ad-ejection', { campaignId, adId: largeAdId, doEject: true });
    expect(showing.statusCode).toBe(409);
    expect(showing.json().status).toBe('adShowing');
    expect((await adRow(largeAdId)).isEjected).toBe(false);

    const switchOff = { campaignId, adId: largeAdId, publisherId: null, isAdActive: false };
    expect((await post(owner, 'update-campaign-ad-activation', switchOff)).statusCode).toBe(200);
    expect(await serving()).toBe('notShowing');
    expect(
      (await post(owner, 'update-campaign-ad-ejection', { campaignId, adId: largeAdId, doEject: true })).statusCode,
    ).toBe(200);
    expect(await serving()).toBe('ejected');
    const ex = (await post(owner, 'get-campaignex', {})).json() as TCampaignEx;
    expect(ex.ads.find((ad) => ad.id === largeAdId)).toMatchObject({ isEjected: true, isShowing: false });

    // An ejected ad's switch cannot move; re-injecting a locked ad is refused.
    const moved = await post(owner, 'update-campaign-ad-activation', { ...switchOff, isAdActive: true });
    expect(moved.json().status).toBe('adEjected');
    await t.db.update(ads).set({ isLocked: true }).where(eq(ads.id, largeAdId));
    const locked = await post(owner, 'update-campaign-ad-ejection', { campaignId, adId: largeAdId, doEject: false });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().status).toBe('adLocked');
    expect((await adRow(largeAdId)).isEjected).toBe(true);
    await t.db.update(ads).set({ isLocked: false }).where(eq(ads.id, largeAdId));

    expect(
      (await post(owner, 'update-campaign-ad-ejection', { campaignId, adId: largeAdId, doEject: false })).statusCode,
    ).toBe(200);
    expect((await post(owner, 'update-campaign-ad-activation', { ...switchOff, isAdActive: true })).statusCode).toBe(
      200,
    );
    expect(await serving()).toBeNull();
  });

  it('refuses to eject or switch any ad of a finished campaign', async () => {
    const before = await campaignRow(campaignId);
    await t.db.update(campaigns).set({ remainingImpressions: 0 }).where(eq(campaigns.id, campaignId));
    const eject = await post(owner, 'update-campaign-ad-ejection', { campaignId, adId: largeAdId, doEject: true });
    expect(eject.statusCode).toBe(409);
    expect(eject.json().status).toBe('campaignFinished');
    const ex = (await post(owner, 'get-campaignex', {})).json() as TCampaignEx;
    expect(ex.isFinished).toBe(true);
    await t.db
      .update(campaigns)
      .set({ remainingImpressions: before.remainingImpressions })
      .where(eq(campaigns.id, campaignId));
  });
});

describe('user-activity', () => {
  it('records the add-credits modal opening and refuses unknown activities', async () => {
    const ok = await owner.post('/api/common/user-activity', { activityStr: 'advertiserOpensAddCreditsModal' });
    expect(ok.statusCode).toBe(200);
    const bad = await owner.post('/api/common/user-activity', { activityStr: 'somethingElse' });
    expect(bad.statusCode).toBe(422);
    const [user] = await t.db.select().from(users).where(eq(users.email, 'advertiser@demo.test'));
    const rows = await t.db.select().from(userActivities).where(eq(userActivities.userId, user!.id));
    expect(rows.map((row) => row.activity)).toEqual(['advertiserOpensAddCreditsModal']);
    expect(
      (await t.client().post('/api/common/user-activity', { activityStr: 'advertiserOpensAddCreditsModal' }))
        .statusCode,
    ).toBe(401);
  });

  it('records at most USER_ACTIVITY_RATE a user an hour, answering ok beyond: nobody grows the table at will', async () => {
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    const [user] = await t.db.select().from(users).where(eq(users.email, 'publisher@demo.test'));
    const answers = [];
    for (let sent = 0; sent < USER_ACTIVITY_RATE.limit + 10; sent++) {
      const activity = { activityStr: 'advertiserClosesAddCreditsModal' };
      answers.push((await publisher.post('/api/common/user-activity', activity)).statusCode);
    }
    expect(answers.every((status) => status === 200)).toBe(true);
    const rows = await t.db.select().from(userActivities).where(eq(userActivities.userId, user!.id));
    expect(rows).toHaveLength(USER_ACTIVITY_RATE.limit);
  });
});
