import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  adPublisherActivations,
  adPublisherValidations,
  ads,
  advertisers,
  campaigns,
  dailyAdStats,
  publishers,
} from '@helium/db';
import type { TAdminActivityPublisher, TAdminActivityResponse, TAdminActivityShow } from '@helium/contracts';
import { ctrRank, DAY_MS } from '@helium/domain';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { campaignOfBrand, publisherId } from '../../../test/serve-support.ts';
import type { CtrWindow } from '../delivery/ctr-window.ts';

/** Admin: Activity by Publisher's toggle and ad cards, after the advertiser switches an ad off. */
let t: TestApp;
let admin: TestClient;
let largeAdId: number;
let blog: number;

const blogSection = async (showCompleteCampaignsOrInactiveAds: boolean) => {
  const response = await admin.post('/api/admin/get-activity', {
    sortBy: 'publisher',
    showCompleteCampaignsOrInactiveAds,
  });
  expect(response.statusCode).toBe(200);
  const body = response.json() as TAdminActivityResponse;
  expect(body.campaigns).toEqual([]);
  return body.publishers.find((one) => one.id === blog) as TAdminActivityPublisher;
};
const showsOn = (publisher: TAdminActivityPublisher, display: 'desktop' | 'mobile') =>
  publisher.displayData.find((one) => one.display === display)!.byAdvertiserShowData.flatMap((group) => group.shows);
const desktopShows = (publisher: TAdminActivityPublisher) => showsOn(publisher, 'desktop');
const ctrPct = (impressions: number, clicks: number) =>
  impressions > 0 ? Math.round((clicks / impressions) * 10_000) / 100 : 0;
/** UTC day `YYYY-MM-DD`, `days` after today (negative: before). */
const dayFromToday = (days: number) => new Date(t.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await buildTestApp();
  const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  const [large] = await t.db
    .select()
    .from(ads)
    .where(and(eq(ads.advertiserId, nordvik!.id), eq(ads.formatId, 5), eq(ads.adminValidation, 1)));
  largeAdId = large!.id;
  blog = await publisherId(t.db, 'Demo Blog');
  admin = t.client();
  await admin.signIn('admin@demo.test');
}, 60_000);

afterAll(async () => t?.close());

