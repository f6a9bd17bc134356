import { and, asc, eq, gte, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adPublisherValidations, ads, advertisers, campaigns, dailyAdStats } from '@helium/db';
import type { TCampaignEx } from '@helium/contracts';
import { loadCounters } from '../delivery/ad-index.ts';
import { CLICK_TOKEN_MS } from '@helium/domain';
import { eligibilityFactsFor } from './traffic-shares.ts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { publisherId } from '../../../test/serve-support.ts';
import { DAY_MS } from '@helium/domain';

/**
 * The advertiser's AutoPilot share bar follows the delivery engine's rule (docs/decisions.md section 5), the ad
 * budget's maximum counts trial spending as the engine does, and the engine's counters use the 7-day window.
 */
let t: TestApp;
let owner: TestClient;
let nordvikId: number;
let firstCampaignId: number;
let secondCampaignId: number;
let largeAdId: number;
let goodAdId: number;
let poorAdId: number;
let blog: number;
let rando: number;

/** UTC day `YYYY-MM-DD`, `days` after today (negative: before). */
const dayFromToday = (days: number) => new Date(t.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);

async function campaignEx(campaignId: number): Promise<TCampaignEx> {
  const response = await owner.post('/api/advertiser/get-campaignex', { campaignId });
  expect(response.statusCode).toBe(200);
  return response.json() as TCampaignEx;
}

/** The share bars of Nordvik's three web ads, over its two campaigns. */
async function shares() {
  const first = await campaignEx(firstCampaignId);
  const second = await campaignEx(secondCampaignId);
  const of = (ex: TCampaignEx, id: number) => ex.ads.find((ad) => ad.id === id)!.sharePct!;
  return { large: of(first, largeAdId), good: of(first, goodAdId), poor: of(second, poorAdId) };
}

/** A web ad of Nordvik, approved by Demo Blog and Rando Alpes (like its large ad), with a week of CTR. */
async function addAd(campaignId: number, link: string, impressions: number, clicks: number) {
  const [large] = await t.db.select().from(ads).where(eq(ads.id, largeAdId));
  const [row] = await t.db
    .insert(ads)
    .values({
      advertiserId: nordvikId,
      campaignId,
      type: 'image',
      image: large!.image,
      filesize: large!.filesize,
      formatId: 5,
      link,
      adminValidation: 1,
    })
    .returning({ id: ads.id });
  await t.db.insert(adPublisherValidations).values(
    [blog, rando].map((publisher) => ({
      adId: row!.id,
      publisherId: publisher,
      state: 1,
      decidedBy: 'admin' as const,
    })),
  );
  await t.db.insert(dailyAdStats).values({
    day: dayFromToday(-1),
    adId: row!.id,
    publisherId: blog,
    device: 'desktop',
    campaignId,
    advertiserId: nordvikId,
    impressions,
    clicks,
  });
  return row!.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  nordvikId = nordvik!.id;
  const [first] = await t.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, nordvikId))
    .orderBy(asc(campaigns.id))
    .limit(1);
  firstCampaignId = first!.id;
  const [large] = await t.db
    .select()
    .from(ads)
    .where(and(eq(ads.campaignId, firstCampaignId), eq(ads.formatId, 5), eq(ads.adminValidation, 1)));
  largeAdId = large!.id;
  blog = await publisherId(t.db, 'Demo Blog');
  rando = await publisherId(t.db, 'Rando Alpes');
  // A second campaign of the same advertiser, AutoPilot on like the first.
  const [second] = await t.db
    .insert(campaigns)
    .values({ advertiserId: nordvikId, isCpc: false, cpm: 2_000_000, remainingImpressions: 100_000, isAutoPilot: true })
    .returning();
  secondCampaignId = second!.id;
  // Far better and far worse CTRs than the large ad's: Thompson sampling would give nearly all to the good one.
  goodAdId = await addAd(firstCampaignId, 'https://nordvik-outdoor.example/good', 20_000, 4_000);
  poorAdId = await addAd(secondCampaignId, 'https://nordvik-outdoor.example/poor', 20_000, 10);
  await t.app.delivery.refresh();
  owner = t.client();
  await owner.signIn('advertiser@demo.test');
}, 60_000);

afterAll(async () => t?.close());

