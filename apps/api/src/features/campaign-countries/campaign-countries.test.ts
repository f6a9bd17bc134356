import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adDecisions, advertisers, dailyAdStats, dailyCountryStats, type Database } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { demoIds } from '../../../test/call-samples.ts';
import { click, decide, onlyCampaign, publisherId, view } from '../../../test/serve-support.ts';
import { utcDay } from '../delivery/visitor.ts';
import { countryName } from './campaign-countries.ts';

/** Public addresses and where geoip-lite's shipped database puts them (as serve-geo.test.ts). */
const FRENCH_IP = '2.2.2.2';
const PARIS_IP = '195.154.0.1';
const US_IP = '8.8.8.8';
const PRIVATE_IP = '10.77.0.1';

let t: TestApp;
let owner: TestClient;
let campaignId: number;
let blog: number;
let today: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ campaignId } = await demoIds(t.db));
  blog = await publisherId(t.db, 'Demo Blog');
  owner = t.client();
  await owner.signIn('advertiser@demo.test');
  await onlyCampaign(t, campaignId, { impressions: 100_000 });
  today = utcDay(t.clock.now());
});
afterAll(async () => t.close());

let round = 0;
/** A pageview from `ip` (a new browser each time) whose ad is viewed, and clicked when asked. */
async function seen(ip: string, options: { click?: boolean } = {}) {
  round++;
  const visitor = { ip, ua: `Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.${round}.0 Safari/537.36` };
  const { ads } = await decide(t, blog, visitor);
  expect(ads).toHaveLength(1);
  expect((await view(t, ads[0]!.view, visitor)).statusCode).toBe(204);
  if (options.click) expect((await click(t, ads[0]!.click, visitor)).statusCode).toBe(302);
  await t.app.delivery.recorder.flush();
}

/** The campaign's figures of `day` as the Activity screen's totals count them (daily_ad_stats). */
async function campaignTotals(db: Database, day: string) {
  const [row] = await db
    .select({
      impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
      cost: sql<string>`coalesce(sum(${dailyAdStats.cost}), 0)::bigint`,
    })
    .from(dailyAdStats)
    .where(and(eq(dailyAdStats.campaignId, campaignId), eq(dailyAdStats.day, day)));
  return { impressions: Number(row!.impressions), clicks: Number(row!.clicks), cost: Number(row!.cost) / 1e6 };
}

const countries = (body: unknown, client = owner) => client.post('/api/advertiser/get-campaign-countries', body);

describe('figures by country', () => {
  it("counts each impression and click under the visitor's country, adding up to the campaign's totals", async () => {
    await seen(FRENCH_IP, { click: true });
    await seen(PARIS_IP);
    await seen(US_IP);
    await seen(PRIVATE_IP);

    const response = await countries({ campaignId, from: today, to: today });
    expect(response.statusCode).toBe(200);
    const body = response.json() as {
      countries: Array<{
        country: string;
        name: string;
        impressions: number;
        clicks: number;
        ctr: number;
        cost: number;
      }>;
      total: { impressions: number; clicks: number; ctr: number; cost: number };
    };
    expect(body.countries.map((row) => [row.country, row.name, row.impressions, row.clicks])).toEqual([
      ['FR', 'France', 2, 1],
      ['US', 'United States', 1, 0],
      ['ZZ', 'Unknown Region', 1, 0],
    ]);
    expect(body.countries[0]!.ctr).toBe(50);
    expect(body.countries.every((row) => row.cost > 0)).toBe(true);
    const totals = await campaignTotals(t.db, today);
    expect(body.total).toMatchObject({ impressions: totals.impressions, clicks: totals.clicks });
    expect(body.total.cost).toBeCloseTo(totals.cost, 6);
    // The decisions keep the country they were counted under.
    const recorded = await t.db.select({ country: adDecisions.country }).from(adDecisions);
    expect(new Set(recorded.map((row) => row.country))).toEqual(new Set(['FR', 'US', 'ZZ']));
  });

  it('names countries in the user language, and every day when no range is given', async () => {
    const french = t.client();
    await french.signIn('advertiser@demo.test');
    expect((await french.post('/api/common/update-user', { key: 'locale', value: 'fr' })).statusCode).toBe(200);
    const response = await countries({ campaignId }, french);
    expect(response.statusCode).toBe(200);
    const names = (response.json().countries as Array<{ country: string; name: string }>).map((row) => [
      row.country,
      row.name,
    ]);
    expect(names).toContainEqual(['FR', 'France']);
    expect(names).toContainEqual(['US', 'États-Unis']);
    expect(countryName('BE', 'fr')).toBe('Belgique');
    // The seeded history (30 days) is split by country too: the whole campaign adds up.
    const [all] = await t.db
      .select({ impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int` })
      .from(dailyAdStats)
      .where(eq(dailyAdStats.campaignId, campaignId));
    expect(response.json().total.impressions).toBe(Number(all!.impressions));
  });

  it('a day without figures answers no country', async () => {
    const response = await countries({ campaignId, from: '2020-01-01', to: '2020-01-02' });
    expect(response.json()).toEqual({ countries: [], total: { impressions: 0, clicks: 0, ctr: 0, cost: 0 } });
  });

  it("refuses another advertiser's campaign, other roles and bad input", async () => {
    // The multi-account user working as its advertiser Vélo Urbain: another advertiser.
    const other = t.client();
    await other.signIn('multi@demo.test');
    const [velo] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Vélo Urbain'));
    expect((await other.post('/api/common/update-user', { key: 'type', value: `2,${velo!.id}` })).statusCode).toBe(200);
    const refused = await countries({ campaignId, from: today, to: today }, other);
    expect([403, 404]).toContain(refused.statusCode);
    for (const email of ['admin@demo.test', 'publisher@demo.test']) {
      const client = t.client();
      await client.signIn(email);
      expect((await countries({ campaignId }, client)).statusCode).toBe(403);
    }
    for (const bad of [
      {},
      { campaignId: 'x' },
      { campaignId, from: '2026-02-30', to: '2026-03-01' },
      { campaignId, from: '0000-01-01', to: '2026-01-01' },
      { campaignId, from: today },
      { campaignId, from: '2026-03-02', to: '2026-03-01' },
      { campaignId, extra: true },
    ]) {
      expect((await countries(bad)).statusCode, JSON.stringify(bad)).toBe(422);
    }
    expect((await countries({ campaignId: 999_999 })).statusCode).toBe(404);
  });

  it('traffic set aside afterwards leaves the country figures with the totals', async () => {
    await seen(US_IP);
    const [decision] = await t.db
      .select({ id: adDecisions.id })
      .from(adDecisions)
      .where(eq(adDecisions.country, 'US'))
      .orderBy(sql`${adDecisions.createdAt} desc`)
      .limit(1);
    await t.db.execute(
      sql`select set_aside_traffic(${JSON.stringify([decision!.id])}::json, '[]'::json, 'ipVisitors', now())`,
    );
    const [us] = await t.db
      .select()
      .from(dailyCountryStats)
      .where(and(eq(dailyCountryStats.campaignId, campaignId), eq(dailyCountryStats.country, 'US')));
    expect(us?.impressions).toBe(1);
    const body = (await countries({ campaignId, from: today, to: today })).json();
    const totals = await campaignTotals(t.db, today);
    expect(body.total).toMatchObject({ impressions: totals.impressions, clicks: totals.clicks });
    expect(body.total.cost).toBeCloseTo(totals.cost, 6);
  });
});
