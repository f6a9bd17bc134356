import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adClicks, adImpressions, ads, campaigns, dailyAdStats } from '@helium/db';
import { impressionsCost } from '@helium/domain';
import { utcDay } from './visitor.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  budgetForOneMoreClick,
  campaignImpressionsToday,
  click,
  decide,
  onlyCampaign,
  showOneAdOnly,
  view,
  blogAndTwoCampaigns,
} from '../../../test/serve-support.ts';
import { DAY_MS } from '@helium/domain';

/*
 * What a campaign may still be billed for (docs/decisions.md sections 5 and 6): selection stops serving at the
 * AutoFlow daily cap (served ads not yet viewed included) and at an ad's budget, and counting itself bills
 * nothing beyond them when a view or a click comes after others reached the limit. Impressions of a CPM that
 * is not a whole number of micro-euros per impression are charged their fair part.
 */

let t: TestApp;
let blog: number;
let bikes: number;
let bikesAd: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ blog, bikes } = await blogAndTwoCampaigns(t.db));
  bikesAd = await showOneAdOnly(t.db, bikes);
});
afterAll(async () => t.close());

const bikesImpressionsToday = () => campaignImpressionsToday(t, bikes);

async function setCampaign(values: Partial<typeof campaigns.$inferInsert>) {
  await t.db.update(campaigns).set(values).where(eq(campaigns.id, bikes));
  await t.app.delivery.refresh();
}

async function impressionRows(): Promise<number> {
  const [row] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(adImpressions)
    .where(eq(adImpressions.campaignId, bikes));
  return row?.n ?? 0;
}

describe('AutoFlow daily cap', () => {
  it('serves no more ads than the cap leaves, counting the served ads not yet viewed', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const today = await bikesImpressionsToday();
    await setCampaign({ pauseDailyImpressions: today + 2 });
    const served = [];
    for (let visitor = 1; visitor <= 3; visitor += 1) {
      served.push((await decide(t, blog, { ip: `10.70.0.${visitor}` })).ads);
    }
    expect(served.map((answer) => answer.length)).toEqual([1, 1, 0]);
    for (const [index, answer] of served.slice(0, 2).entries()) {
      const response = await view(t, answer[0]!.view, { ip: `10.70.0.${index + 1}` });
      expect(response.headers['x-helium-counted']).toBe('counted');
    }
    expect(await bikesImpressionsToday()).toBe(today + 2);
  });

  it('bills no impression once the cap was reached after the ad was served', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const today = await bikesImpressionsToday();
    await setCampaign({ pauseDailyImpressions: today + 1 });
    const visitor = { ip: '10.70.1.1' };
    const { ads: served } = await decide(t, blog, visitor);
    expect(served).toHaveLength(1);
    // The advertiser lowers the cap to what was already delivered today before the visitor sees the ad.
    await setCampaign({ pauseDailyImpressions: today });
    const rows = await impressionRows();
    const response = await view(t, served[0]!.view, visitor);
    expect(response.statusCode).toBe(204);
    expect(response.headers['x-helium-counted']).toBe('invalid');
    expect(await impressionRows()).toBe(rows);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    expect(campaign?.remainingImpressions).toBe(1000);
    await setCampaign({ pauseDailyImpressions: 0 });

    // The set-aside view used its decision: replaying its token once the cap is lifted counts nothing, also
    // once the decision has left memory (after 2 minutes, or a restart).
    expect((await view(t, served[0]!.view, visitor)).headers['x-helium-counted']).toBe('ignored');
    t.clock.advance(3 * 60_000);
    t.app.delivery.sweep();
    const replay = await view(t, served[0]!.view, visitor);
    expect(replay.headers['x-helium-counted']).toBe('ignored');
    expect(await impressionRows()).toBe(rows);
  });
});