describe("the share bar: an ad's share of its advertiser's traffic, as the engine allocates it", () => {
  it("shares the advertiser's part equally among all its ads while the displays are in Balancer", async () => {
    // No validated impression today on any display: all are below minImpressionsToAutoPilot (1000).
    // AutoPilot is on in both campaigns, but Balancer shares equally, over the advertiser's ads.
    expect(await shares()).toEqual({ large: 33.3, good: 33.3, poor: 33.3 });
  });

  it('samples by CTR once the displays are in AutoPilot, over all the advertiser ads', async () => {
    // Today's validated impressions of each web display (another advertiser's ad showed them).
    const [other] = await t.db.select().from(ads).where(ne(ads.advertiserId, nordvikId)).limit(1);
    await t.db.insert(dailyAdStats).values(
      [blog, rando].flatMap((publisher) =>
        (['desktop', 'mobile'] as const).map((device) => ({
          day: dayFromToday(0),
          adId: other!.id,
          publisherId: publisher,
          device,
          campaignId: other!.campaignId,
          advertiserId: other!.advertiserId,
          impressions: 5_000,
        })),
      ),
    );
    const now = await shares();
    expect(now.good).toBeGreaterThan(90);
    expect(now.large).toBeLessThan(10);
    expect(now.poor).toBeLessThan(10);
    expect(Math.abs(now.large + now.good + now.poor - 100)).toBeLessThanOrEqual(0.2);
  });

  it("shares equally again when one of the advertiser's campaigns has AutoPilot off", async () => {
    await t.db.update(campaigns).set({ isAutoPilot: false }).where(eq(campaigns.id, secondCampaignId));
    expect(await shares()).toEqual({ large: 33.3, good: 33.3, poor: 33.3 });
    await t.db.update(campaigns).set({ isAutoPilot: true }).where(eq(campaigns.id, secondCampaignId));
  });
});

describe('what an ad has spent includes its trial cost', () => {
  let trialAdId: number;
  let trialCampaignId: number;

  beforeAll(async () => {
    // A trial campaign: 450 EUR spent, all as trial cost; 1,000 impressions left at 2 EUR CPM (2 EUR).
    const [trial] = await t.db
      .insert(campaigns)
      .values({
        advertiserId: nordvikId,
        isCpc: false,
        isTrial: true,
        canBudget: true,
        cpm: 2_000_000,
        remainingImpressions: 1_000,
      })
      .returning();
    trialCampaignId = trial!.id;
    const [ad] = await t.db
      .insert(ads)
      .values({
        advertiserId: nordvikId,
        campaignId: trialCampaignId,
        type: 'image',
        formatId: 5,
        link: 'https://nordvik-outdoor.example/trial',
        adminValidation: 1,
      })
      .returning({ id: ads.id });
    trialAdId = ad!.id;
    await t.db.insert(dailyAdStats).values({
      day: dayFromToday(-1),
      adId: trialAdId,
      publisherId: blog,
      device: 'desktop',
      campaignId: trialCampaignId,
      advertiserId: nordvikId,
      impressions: 225_000,
      cost: 0,
      trialCost: 450_000_000,
    });
  });

  const budget = (value: number) =>
    owner.post('/api/advertiser/update-campaign-ad-budget', {
      campaignId: trialCampaignId,
      ad: { id: trialAdId, budget: value },
    });

  it("lets a trial campaign's ad budget go up to its trial spending plus its remaining credits", async () => {
    // At most ceil((450 + 2) / 100) x 100 = 500 EUR.
    const ok = await budget(500);
    expect(ok.statusCode).toBe(200);
    const [row] = await t.db.select().from(ads).where(eq(ads.id, trialAdId));
    expect(row!.budget).toBe(500_000_000);
    const above = await budget(600);
    expect(above.statusCode).toBe(422);
    expect(above.json().status).toBe('budgetAboveMaximum');
  });

  it('counts the trial cost in the eligibility facts and in the engine counters loaded at start', async () => {
    const facts = await eligibilityFactsFor(t.db, trialAdId, blog, t.clock.now());
    expect(facts!.ad.spent).toBe(450_000_000);
    const counters = await loadCounters(t.db, dayFromToday(0), t.clock.now(), CLICK_TOKEN_MS);
    expect(counters.adSpent.get(trialAdId)).toBe(450_000_000);
  });
});

describe("the engine's CTR window", () => {
  it("loads each ad's counts over today and the 6 days before, not the 7th day back", async () => {
    const since = async (start: string) => {
      const [row] = await t.db
        .select({
          impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
          clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
        })
        .from(dailyAdStats)
        .where(and(eq(dailyAdStats.adId, largeAdId), gte(dailyAdStats.day, start)));
      return { impressions: Number(row!.impressions), clicks: Number(row!.clicks) };
    };
    const week = await since(dayFromToday(-6));
    // The seeded history has traffic on the 7th day back too, which the window leaves out.
    expect((await since(dayFromToday(-7))).impressions).toBeGreaterThan(week.impressions);
    // The engine loaded its counters at start, before this file added anything to the large ad.
    expect(t.app.delivery.state().ctrWindow.get(largeAdId)).toEqual(week);
  });
});
