import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adClicks, adImpressions, campaigns, dailyAdStats, invalidTraffic } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  blogAndTwoCampaigns,
  click,
  decide,
  decisionIdOf,
  onlyCampaign,
  showOneAdOnly,
  view,
} from '../../../test/serve-support.ts';

/*
 * The database is the last guard of the money (migration 0021): a campaign's credits never go below zero because
 * the database refuses the spend, not because one process remembers them. Here the engine believes a campaign has
 * credits that the database no longer holds (another instance spent them, or an admin took them back): what would
 * overdraw is refused, billed to nobody, paid to nobody, and set aside as `noCredits`.
 */

let t: TestApp;
let blog: number;
let bikes: number;
let ceramics: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ blog, bikes, ceramics } = await blogAndTwoCampaigns(t.db));
  await showOneAdOnly(t.db, bikes);
});
afterAll(async () => t.close());

async function campaignMoney(campaignId: number) {
  const [row] = await t.db
    .select({
      impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
      cost: sql<number>`coalesce(sum(${dailyAdStats.cost}), 0)::bigint`,
      publisherRevenue: sql<number>`coalesce(sum(${dailyAdStats.publisherRevenue}), 0)::bigint`,
    })
    .from(dailyAdStats)
    .where(eq(dailyAdStats.campaignId, campaignId));
  const [credits] = await t.db
    .select({ impressions: campaigns.remainingImpressions, clicks: campaigns.remainingClicks })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return {
    impressions: Number(row!.impressions),
    clicks: Number(row!.clicks),
    cost: Number(row!.cost),
    publisherRevenue: Number(row!.publisherRevenue),
    remainingImpressions: credits!.impressions,
    remainingClicks: credits!.clicks,
  };
}

/** Takes the campaign's credits in the database only, behind the engine's back. */
async function emptyInDatabaseOnly(
  campaignId: number,
  values: { remainingImpressions?: number; remainingClicks?: number },
) {
  await t.db.update(campaigns).set(values).where(eq(campaigns.id, campaignId));
}

describe('credits that only the database knows are gone', () => {
  it('refuses in the database a campaign going below zero', async () => {
    await expect(
      t.db.update(campaigns).set({ remainingImpressions: -1 }).where(eq(campaigns.id, bikes)),
    ).rejects.toThrow();
    await expect(
      t.db
        .update(campaigns)
        .set({ remainingClicks: sql`${campaigns.remainingClicks} - 1000000` })
        .where(eq(campaigns.id, bikes)),
    ).rejects.toThrow();
  });

  it('bills no impression the database cannot pay for: refused, set aside as noCredits, nothing paid', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.91.0.1' };
    const { ads: served } = await decide(t, blog, visitor);
    expect(served).toHaveLength(1);
    await emptyInDatabaseOnly(bikes, { remainingImpressions: 0 });
    const before = await campaignMoney(bikes);
    const response = await view(t, served[0]!.view, visitor);
    expect(response.statusCode).toBe(204);
    expect(response.headers['x-helium-counted']).toBe('invalid');
    expect(await campaignMoney(bikes)).toEqual(before);
    const decisionId = decisionIdOf(served[0]!);
    expect(await t.db.select().from(adImpressions).where(eq(adImpressions.decisionId, decisionId))).toHaveLength(0);
    const [setAside] = await t.db.select().from(invalidTraffic).where(eq(invalidTraffic.decisionId, decisionId));
    expect(setAside).toMatchObject({ kind: 'impression', reason: 'noCredits' });
    // Its token is used: a replay counts nothing either.
    expect((await view(t, served[0]!.view, visitor)).headers['x-helium-counted']).toBe('ignored');
    // The engine read the credits again: nothing more is served for the campaign.
    await t.app.delivery.servingChanged();
    expect((await decide(t, blog, { ip: '10.91.0.2' })).ads).toHaveLength(0);
  });

  it('of views arriving together, bills exactly as many as the database holds credits for', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitors = Array.from({ length: 6 }, (_, index) => ({ ip: `10.91.1.${index + 1}` }));
    const served = [];
    for (const visitor of visitors) served.push((await decide(t, blog, visitor)).ads[0]!);
    await emptyInDatabaseOnly(bikes, { remainingImpressions: 2 });
    const before = await campaignMoney(bikes);
    t.clock.advance(2_000);
    const answers = await Promise.all(
      served.map((ad, index) => view(t, ad.view, visitors[index]!, 0).then((r) => r.headers['x-helium-counted'])),
    );
    expect(answers.filter((answer) => answer === 'counted')).toHaveLength(2);
    expect(answers.filter((answer) => answer === 'invalid')).toHaveLength(4);
    const after = await campaignMoney(bikes);
    expect(after.remainingImpressions).toBe(0);
    expect(after.impressions).toBe(before.impressions + 2);
    expect(after.cost).toBeGreaterThan(before.cost);
  });

  it('redirects a click the database cannot pay for, billing nothing', async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const visitor = { ip: '10.91.2.1' };
    const { ads: served } = await decide(t, blog, visitor);
    expect(served).toHaveLength(1);
    await emptyInDatabaseOnly(ceramics, { remainingClicks: 0 });
    const before = await campaignMoney(ceramics);
    const clicks = await t.db.select({ n: sql<number>`count(*)::int` }).from(adClicks);
    const response = await click(t, served[0]!.click, visitor);
    expect(response.statusCode).toBe(302);
    expect(response.headers['x-helium-counted']).toBe('repeat');
    expect(await campaignMoney(ceramics)).toEqual(before);
    const [billed] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(adClicks)
      .where(eq(adClicks.isUnique, true));
    const [all] = await t.db.select({ n: sql<number>`count(*)::int` }).from(adClicks);
    expect(all!.n).toBe(clicks[0]!.n + 1);
    expect(billed!.n).toBeLessThan(all!.n);
  });
});
