import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { campaignOfBrand, decide, onlyCampaign, publisherId, view } from '../../../test/serve-support.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('POST /api/admin/get-activity', () => {
  it('is for admins only', async () => {
    expect((await t.client().post('/api/admin/get-activity', {})).statusCode).toBe(401);
    for (const email of ['publisher@demo.test', 'advertiser@demo.test']) {
      const client = t.client();
      await client.signIn(email);
      expect((await client.post('/api/admin/get-activity', {})).statusCode).toBe(403);
    }
  });

  it('refuses a malformed request with 422 and says which field is wrong', async () => {
    const admin = t.client();
    await admin.signIn('admin@demo.test');
    const badSort = await admin.post('/api/admin/get-activity', { sortBy: 'revenue' });
    expect(badSort.statusCode).toBe(422);
    expect(badSort.json().issues.map((issue: { path: string }) => issue.path)).toEqual(['sortBy']);
    const badToggle = await admin.post('/api/admin/get-activity', { showCompleteCampaignsOrInactiveAds: 'yes' });
    expect(badToggle.statusCode).toBe(422);
    expect(badToggle.json().issues.map((issue: { path: string }) => issue.path)).toEqual([
      'showCompleteCampaignsOrInactiveAds',
    ]);
  });

  it('shows campaigns with their counted totals and remaining credits', async () => {
    const blog = await publisherId(t.db, 'Demo Blog');
    const bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
    await onlyCampaign(t, bikes, { impressions: 500 });
    const visitor = { ip: '10.20.0.1' };
    const { ads } = await decide(t, blog, visitor);
    await view(t, ads[0]!.view, visitor);
    const admin = t.client();
    await admin.signIn('admin@demo.test');
    const response = await admin.post('/api/admin/get-activity', { sortBy: 'advertiser' });
    expect(response.statusCode).toBe(200);
    const campaign = response.json().campaigns.find((one: { id: number }) => one.id === bikes);
    expect(campaign.ex.advertiser.brand).toBe('Vélo Urbain');
    expect(campaign.ex.stats.total.remainingImpressions).toBe(499);
    expect(campaign.ex.stats.total.impressions).toBeGreaterThanOrEqual(1);
    expect(response.json().publishers).toEqual([]);
  });

  it('shows each web publisher display with its mode, advertiser shares and ad ranks', async () => {
    const admin = t.client();
    await admin.signIn('admin@demo.test');
    const response = await admin.post('/api/admin/get-activity', { sortBy: 'publisher' });
    expect(response.statusCode).toBe(200);
    const blog = response.json().publishers.find((one: { brand: string }) => one.brand === 'Demo Blog');
    expect(blog.isDesktopAutoPilot).toBe(false);
    expect(blog.desktopMinImpressionsToAutoPilot).toBe(1000);
    const desktop = blog.displayData.find((one: { display: string }) => one.display === 'desktop');
    expect(desktop.thisDisplayTotalSharePct).toBe(100);
    const advertiser = desktop.byAdvertiserShowData[0];
    expect(advertiser.totalSharePct).toBe(100);
    expect(advertiser.shows.length).toBeGreaterThan(0);
    expect(advertiser.shows[0].desktopRank).toBe(1);
    const mobile = blog.displayData.find((one: { display: string }) => one.display === 'mobile');
    const formats = mobile.byAdvertiserShowData.flatMap((one: { shows: Array<{ format_id: number }> }) =>
      one.shows.map((show) => show.format_id),
    );
    expect(formats).not.toContain(1);
  });
});
