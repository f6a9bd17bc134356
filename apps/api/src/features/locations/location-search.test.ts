import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLocation } from '@helium/contracts';
import { LOCATION_SEARCH_LIMIT } from '@helium/domain/locations';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { matchRank } from './location-search.ts';

let t: TestApp;
let advertiser: TestClient;

beforeAll(async () => {
  t = await buildTestApp();
  advertiser = t.client();
  await advertiser.signIn('advertiser@demo.test', { agree: true });
});
afterAll(async () => t.close());

const PATH = '/api/common/search-locations';

async function search(client: TestClient, query: string): Promise<TLocation[]> {
  const response = await client.post(PATH, { query });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { locations: TLocation[] }).locations;
}

describe('matchRank', () => {
  it('ranks the whole name, then its start, then a word’s start, then anywhere', () => {
    expect(matchRank('sao paulo', 'sao paulo')).toBe(0);
    expect(matchRank('sao paulo do potengi', 'sao paulo')).toBe(1);
    expect(matchRank('sitio sao paulo', 'sao paulo')).toBe(2);
    expect(matchRank('lisao paulo', 'sao paulo')).toBe(3);
    expect(matchRank('lyon', 'sao paulo')).toBeNull();
  });
});

describe('POST /api/common/search-locations', () => {
  it('finds a city whatever its accents and case, with its region and country, as the list names them', async () => {
    const found = await search(advertiser, 'sao paulo');
    // The region of the same name first (a larger place at the same rank), then the city in it.
    expect(found[0]).toEqual({ id: 'BR/SP', country: 'Brazil', region: 'São Paulo' });
    expect(found).toContainEqual({ id: 'BR/SP/São Paulo', country: 'Brazil', region: 'São Paulo', city: 'São Paulo' });
    // The same city as the country's list gives it (so that choosing it selects the box the tree has).
    const brazil = (await advertiser.post('/api/locations', { country: 'BR' })).json() as { locations: TLocation[] };
    expect(brazil.locations).toContainEqual(found.find((place) => place.id === 'BR/SP/São Paulo'));
    expect(await search(advertiser, 'SÃO PAULO')).toEqual(found);
  });

  it('finds countries and regions, in the caller’s language, best matches first and at most 20', async () => {
    const english = await search(advertiser, 'germ');
    expect(english[0]).toEqual({ id: 'DE', country: 'Germany' });
    const found = await search(advertiser, 'ile-de-fr');
    expect(found).toContainEqual({ id: 'FR/IDF', country: 'France', region: 'Île-de-France' });

    const french = t.client();
    await french.signIn('multi@demo.test', { agree: true });
    expect((await search(french, 'allemagne'))[0]).toEqual({ id: 'DE', country: 'Allemagne' });

    const many = await search(advertiser, 'san');
    expect(many).toHaveLength(LOCATION_SEARCH_LIMIT);
    const ids = many.map((place) => place.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers nothing for a name no place has', async () => {
    expect(await search(advertiser, 'zzqxw')).toEqual([]);
  });

  it('refuses a query under 2 characters or over 100, or none, with 422 naming the field', async () => {
    for (const body of [{ query: 'a' }, { query: '  b  ' }, { query: 'x'.repeat(101) }, {}, { query: 12 }]) {
      const response = await advertiser.post(PATH, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.body).toContain('query');
    }
  });

  it('refuses a caller who is not signed in', async () => {
    const response = await t.client().post(PATH, { query: 'paris' });
    expect(response.statusCode).toBe(401);
  });

  it('answers any signed-in user: publishers and admins too', async () => {
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test', { agree: true });
    expect((await search(publisher, 'belgium'))[0]).toEqual({ id: 'BE', country: 'Belgium' });
  });
});
