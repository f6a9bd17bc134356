import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertisers, campaigns } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { demoIds } from '../../../test/call-samples.ts';
import {
  BROWSER_UA,
  blogAndTwoCampaigns,
  onlyCampaign,
  showOneAdOnly,
  siteOrigin,
  tokenFields,
} from '../../../test/serve-support.ts';

/** Public addresses and where geoip-lite's shipped database puts them (as in delivery/serve-geo.test.ts). */
const FRENCH_IP = '2.2.2.2'; // FR, no region
const PARIS_IP = '195.154.0.1'; // FR / IDF / Paris
const US_IP = '8.8.8.8'; // US
const UNKNOWN_IP = '10.77.0.1'; // private: no location

let t: TestApp;
let blog: number;
let bikes: number;
let ceramics: number;
let bikesAd: number;
let ceramicsAd: number;
/** multi@demo.test using its Vélo Urbain advertiser account, which runs the bikes campaign. */
let veloUrbain: TestClient;
let round = 0;

beforeAll(async () => {
  t = await buildTestApp();
  ({ blog, bikes, ceramics } = await blogAndTwoCampaigns(t.db));
  bikesAd = await showOneAdOnly(t.db, bikes);
  ceramicsAd = await showOneAdOnly(t.db, ceramics);
  const [owner] = await t.db
    .select({ id: advertisers.id })
    .from(advertisers)
    .innerJoin(campaigns, eq(campaigns.advertiserId, advertisers.id))
    .where(eq(campaigns.id, bikes));
  veloUrbain = t.client();
  await veloUrbain.signIn('multi@demo.test', { agree: true });
  expect((await veloUrbain.post('/api/common/update-user', { key: 'type', value: `2,${owner!.id}` })).statusCode).toBe(
    200,
  );
});
afterAll(async () => t.close());

async function geoTargetsOf(campaignId: number): Promise<string[]> {
  const [row] = await t.db
    .select({ geoTargets: campaigns.geoTargets })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return row!.geoTargets;
}

function save(client: TestClient, campaignId: number, geolocation: unknown) {
  return client.post('/api/advertiser/update-campaign-geolocation', { campaignId, geolocation });
}

/**
 * The ads (by id) served on one pageview to a visitor from `ip`, whose request reaches the app through a proxy at
 * `proxy` (loopback is trusted by default, TRUST_PROXY): a new browser each time.
 */
async function servedAds(ip: string, proxy = '127.0.0.1'): Promise<number[]> {
  round++;
  const ua = BROWSER_UA.replace('126.0.0.0', `126.0.${round}.0`);
  const origin = siteOrigin(t, blog);
  const response = await t.app.inject({
    method: 'GET',
    url: `/serve/d?p=${blog}&w=1280&u=${encodeURIComponent(`${origin}/article`)}`,
    remoteAddress: proxy,
    headers: { 'user-agent': ua, 'x-forwarded-for': ip, origin },
  });
  await t.app.delivery.recorder.flush();
  expect(response.statusCode).toBe(200);
  return (response.json() as { ads: Array<{ view: string }> }).ads.map((ad) => Number(tokenFields(ad.view)[4]));
}