describe('admin activity by publisher: the figures of each ad card', () => {
  /** Today's counts of the large ad on Demo Blog, per device, with very different CTRs. */
  async function addToday(device: 'desktop' | 'mobile', impressions: number, clicks: number) {
    const [ad] = await t.db.select().from(ads).where(eq(ads.id, largeAdId));
    await t.db
      .insert(dailyAdStats)
      .values({
        day: dayFromToday(0),
        adId: largeAdId,
        publisherId: blog,
        device,
        campaignId: ad!.campaignId,
        advertiserId: ad!.advertiserId,
        impressions,
        clicks,
      })
      .onConflictDoUpdate({
        target: [dailyAdStats.day, dailyAdStats.adId, dailyAdStats.publisherId, dailyAdStats.device],
        set: {
          impressions: sql`${dailyAdStats.impressions} + ${impressions}`,
          clicks: sql`${dailyAdStats.clicks} + ${clicks}`,
        },
      });
  }

  it('gives each card the CTR of its own display, not desktop and mobile together', async () => {
    await addToday('desktop', 50_000, 100);
    await addToday('mobile', 50_000, 5_000);
    const section = await blogSection(false);
    const desktop = showsOn(section, 'desktop').find((show) => show.ad.id === largeAdId)!;
    const mobile = showsOn(section, 'mobile').find((show) => show.ad.id === largeAdId)!;
    expect(desktop.current_ctr).toBe(ctrPct(desktop.desktop_impressions, desktop.desktop_clicks));
    expect(mobile.current_ctr).toBe(ctrPct(mobile.mobile_impressions, mobile.mobile_clicks));
    expect(desktop.current_ctr).toBeLessThan(1);
    expect(mobile.current_ctr).toBeGreaterThan(8);
  });

  it('counts the cards over the last 7 days: today and the 6 days before, not the 7th day back', async () => {
    const [ad] = await t.db.select().from(ads).where(eq(ads.id, largeAdId));
    // A huge day just outside the window.
    await t.db
      .insert(dailyAdStats)
      .values({
        day: dayFromToday(-7),
        adId: largeAdId,
        publisherId: blog,
        device: 'mobile',
        campaignId: ad!.campaignId,
        advertiserId: ad!.advertiserId,
        impressions: 1_000_000,
        clicks: 900_000,
      })
      .onConflictDoUpdate({
        target: [dailyAdStats.day, dailyAdStats.adId, dailyAdStats.publisherId, dailyAdStats.device],
        set: { impressions: 1_000_000, clicks: 900_000 },
      });
    const [week] = await t.db
      .select({
        impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
        clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
      })
      .from(dailyAdStats)
      .where(
        and(
          eq(dailyAdStats.adId, largeAdId),
          eq(dailyAdStats.publisherId, blog),
          eq(dailyAdStats.device, 'mobile'),
          gte(dailyAdStats.day, dayFromToday(-6)),
        ),
      );
    const mobile = showsOn(await blogSection(false), 'mobile').find((show) => show.ad.id === largeAdId)!;
    expect(mobile.mobile_impressions).toBe(Number(week!.impressions));
    expect(mobile.mobile_clicks).toBe(Number(week!.clicks));
    expect(mobile.mobile_impressions).toBeLessThan(1_000_000);
  });

  it('gives shares with the 2 decimals the card shows and decides the fading on the server', async () => {
    // Two more ads of Nordvik approved by Demo Blog: its three ads share its part equally (Balancer).
    const [large] = await t.db.select().from(ads).where(eq(ads.id, largeAdId));
    const added = await t.db
      .insert(ads)
      .values(
        [1, 2].map((n) => ({
          advertiserId: large!.advertiserId,
          campaignId: large!.campaignId,
          type: 'image' as const,
          image: large!.image,
          filesize: large!.filesize,
          formatId: 5,
          link: `https://nordvik-outdoor.example/third-${n}`,
          adminValidation: 1,
        })),
      )
      .returning({ id: ads.id });
    await t.db
      .insert(adPublisherValidations)
      .values(added.map((row) => ({ adId: row.id, publisherId: blog, state: 1, decidedBy: 'admin' as const })));
    await t.app.delivery.refresh();
    const section = await blogSection(false);
    for (const display of ['desktop', 'mobile'] as const) {
      const nordvik = showsOn(section, display).filter((show: TAdminActivityShow) =>
        [largeAdId, ...added.map((row) => row.id)].includes(show.ad.id),
      );
      expect(nordvik.map((show) => show.share_pct)).toEqual([33.33, 33.33, 33.33]);
      expect(nordvik.every((show) => show.is_faded === false)).toBe(true);
    }
    const addedIds = added.map((row) => row.id);
    await t.db.delete(adPublisherValidations).where(inArray(adPublisherValidations.adId, addedIds));
    await t.db.delete(ads).where(inArray(ads.id, addedIds));
    await t.app.delivery.refresh();
  });
});

describe('admin activity by publisher', () => {
  it('gives each ad card its file size', async () => {
    const shows = desktopShows(await blogSection(false));
    const large = shows.find((show) => show.ad.id === largeAdId);
    expect(large).toBeDefined();
    const [row] = await t.db.select().from(ads).where(eq(ads.id, largeAdId));
    expect(large!.ad.filesize).toBe(row!.filesize);
    expect(large!.ad.filesize).toBeGreaterThan(0);
    expect(large!.ad.image).toBe(`/media/${row!.image}`);
  });

  it('shows an ad switched off for the publisher only with the complete/inactive toggle, with a 0 share', async () => {
    const owner = t.client();
    await owner.signIn('advertiser@demo.test');
    const [ad] = await t.db.select().from(ads).where(eq(ads.id, largeAdId));
    const off = await owner.post('/api/advertiser/update-campaign-ad-activation', {
      campaignId: ad!.campaignId,
      adId: largeAdId,
      publisherId: blog,
      isAdActive: true,
      isAdPublisherActive: false,
    });
    expect(off.statusCode).toBe(200);
    expect(desktopShows(await blogSection(false)).some((show) => show.ad.id === largeAdId)).toBe(false);
    const inactive = desktopShows(await blogSection(true)).find((show) => show.ad.id === largeAdId);
    expect(inactive).toMatchObject({ share_pct: 0, is_faded: true, desktopRank: null });
  });
});

