import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative as relativePath, resolve } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidTraffic } from '@helium/db';
import { loadConfig } from '../../config.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  campaignOfBrand,
  click,
  counts,
  decide,
  onlyCampaign,
  publisherId,
  view,
} from '../../../test/serve-support.ts';

/*
 * docs/decisions.md section 4: traffic from data-centre IPs is invalid. The ranges come from the file named by
 * DATACENTER_IP_RANGES_FILE (docs/configuration.md); such pageviews, views and clicks are set aside.
 */

let t: TestApp;
let blog: number;
let bikes: number;
const CLOUD = { ip: '203.0.113.40' };
const HOME = { ip: '10.80.0.1' };

beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'helium-datacentres-'));
  const file = join(folder, 'datacentres.txt');
  writeFileSync(file, '# a hosting provider\n203.0.113.0/24\n2001:db8:c10d::/48\n');
  t = await buildTestApp({ env: { DATACENTER_IP_RANGES_FILE: file } });
  blog = await publisherId(t.db, 'Demo Blog');
  bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
  await onlyCampaign(t, bikes, { impressions: 1000 });
});
afterAll(async () => t.close());

async function setAside(reason: string) {
  const [row] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(invalidTraffic)
    .where(and(eq(invalidTraffic.reason, reason as 'dataCentre')));
  return row?.n ?? 0;
}

describe('traffic from data centres', () => {
  it('sets aside a pageview from a listed address, IPv4 or IPv6, and serves it no ad', async () => {
    const before = await counts(t.db);
    const asideBefore = await setAside('dataCentre');
    for (const visitor of [CLOUD, { ip: '2001:db8:c10d:1::5' }]) {
      const { response, ads } = await decide(t, blog, visitor);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-helium-counted']).toBe('invalid');
      expect(ads).toEqual([]);
    }
    const after = await counts(t.db);
    expect(after.daily.pageviews).toBe(before.daily.pageviews);
    expect(after.daily.invalidPageviews).toBe(before.daily.invalidPageviews + 2);
    expect(await setAside('dataCentre')).toBe(asideBefore + 2);
  });

  it("sets aside a view and a click sent from a listed address for another visitor's ad", async () => {
    const { ads } = await decide(t, blog, HOME);
    expect(ads).toHaveLength(1);
    const before = await counts(t.db);
    const beacon = await view(t, ads[0]!.view, CLOUD);
    expect(beacon.headers['x-helium-counted']).toBe('invalid');
    const redirect = await click(t, ads[0]!.click, CLOUD);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers['x-helium-counted']).toBe('invalid');
    const after = await counts(t.db);
    expect(after.impressions).toBe(before.impressions);
    expect(after.uniqueClicks).toBe(before.uniqueClicks);
    // The visitor's own view still counts.
    expect((await view(t, ads[0]!.view, HOME)).headers['x-helium-counted']).toBe('counted');
  });

  it('counts an ordinary visitor as before', async () => {
    const { response, ads } = await decide(t, blog, { ip: '10.80.0.2' });
    expect(response.headers['x-helium-counted']).toBe('counted');
    expect(ads).toHaveLength(1);
  });
});

describe('the ranges file', () => {
  it('is named by DATACENTER_IP_RANGES_FILE, none by default; a file that does not exist stops the start', () => {
    const load = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: tmpdir(), SESSION_SECRET: 'x'.repeat(40), ...env }).datacenterIpRangesFile;
    expect(load({})).toBeUndefined();
    const folder = mkdtempSync(join(tmpdir(), 'helium-ranges-'));
    writeFileSync(join(folder, 'datacentres.txt'), '203.0.113.0/24\n');
    const relative = relativePath(process.cwd(), join(folder, 'datacentres.txt'));
    expect(load({ DATACENTER_IP_RANGES_FILE: relative })).toBe(resolve(relative));
    expect(() => load({ DATACENTER_IP_RANGES_FILE: 'ranges/missing.txt' })).toThrow(
      /^DATACENTER_IP_RANGES_FILE names a file that does not exist/,
    );
  });
});