describe('update-campaign-geolocation', () => {
  it("saves the advertiser's places, shows them on the campaign in one line, and empty means everywhere", async () => {
    expect((await save(veloUrbain, bikes, ['FR', 'BE/BRU', 'FR'])).statusCode).toBe(200);
    expect(await geoTargetsOf(bikes)).toEqual(['FR', 'BE/BRU']);
    const campaign = (await veloUrbain.post('/api/advertiser/get-campaignex', { campaignId: bikes })).json();
    expect(campaign.geolocation).toEqual(['FR', 'BE/BRU']);
    // In the user's language (multi@demo.test reads French): the dataset has no French name for the region.
    expect(campaign.geolocationStr).toMatch(/^France, Belgique: Brussels/);
    expect((await save(veloUrbain, bikes, [])).statusCode).toBe(200);
    expect(await geoTargetsOf(bikes)).toEqual([]);
    const everywhere = (await veloUrbain.post('/api/advertiser/get-campaignex', { campaignId: bikes })).json();
    expect(everywhere.geolocationStr).toBe('');
  });

  it('refuses unknown places and a selection that is not a list with a 4xx, changing nothing', async () => {
    await save(veloUrbain, bikes, ['FR/IDF']);
    for (const geolocation of [['FR', 'XX'], ['FR/IDF/Atlantis'], ['FR//Paris'], 'FR', { 0: 'FR' }, null, [7]]) {
      const response = await save(veloUrbain, bikes, geolocation);
      expect(response.statusCode, JSON.stringify(geolocation)).toBe(422);
      expect(await geoTargetsOf(bikes)).toEqual(['FR/IDF']);
    }
    const unknown = await save(veloUrbain, bikes, ['FR', 'XX']);
    expect(unknown.json()).toMatchObject({ status: 'unknownLocations', message: 'Unknown locations: XX.' });
    expect(
      (
        await save(
          veloUrbain,
          bikes,
          Array.from({ length: 1001 }, () => 'FR'),
        )
      ).statusCode,
    ).toBe(422);
  });

  it("refuses another advertiser's campaign (403) and a publisher, changing nothing", async () => {
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test', { agree: true });
    expect((await save(advertiser, bikes, ['US'])).statusCode).toBe(403);
    expect(await geoTargetsOf(bikes)).toEqual(['FR/IDF']);
    const { campaignId } = await demoIds(t.db);
    expect((await save(veloUrbain, campaignId, ['US'])).statusCode).toBe(403);
    expect(await geoTargetsOf(campaignId)).toEqual([]);
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test', { agree: true });
    expect((await save(publisher, bikes, ['US'])).statusCode).toBe(403);
    expect(await geoTargetsOf(bikes)).toEqual(['FR/IDF']);
  });
});

describe('serving honours a geotargeting saved on screen, at once', () => {
  it('serves an ad targeted to France to French visitors only, through a trusted proxy', async () => {
    await onlyCampaign(t, bikes, { impressions: 100_000 });
    expect((await save(veloUrbain, bikes, ['FR'])).statusCode).toBe(200);
    expect(await servedAds(FRENCH_IP)).toEqual([bikesAd]);
    expect(await servedAds(PARIS_IP)).toEqual([bikesAd]);
    expect(await servedAds(US_IP)).toEqual([]);
    expect(await servedAds(UNKNOWN_IP)).toEqual([]);
    // From a proxy that is not trusted, X-Forwarded-For is not believed: the visitor is the proxy, unlocated.
    expect(await servedAds(FRENCH_IP, '198.51.100.7')).toEqual([]);

    expect((await save(veloUrbain, bikes, ['FR/IDF/Paris'])).statusCode).toBe(200);
    expect(await servedAds(PARIS_IP)).toEqual([bikesAd]);
    expect(await servedAds(FRENCH_IP)).toEqual([]);

    expect((await save(veloUrbain, bikes, ['US'])).statusCode).toBe(200);
    expect(await servedAds(US_IP)).toEqual([bikesAd]);
    expect(await servedAds(PARIS_IP)).toEqual([]);
  });

  it('gives visitors outside the targeting, or of unknown location, only untargeted ads', async () => {
    await onlyCampaign(t, bikes, { impressions: 100_000 });
    await t.db
      .update(campaigns)
      .set({ remainingImpressions: 100_000, remainingClicks: 1_000 })
      .where(eq(campaigns.id, ceramics));
    await t.db.update(campaigns).set({ geoTargets: [] }).where(eq(campaigns.id, ceramics));
    expect((await save(veloUrbain, bikes, ['FR'])).statusCode).toBe(200);
    for (const ip of [US_IP, UNKNOWN_IP, US_IP, UNKNOWN_IP, US_IP, UNKNOWN_IP]) {
      expect(await servedAds(ip)).toEqual([ceramicsAd]);
    }
    // Either ad may be chosen for a French visitor: 24 draws, where 12 missed the targeted one now and then, from two
    // addresses, each under the visitors an address may bring in a minute.
    const french = new Set<number>();
    for (let visit = 0; visit < 12; visit++) {
      for (const ip of [FRENCH_IP, PARIS_IP]) for (const ad of await servedAds(ip)) french.add(ad);
    }
    expect(french.has(bikesAd)).toBe(true);
  });
});