describe('ad budget', () => {
  it('bills no click beyond the budget, for an ad served before it was spent', async () => {
    const cpc = 400_000;
    await t.db.update(campaigns).set({ isCpc: true, cpc }).where(eq(campaigns.id, bikes));
    await onlyCampaign(t, bikes, { clicks: 10 });
    await budgetForOneMoreClick(t, bikesAd, cpc);
    const first = { ip: '10.71.0.1' };
    const second = { ip: '10.71.0.2' };
    const { ads: firstAds } = await decide(t, blog, first);
    const { ads: secondAds } = await decide(t, blog, second);
    expect(firstAds).toHaveLength(1);
    expect(secondAds).toHaveLength(1);
    const uniqueClicks = async () => {
      const [row] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(adClicks)
        .where(and(eq(adClicks.adId, bikesAd), eq(adClicks.isUnique, true)));
      return row?.n ?? 0;
    };
    const before = await uniqueClicks();
    expect((await click(t, firstAds[0]!.click, first)).headers['x-helium-counted']).toBe('unique');
    const late = await click(t, secondAds[0]!.click, second);
    expect(late.statusCode).toBe(302);
    expect(late.headers['x-helium-counted']).toBe('repeat');
    expect(await uniqueClicks()).toBe(before + 1);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    expect(campaign?.remainingClicks).toBe(9);
    // Spent: served no more.
    expect((await decide(t, blog, { ip: '10.71.0.3' })).ads).toEqual([]);
    await t.db.update(ads).set({ budget: 0 }).where(eq(ads.id, bikesAd));
    await t.db.update(campaigns).set({ isCpc: false }).where(eq(campaigns.id, bikes));
    await t.app.delivery.refresh();
  });
});

describe('impression cost', () => {
  it('charges each impression its fair part of a CPM, adding up to the price of the impressions', async () => {
    const cpm = 1_234_500;
    await t.db.update(campaigns).set({ cpm }).where(eq(campaigns.id, bikes));
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const costs: number[] = [];
    for (let visitor = 1; visitor <= 2; visitor += 1) {
      const who = { ip: `10.72.0.${visitor}` };
      const { ads: served } = await decide(t, blog, who);
      expect((await view(t, served[0]!.view, who)).headers['x-helium-counted']).toBe('counted');
      const [row] = await t.db
        .select({ cost: adImpressions.cost })
        .from(adImpressions)
        .where(eq(adImpressions.campaignId, bikes))
        .orderBy(sql`${adImpressions.createdAt} desc, ${adImpressions.cost} desc`)
        .limit(1);
      costs.push(Number(row?.cost));
      t.clock.advance(1000);
    }
    // 1.2345 EUR per thousand: 1,234.5 micro-euros each, charged 1,235 then 1,234 (not 1,234 twice).
    expect(costs).toEqual([1_235, 1_234]);
    expect(costs[0]! + costs[1]!).toBe(impressionsCost(1000, cpm) - impressionsCost(998, cpm));
  });
});

describe('the CTR window', () => {
  it("moves on at midnight: after 7 days, today's impressions no longer count in the ranks", async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.73.0.1' };
    const { ads: served } = await decide(t, blog, visitor);
    expect((await view(t, served[0]!.view, visitor)).headers['x-helium-counted']).toBe('counted');
    const week = () => t.app.delivery.state().ctrWindow.get(bikesAd).impressions;
    expect(week()).toBeGreaterThan(0);
    // Six days later today is still in the window; on the seventh it has left it (and so has every seeded day).
    t.clock.advance(6 * DAY_MS);
    await decide(t, blog, { ip: '10.73.0.2' });
    expect(week()).toBeGreaterThan(0);
    t.clock.advance(DAY_MS);
    await decide(t, blog, { ip: '10.73.0.3' });
    expect(week()).toBe(0);
  });
});

describe('a late view', () => {
  it('of an ad that left the serving index since it was served is summed under its advertiser', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    // Just before midnight, so that the view opens the next day's summary row of the ad.
    const now = t.clock.now().getTime();
    t.clock.advance(DAY_MS - (now % DAY_MS) - 60_000);
    const visitor = { ip: '10.74.0.1' };
    const { ads: served } = await decide(t, blog, visitor);
    expect(served).toHaveLength(1);
    // The index holds the ads validated by the admin only.
    await t.db.update(ads).set({ adminValidation: 2 }).where(eq(ads.id, bikesAd));
    await t.app.delivery.refresh();
    try {
      // Past the reservation: the engine has forgotten the decision and reads it back from the database.
      t.clock.advance(3 * 60_000);
      t.app.delivery.sweep();
      expect((await view(t, served[0]!.view, visitor)).headers['x-helium-counted']).toBe('counted');
      const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
      const [row] = await t.db
        .select({ advertiserId: dailyAdStats.advertiserId, impressions: dailyAdStats.impressions })
        .from(dailyAdStats)
        .where(and(eq(dailyAdStats.adId, bikesAd), eq(dailyAdStats.day, utcDay(t.clock.now()))));
      expect(row).toEqual({ advertiserId: campaign!.advertiserId, impressions: 1 });
    } finally {
      await t.db.update(ads).set({ adminValidation: 1 }).where(eq(ads.id, bikesAd));
      await t.app.delivery.refresh();
    }
  });
});