describe('admin activity: order, grouping and work per request', () => {
  it('lists campaigns by advertiser then campaign id, and publishers by id', async () => {
    // An update moves a row to the end of its table: an unordered read would then list it last.
    const [first] = await t.db.select().from(campaigns).orderBy(asc(campaigns.id)).limit(1);
    await t.db.update(campaigns).set({ cpm: first!.cpm }).where(eq(campaigns.id, first!.id));
    const [firstPublisher] = await t.db.select().from(publishers).orderBy(asc(publishers.id)).limit(1);
    await t.db.update(publishers).set({ brand: firstPublisher!.brand }).where(eq(publishers.id, firstPublisher!.id));
    // A later campaign of the first advertiser: listed with that advertiser's, not after the others'.
    const [firstAdvertiser] = await t.db
      .select({ id: campaigns.advertiserId })
      .from(campaigns)
      .orderBy(asc(campaigns.advertiserId))
      .limit(1);
    const [added] = await t.db
      .insert(campaigns)
      .values({ advertiserId: firstAdvertiser!.id, cpm: 1_000_000, remainingImpressions: 1_000 })
      .returning({ id: campaigns.id });
    await t.app.delivery.refresh();

    const byAdvertiser = await admin.post('/api/admin/get-activity', {
      sortBy: 'advertiser',
      showCompleteCampaignsOrInactiveAds: true,
    });
    const expected = await t.db
      .select({ id: campaigns.id })
      .from(campaigns)
      .orderBy(asc(campaigns.advertiserId), asc(campaigns.id));
    const listed = (byAdvertiser.json() as TAdminActivityResponse).campaigns.map((one) => one.id);
    expect(listed).toEqual(expected.map((row) => row.id));
    expect(listed).not.toEqual([...listed].sort((a, b) => a - b));
    await t.db.delete(campaigns).where(eq(campaigns.id, added!.id));
    await t.app.delivery.refresh();

    const byPublisher = await admin.post('/api/admin/get-activity', { sortBy: 'publisher' });
    const web = await t.db
      .select({ id: publishers.id })
      .from(publishers)
      .where(eq(publishers.isWeb, true))
      .orderBy(asc(publishers.id));
    expect((byPublisher.json() as TAdminActivityResponse).publishers.map((one) => one.id)).toEqual(
      web.map((row) => row.id),
    );
  });

  it("keeps an advertiser's inactive ads apart from another advertiser of the same brand", async () => {
    const ceramics = await campaignOfBrand(t.db, 'atelier-ceramique.example');
    const bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
    const advertiserOf = async (campaignId: number) => {
      const [row] = await t.db
        .select({ advertiser: advertisers })
        .from(campaigns)
        .innerJoin(advertisers, eq(advertisers.id, campaigns.advertiserId))
        .where(eq(campaigns.id, campaignId));
      return row!.advertiser;
    };
    const ceramicsAdvertiser = await advertiserOf(ceramics);
    const bikesAdvertiser = await advertiserOf(bikes);
    // Vélo Urbain takes Atelier Céramique's brand, and its ads stop showing: inactive on Demo Blog.
    await t.db
      .update(advertisers)
      .set({ brand: ceramicsAdvertiser.brand })
      .where(eq(advertisers.id, bikesAdvertiser.id));
    await t.db.update(ads).set({ isShowing: false }).where(eq(ads.campaignId, bikes));
    await t.app.delivery.refresh();
    try {
      const bikeAds = (await t.db.select({ id: ads.id }).from(ads).where(eq(ads.campaignId, bikes))).map(
        (row) => row.id,
      );
      const desktop = (await blogSection(true)).displayData.find((one) => one.display === 'desktop')!;
      const withBikes = desktop.byAdvertiserShowData.filter((group) =>
        group.shows.some((show) => bikeAds.includes(show.ad.id)),
      );
      expect(withBikes).toHaveLength(1);
      const group = withBikes[0]!;
      // Only Vélo Urbain's ads, with no share: not merged into Atelier Céramique's served group.
      expect(group.shows.every((show) => bikeAds.includes(show.ad.id))).toBe(true);
      expect(group.totalSharePct).toBe(0);
      expect(group.advertiserBrand).toBe(ceramicsAdvertiser.brand);
      const served = desktop.byAdvertiserShowData.find(
        (one) => one.totalSharePct > 0 && one.advertiserBrand === group.advertiserBrand,
      );
      expect(served).toBeDefined();
    } finally {
      await t.db
        .update(advertisers)
        .set({ brand: bikesAdvertiser.brand })
        .where(eq(advertisers.id, bikesAdvertiser.id));
      await t.db.update(ads).set({ isShowing: true }).where(eq(ads.campaignId, bikes));
      await t.app.delivery.refresh();
    }
  });

  it("computes the network's CTR thresholds once per request, not once per ad card", async () => {
    const window = t.app.delivery.state().ctrWindow as CtrWindow;
    const values = vi.spyOn(window, 'values');
    try {
      const section = await blogSection(true);
      const cards = section.displayData.flatMap((display) =>
        display.byAdvertiserShowData.flatMap((group) => group.shows),
      );
      expect(cards.length).toBeGreaterThan(2);
      // Each card's colour is the rank of the CTR it shows (its display's, over 7 days), not of the ad's elsewhere.
      const thresholds = t.app.delivery.ctrThresholds();
      const minimum = t.app.delivery.state().index.settings.minImpressionsForCtrRank;
      const ranked = section.displayData.flatMap((display) =>
        display.byAdvertiserShowData.flatMap((group) =>
          group.shows.map((card) => {
            const impressions = display.display === 'desktop' ? card.desktop_impressions : card.mobile_impressions;
            const clicks = display.display === 'desktop' ? card.desktop_clicks : card.mobile_clicks;
            return { card, expected: ctrRank({ impressions, clicks }, thresholds, minimum) };
          }),
        ),
      );
      expect(ranked.filter(({ expected }) => expected !== null).length).toBeGreaterThan(2);
      for (const { card, expected } of ranked) expect(card.ctrRankStr).toBe(expected);
      for (const { card } of ranked.filter(({ card }) => card.ctrRankStr === 'high'))
        expect(card.current_ctr).toBeGreaterThanOrEqual(Math.floor(thresholds!.higher * 10_000) / 100);
      for (const { card } of ranked.filter(({ card }) => card.ctrRankStr === 'low'))
        expect(card.current_ctr).toBeLessThanOrEqual(Math.ceil(thresholds!.lower * 10_000) / 100);
      values.mockClear();
      await blogSection(true);
      expect(values).toHaveBeenCalledTimes(1);
    } finally {
      values.mockRestore();
    }
  });
});

