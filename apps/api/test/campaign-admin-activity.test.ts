import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, advertisers } from '@helium/db';
import type { TAdminActivityPublisher, TAdminActivityResponse } from '@helium/contracts';
import { buildTestApp, type TestApp, type TestClient } from './helper.ts';
import { publisherId } from './serve-support.ts';

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
const desktopShows = (publisher: TAdminActivityPublisher) =>
  publisher.displayData.find((one) => one.display === 'desktop')!.byAdvertiserShowData.flatMap((group) => group.shows);

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
    expect(inactive).toMatchObject({ share_pct: 0, desktopRank: null });
  });
});
