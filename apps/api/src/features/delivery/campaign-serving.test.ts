import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, advertisers } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { campaignOfBrand, decide, onlyCampaign, publisherId } from '../../../test/serve-support.ts';

/**
 * The advertiser's switches through the real serving endpoint: an ejected ad is no longer served, and an ad
 * switched off for one publisher stops there only. Vélo Urbain (the multi-account user's advertiser) has
 * ads approved on every demo publisher.
 */
let t: TestApp;
let velo: TestClient;
let campaignId: number;
let cargoId: number;
let pliantId: number;
let blog: number;
let cuisine: number;

const BLOG_PAGE = 'http://localhost:8080/article';
const CUISINE_PAGE = 'https://cuisine-facile.example/recettes/tarte';
let visitorCount = 0;
const served = async (publisher: number, page: string) => {
  visitorCount += 1;
  const { ads: list } = await decide(t, publisher, { ip: `10.77.0.${visitorCount}` }, page);
  return list.length;
};
const post = (path: string, body: unknown) => velo.post(`/api/advertiser/${path}`, body);

beforeAll(async () => {
  t = await buildTestApp();
  campaignId = await campaignOfBrand(t.db, 'velo-urbain.example');
  const adId = async (path: string) => {
    const [row] = await t.db
      .select({ id: ads.id })
      .from(ads)
      .where(and(eq(ads.campaignId, campaignId), eq(ads.link, `https://velo-urbain.example/helium-demo/${path}`)));
    return row!.id;
  };
  cargoId = await adId('cargo');
  pliantId = await adId('pliant');
  blog = await publisherId(t.db, 'Demo Blog');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  await onlyCampaign(t, campaignId, { impressions: 100_000 });
  velo = t.client();
  await velo.signIn('multi@demo.test');
  const [advertiser] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Vélo Urbain'));
  await velo.post('/api/common/update-user', { key: 'type', value: `2,${advertiser!.id}` });
  // Only the square cargo ad stays on, so every served ad is that one.
  const off = await post('update-campaign-ad-activation', {
    campaignId,
    adId: pliantId,
    publisherId: null,
    isAdActive: false,
  });
  expect(off.statusCode).toBe(200);
}, 60_000);

afterAll(async () => t?.close());

describe('advertiser switches and serving', () => {
  it('serves the ad on both publishers to begin with', async () => {
    expect(await served(blog, BLOG_PAGE)).toBe(1);
    expect(await served(cuisine, CUISINE_PAGE)).toBe(1);
  });

  it('switching the ad off for one publisher stops it there only, at once', async () => {
    const off = await post('update-campaign-ad-activation', {
      campaignId,
      adId: cargoId,
      publisherId: blog,
      isAdActive: true,
      isAdPublisherActive: false,
    });
    expect(off.statusCode).toBe(200);
    expect(await served(blog, BLOG_PAGE)).toBe(0);
    expect(await served(cuisine, CUISINE_PAGE)).toBe(1);
    await post('update-campaign-ad-activation', {
      campaignId,
      adId: cargoId,
      publisherId: blog,
      isAdActive: true,
      isAdPublisherActive: true,
    });
    expect(await served(blog, BLOG_PAGE)).toBe(1);
  });

  it('ejecting then serving: an ejected ad is no longer served anywhere', async () => {
    await post('update-campaign-ad-activation', { campaignId, adId: cargoId, publisherId: null, isAdActive: false });
    expect((await post('update-campaign-ad-ejection', { campaignId, adId: cargoId, doEject: true })).statusCode).toBe(
      200,
    );
    expect(await served(blog, BLOG_PAGE)).toBe(0);
    expect(await served(cuisine, CUISINE_PAGE)).toBe(0);
    // Re-injected and switched on, it is served again.
    await post('update-campaign-ad-ejection', { campaignId, adId: cargoId, doEject: false });
    await post('update-campaign-ad-activation', { campaignId, adId: cargoId, publisherId: null, isAdActive: true });
    expect(await served(cuisine, CUISINE_PAGE)).toBe(1);
  });
});
