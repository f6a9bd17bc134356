import { describe, expect, it } from 'vitest';
import { approvedPublisherIds, isAdShowing } from '../src/activity.ts';
import {
  campaignCardFigures,
  ctrPct,
  daysToEmptyRoundedDown,
  displayAdRanks,
  fitsWebDisplay,
  isCampaignShowing,
  percentOf,
} from '../src/admin-activity.ts';
import { AD_FORMAT } from '../src/ads.ts';
import { microsToCentEuros } from '../src/money.ts';

describe('rounded figures', () => {
  it.each([
    [0, 0, 0],
    [5, 0, 0],
    [0, 10, 0],
    [1, 3, 33.3],
    [2, 3, 66.7],
    // 28.75% exactly: rounded up, though 23 / 80 x 100 is 28.749999... in floating point.
    [23, 80, 28.8],
    [10, 10, 100],
  ])('%d of %d is %d percent', (part, whole, pct) => {
    expect(percentOf(part, whole)).toBe(pct);
  });

  it.each([
    [0, 0, 0],
    [1000, 0, 0],
    [1000, 15, 1.5],
    [3000, 1, 0.03],
    [7, 1, 14.29],
  ])('%d impressions and %d clicks: CTR %d percent', (impressions, clicks, ctr) => {
    expect(ctrPct(impressions, clicks)).toBe(ctr);
  });

  it.each([
    [0, 0],
    [2_345_678, 2.35],
    [2_344_999, 2.34],
    [5_000, 0.01],
    [4_999, 0],
    [1_000_000, 1],
  ])('%d micro-euros show as %d euros', (micros, euros) => {
    expect(microsToCentEuros(micros)).toBe(euros);
  });
});

describe('days to empty on a campaign card', () => {
  it.each([
    [1000, 0, null],
    [696, 100, 6.96],
    // 6.999 days is still under 7: it must not read (or be coloured) as 7.
    [6999, 1000, 6.99],
    [700, 100, 7],
    [-50, 100, 0],
    [1, 3, 0.33],
  ])('%d impressions left at %d a day: %s days', (remaining, perDay, days) => {
    expect(daysToEmptyRoundedDown(remaining, perDay)).toBe(days);
  });
});

describe('showing', () => {
  const off = new Set<number>();
  it.each([
    ['switched off', { isShowing: false, approvedPublisherIds: [], switchedOff: off }, false],
    [
      'switched on, approved by no publisher yet',
      { isShowing: true, approvedPublisherIds: [], switchedOff: off },
      true,
    ],
    [
      'shown on a publisher that approved it',
      { isShowing: true, approvedPublisherIds: [1, 2], switchedOff: new Set([1]) },
      true,
    ],
    [
      'switched off on every publisher that approved it',
      { isShowing: true, approvedPublisherIds: [1, 2], switchedOff: new Set([1, 2]) },
      false,
    ],
  ])('an ad %s', (_case, ad, showing) => {
    expect(isAdShowing(ad)).toBe(showing);
  });

  it('counts as approved a request left unanswered past its expiry, not one still open', () => {
    const validations = new Map([
      [1, { state: 1, expiresAt: null }],
      [2, { state: 2, expiresAt: null }],
      [3, { state: 3, expiresAt: 1_000 }],
      [4, { state: 3, expiresAt: 5_000 }],
      [5, { state: 0, expiresAt: null }],
    ]);
    expect(approvedPublisherIds(validations, 2_000)).toEqual([1, 3]);
  });

  const showingAd = { isShowing: true, approvedPublisherIds: [], switchedOff: off, isEjected: false };
  const stoppedAd = { ...showingAd, isShowing: false };
  it.each([
    ['has no ads', [], false],
    ['has a showing ad', [stoppedAd, showingAd], true],
    ['has only ads switched off', [stoppedAd, stoppedAd], false],
    ['has its only showing ad ejected', [stoppedAd, { ...showingAd, isEjected: true }], false],
  ])('a campaign that %s', (_case, ads, showing) => {
    expect(isCampaignShowing(ads)).toBe(showing);
  });
});

describe('campaign card figures', () => {
  const facts = {
    isCpc: false,
    impressions: 4_000,
    clicks: 10,
    cost: 10_000_000,
    remainingImpressions: 6_000,
    remainingClicks: 0,
    yesterdayImpressions: 900,
  };

  it('computes CTR, effective CPM and CPC, what is left and the days to empty', () => {
    expect(campaignCardFigures(facts)).toEqual({
      isFinished: false,
      total: {
        impressions: 4_000,
        clicks: 10,
        ctr: 0.25,
        cpm: 2.5,
        cpc: 1,
        remainingClicks: 0,
        remainingClicksPct: 0,
        remainingImpressions: 6_000,
        remainingImpressionsPct: 60,
      },
      inventory: { yesterdayThisCpmCampaignImpressions: 900, daysToEmptyImpressions: 6.66 },
    });
  });

  it.each([
    ['impression-priced with impressions left', { remainingImpressions: 1 }, false],
    ['impression-priced with none left', { remainingImpressions: 0 }, true],
    ['impression-priced overspent', { remainingImpressions: -20 }, true],
    ['click-priced with clicks left', { isCpc: true, remainingImpressions: 0, remainingClicks: 3 }, false],
    ['click-priced with none left', { isCpc: true, remainingImpressions: 500, remainingClicks: 0 }, true],
  ])('is finished when %s: %s', (_case, change, isFinished) => {
    expect(campaignCardFigures({ ...facts, ...change }).isFinished).toBe(isFinished);
  });

  it('counts overspent credits as none left, and no cost per unit without delivery', () => {
    const card = campaignCardFigures({ ...facts, impressions: 0, clicks: 0, cost: 0, remainingImpressions: -20 });
    expect(card.total).toMatchObject({ cpm: 0, cpc: 0, ctr: 0, remainingImpressions: 0, remainingImpressionsPct: 0 });
    expect(card.inventory.daysToEmptyImpressions).toBe(0);
  });
});

describe("a website's displays", () => {
  it.each([
    [AD_FORMAT.square, false, 'desktop', true],
    [AD_FORMAT.square, false, 'mobile', true],
    [AD_FORMAT.vertical, false, 'desktop', true],
    [AD_FORMAT.vertical, false, 'mobile', false],
    [AD_FORMAT.newsletter, false, 'desktop', false],
    [AD_FORMAT.horizontal, true, 'desktop', false],
  ] as const)('format %d, newsletter only %s, on %s: %s', (formatId, isOwlOnly, device, fits) => {
    expect(fitsWebDisplay({ formatId, isOwlOnly }, device)).toBe(fits);
  });

  it("ranks ads by their share of the display's traffic, equal shares sharing a rank", () => {
    const ranks = displayAdRanks([
      {
        share: 0.5,
        ads: [
          { ad: { id: 1 }, share: 0.2 },
          { ad: { id: 2 }, share: 0.8 },
        ],
      },
      { share: 0.5, ads: [{ ad: { id: 3 }, share: 0.2 }] },
      { share: 0, ads: [{ ad: { id: 4 }, share: 1 }] },
    ]);
    expect(Object.fromEntries(ranks)).toEqual({ 2: 1, 1: 2, 3: 2, 4: 4 });
  });
});
