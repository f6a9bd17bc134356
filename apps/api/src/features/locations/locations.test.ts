import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLocation } from '@helium/contracts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { GeoLocator } from '../delivery/geo.ts';
import { geolocationSummary, unknownLocationIds } from './location-catalogue.ts';

let t: TestApp;
let advertiser: TestClient;

beforeAll(async () => {
  t = await buildTestApp();
  advertiser = t.client();
  await advertiser.signIn('advertiser@demo.test', { agree: true });
});
afterAll(async () => t.close());

async function locations(client: TestClient, body: object = {}): Promise<TLocation[]> {
  const response = await client.post('/api/locations', body);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { locations: TLocation[] }).locations;
}

describe('/api/locations', () => {
  it('lists every country, named and sorted in English, each with regions saying so; small and fast', async () => {
    const started = performance.now();
    const response = await advertiser.post('/api/locations', {});
    const took = performance.now() - started;
    const list = (response.json() as { locations: TLocation[] }).locations;
    expect(list.length).toBeGreaterThan(240);
    expect(list).toContainEqual({ id: 'FR', country: 'France', hasRegions: true });
    expect(list).toContainEqual({ id: 'US', country: 'United States', hasRegions: true });
    expect(list.every((entry) => /^[A-Z]{2}$/.test(entry.id) && !entry.region)).toBe(true);
    const names = list.map((entry) => entry.country);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
    // The whole tree is several MB; the countries alone are a few KB (docs/targeting.md).
    expect(response.body.length).toBeLessThan(30_000);
    expect(took).toBeLessThan(5_000);
  });

  it("lists a country's regions and cities with ids the IP database gives, each entry carrying its names", async () => {
    const france = await locations(advertiser, { country: 'FR' });
    expect(france[0]).toEqual({ id: 'FR', country: 'France' });
    expect(france).toContainEqual({ id: 'FR/IDF', country: 'France', region: 'Île-de-France' });
    expect(france).toContainEqual({ id: 'FR/IDF/Paris', country: 'France', region: 'Île-de-France', city: 'Paris' });
    expect(france).toContainEqual({
      id: 'FR/ARA/Lyon',
      country: 'France',
      region: 'Auvergne-Rhône-Alpes',
      city: 'Lyon',
    });
    // Regions are the IP database's (the 13 of metropolitan France), not the dataset's departments.
    expect(france.filter((entry) => entry.region && !entry.city).map((entry) => entry.id.split('/')[1])).toEqual(
      expect.arrayContaining(['IDF', 'ARA', 'BRE', 'OCC', 'PAC', 'HDF', 'GES', 'NAQ', 'NOR', 'PDL', 'CVL', 'BFC']),
    );
    expect(france.every((entry) => entry.id.startsWith('FR'))).toBe(true);

    const us = await locations(advertiser, { country: 'US' });
    expect(us).toContainEqual({ id: 'US/CA', country: 'United States', region: 'California' });
    expect(us.some((entry) => entry.id === 'US/CA/Los Angeles')).toBe(true);
    const belgium = await locations(advertiser, { country: 'BE' });
    expect(belgium.filter((entry) => !entry.city).map((entry) => entry.id)).toEqual(
      expect.arrayContaining(['BE', 'BE/BRU', 'BE/VLG', 'BE/WAL']),
    );
    const germany = await locations(advertiser, { country: 'DE' });
    expect(germany.some((entry) => entry.id === 'DE/BY/Munich')).toBe(true);
  });

  it('gives ids that serving compares with a visitor located by the IP database', async () => {
    const paris = new GeoLocator().locate('195.154.0.1')!;
    const ids = new Set((await locations(advertiser, { country: 'FR' })).map((entry) => entry.id));
    expect(ids.has(`${paris.country}/${paris.region}/${paris.city}`)).toBe(true);
    expect(ids.has(`${paris.country}/${paris.region}`)).toBe(true);
  });

  it('names countries in French for a French-speaking user; regions and cities keep their dataset name', async () => {
    const client = t.client();
    await client.signIn('advertiser@demo.test', { agree: true });
    expect((await client.post('/api/common/update-user', { key: 'locale', value: 'fr' })).statusCode).toBe(200);
    const countries = await locations(client);
    expect(countries).toContainEqual({ id: 'BE', country: 'Belgique', hasRegions: true });
    expect(countries).toContainEqual({ id: 'DE', country: 'Allemagne', hasRegions: true });
    const names = countries.map((entry) => entry.country);
    expect(names).toEqual([...names].sort(new Intl.Collator('fr').compare));
    const us = await locations(client, { country: 'US' });
    expect(us).toContainEqual({ id: 'US/CA', country: 'États-Unis', region: 'California' });
    expect((await client.post('/api/common/update-user', { key: 'locale', value: 'en' })).statusCode).toBe(200);
  });

  it('answers GET as POST, with the country in the query', async () => {
    const response = await advertiser.get('/api/locations?country=BE');
    expect(response.statusCode).toBe(200);
    expect((response.json() as { locations: TLocation[] }).locations).toEqual(
      await locations(advertiser, { country: 'BE' }),
    );
    expect((await advertiser.get('/api/locations')).json().locations.length).toBeGreaterThan(240);
    expect((await advertiser.get('/api/locations?country=fr')).statusCode).toBe(422);
  });

  it('refuses a malformed country (422) and answers an unknown one with nothing', async () => {
    for (const country of ['fr', 'FRA', 7, '']) {
      expect((await advertiser.post('/api/locations', { country })).statusCode).toBe(422);
    }
    expect(await locations(advertiser, { country: 'XX' })).toEqual([]);
  });

  it('is for advertisers and admins: publishers get 403, signed-out callers 401, on POST and GET', async () => {
    const admin = t.client();
    await admin.signIn('admin@demo.test', { agree: true });
    expect((await admin.post('/api/locations', { country: 'FR' })).statusCode).toBe(200);
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test', { agree: true });
    expect((await publisher.post('/api/locations', {})).statusCode).toBe(403);
    expect((await publisher.get('/api/locations')).statusCode).toBe(403);
    expect((await t.client().post('/api/locations', {})).statusCode).toBe(401);
    expect((await t.client().get('/api/locations')).statusCode).toBe(401);
  });
});

describe('unknownLocationIds and the summary', () => {
  it('knows the listed countries, regions and cities, and nothing else', async () => {
    expect(await unknownLocationIds(['FR', 'FR/IDF', 'FR/IDF/Paris', 'BE/BRU', 'US/CA/Los Angeles'])).toEqual([]);
    const wrong = ['XX', 'FR/ZZ', 'FR/IDF/Atlantis', 'FR/ARA/Paris', '', 'FR//Paris', 'fr', 'FR/IDF/Paris/Louvre'];
    expect(await unknownLocationIds(wrong)).toEqual(wrong);
  });

  it('summarises a geotargeting in the user language', async () => {
    expect(await geolocationSummary([], 'en')).toBe('');
    expect(await geolocationSummary(['FR', 'BE/BRU'], 'en')).toMatch(/^France, Belgium: Brussels/);
    expect(await geolocationSummary(['FR', 'BE/BRU'], 'fr')).toMatch(/^France, Belgique: Brussels/);
    expect(await geolocationSummary(['FR/IDF/Paris', 'FR/ARA'], 'en')).toBe('France: Paris, Auvergne-Rhône-Alpes');
  });
});