describe('admin activity by advertiser: inventory and showing', () => {
  const campaignsView = async () => {
    const response = await admin.post('/api/admin/get-activity', {
      sortBy: 'advertiser',
      showCompleteCampaignsOrInactiveAds: true,
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as TAdminActivityResponse).campaigns;
  };

  it('rounds "Empty in N Days" down: just under 7 days is not sent as 7', async () => {
    const bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
    const before = (await campaignsView()).find((one) => one.id === bikes)!;
    const [stored] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    const yesterday = before.ex.inventory.yesterdayThisCpmCampaignImpressions;
    expect(yesterday).toBeGreaterThanOrEqual(20);
    try {
      // 7 days less one impression: 6.95 to 6.99 days, which one decimal would round up to 7.0 (orange, not red).
      await t.db
        .update(campaigns)
        .set({ remainingImpressions: 7 * yesterday - 1 })
        .where(eq(campaigns.id, bikes));
      await t.app.delivery.refresh();
      const after = (await campaignsView()).find((one) => one.id === bikes)!;
      const days = after.ex.inventory.daysToEmptyImpressions!;
      expect(days).toBeLessThan(7);
      expect(days).toBe(Math.floor(((7 * yesterday - 1) / yesterday) * 100) / 100);
    } finally {
      await t.db
        .update(campaigns)
        .set({ remainingImpressions: stored!.remainingImpressions })
        .where(eq(campaigns.id, bikes));
      await t.app.delivery.refresh();
    }
  });

  it('shows a campaign as paused once the advertiser switched its ads off on every publisher that approved them', async () => {
    const bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
    expect((await campaignsView()).find((one) => one.id === bikes)!.ex.isShowing).toBe(true);
    const bikeAds = await t.db.select({ id: ads.id }).from(ads).where(eq(ads.campaignId, bikes));
    const approvals = await t.db
      .select({ adId: adPublisherValidations.adId, publisherId: adPublisherValidations.publisherId })
      .from(adPublisherValidations)
      .where(
        inArray(
          adPublisherValidations.adId,
          bikeAds.map((ad) => ad.id),
        ),
      );
    // Each ad was approved by some publisher (an ad approved by none would show on its own switch alone).
    expect(bikeAds.every((ad) => approvals.some((one) => one.adId === ad.id))).toBe(true);
    const [first, ...rest] = approvals;
    try {
      // Switched off everywhere but one publisher: still showing there.
      for (const { adId, publisherId: id } of rest)
        await t.db
          .insert(adPublisherActivations)
          .values({ adId, publisherId: id, doShow: false, updatedAt: new Date() });
      await t.app.delivery.refresh();
      if (rest.length > 0) expect((await campaignsView()).find((one) => one.id === bikes)!.ex.isShowing).toBe(true);
      await t.db
        .insert(adPublisherActivations)
        .values({ adId: first!.adId, publisherId: first!.publisherId, doShow: false, updatedAt: new Date() });
      await t.app.delivery.refresh();
      // Every ad is off wherever it was approved: the campaign is paused, as the advertiser's own screen says.
      expect((await campaignsView()).find((one) => one.id === bikes)!.ex.isShowing).toBe(false);
    } finally {
      await t.db.delete(adPublisherActivations).where(
        inArray(
          adPublisherActivations.adId,
          bikeAds.map((ad) => ad.id),
        ),
      );
      await t.app.delivery.refresh();
    }
  });
});
