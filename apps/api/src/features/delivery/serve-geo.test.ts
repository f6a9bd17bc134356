import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '@helium/db';
import { GeoLocator } from './geo.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { campaignOfBrand, decide, onlyCampaign, publisherId } from '../../../test/serve-support.ts';

/** Public addresses and where the IP database shipped with geoip-lite puts them. */
const FRENCH_IP = '2.2.2.2'; // FR, no region
const PARIS_IP = '195.154.0.1'; // FR / IDF / Paris
const US_IP = '8.8.8.8'; // US
const PRIVATE_IP = '10.77.0.1'; // no location

let t: TestApp;
let blog: number;
let bikes: number;
let round = 0;

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
});
afterAll(async () => t.close());

async function target(geoTargets: string[]) {
  await t.db.update(campaigns).set({ geoTargets }).where(eq(campaigns.id, bikes));
  await onlyCampaign(t, bikes, { impressions: 100_000 });
}

/** How many ads a visitor from this IP is served on one pageview (a new browser each time). */
async function served(ip: string): Promise<number> {
  round++;
  const ua = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.${round}.0 Safari/537.36`;
  const { response, ads } = await decide(t, blog, { ip, ua });
  expect(response.statusCode).toBe(200);
  return ads.length;
}

describe('geotargeting', () => {
  it('a campaign targeted at FR is served to a French IP, not to a US one nor to an unknown address', async () => {
    await target(['FR']);
    expect(await served(FRENCH_IP)).toBe(1);
    expect(await served(PARIS_IP)).toBe(1);
    expect(await served(US_IP)).toBe(0);
    expect(await served(PRIVATE_IP)).toBe(0);
  });

  it('a region or a city narrows it; several targets add up', async () => {
    await target(['FR/IDF']);
    expect(await served(PARIS_IP)).toBe(1);
    expect(await served(FRENCH_IP)).toBe(0);
    await target(['FR/IDF/Paris']);
    expect(await served(PARIS_IP)).toBe(1);
    expect(await served(FRENCH_IP)).toBe(0);
    await target(['FR/IDF/Lyon', 'US']);
    expect(await served(PARIS_IP)).toBe(0);
    expect(await served(US_IP)).toBe(1);
  });

  it('an untargeted campaign is served everywhere', async () => {
    await target([]);
    for (const ip of [FRENCH_IP, PARIS_IP, US_IP, PRIVATE_IP]) expect(await served(ip)).toBe(1);
  });
});

describe('GeoLocator', () => {
  it('looks an IP up once and keeps its location (or its absence), forgetting the oldest beyond its size', () => {
    const asked: string[] = [];
    const geo = new GeoLocator((ip) => {
      asked.push(ip);
      return ip.startsWith('2.') ? { country: 'FR' } : null;
    }, 2);
    expect(geo.locate('2.2.2.2')).toEqual({ country: 'FR' });
    expect(geo.locate('::ffff:2.2.2.2')).toEqual({ country: 'FR' });
    expect(geo.locate('10.0.0.1')).toBeNull();
    expect(geo.locate('10.0.0.1')).toBeNull();
    expect(asked).toEqual(['2.2.2.2', '10.0.0.1']);
    geo.locate('10.0.0.2');
    geo.locate('2.2.2.2');
    expect(asked).toEqual(['2.2.2.2', '10.0.0.1', '10.0.0.2', '2.2.2.2']);
  });

  it("reads geoip-lite's shipped database: country, region code and city", () => {
    const geo = new GeoLocator();
    expect(geo.locate(PARIS_IP)).toEqual({ country: 'FR', region: 'IDF', city: 'Paris' });
    expect(geo.locate(FRENCH_IP)).toEqual({ country: 'FR' });
    expect(geo.locate(US_IP)).toEqual({ country: 'US' });
    expect(geo.locate(PRIVATE_IP)).toBeNull();
    expect(geo.locate('127.0.0.1')).toBeNull();
  });
});
