import { describe, expect, it } from 'vitest';
import {
  availableCredits,
  balancerShares,
  chooseAd,
  ctrRank,
  ctrThresholds,
  impressionsNeededToday,
  ineligibility,
  matchesGeotargeting,
  percentile,
  pickWeighted,
  sampleBeta,
  seededRandom,
  selectionMode,
  sharePct,
  sharesInsideAdvertiser,
  thompsonPick,
  thompsonShares,
  weightRanks,
  type EligibleAdFacts,
  type EligibleCampaignFacts,
  type SelectableAd,
  type SlotFacts,
} from '../src/delivery/index.ts';

const NOW = Date.UTC(2026, 9, 1, 12);

const ad = (overrides: Partial<EligibleAdFacts> = {}): EligibleAdFacts => ({
  formatId: 3,
  isWebOnly: false,
  isOwlOnly: false,
  isVideo: false,
  adminValidation: 1,
  publisherValidation: { state: 1, expiresAt: null },
  isShowing: true,
  isEjected: false,
  isShownOnPublisher: true,
  budget: 0,
  spent: 0,
  ...overrides,
});

const campaign = (overrides: Partial<EligibleCampaignFacts> = {}): EligibleCampaignFacts => ({
  isCpc: false,
  remainingImpressions: 1000,
  remainingClicks: 0,
  reservedImpressions: 0,
  pauseDailyImpressions: 0,
  todayImpressions: 0,
  geoTargets: [],
  ...overrides,
});

const slot = (overrides: Partial<SlotFacts> = {}): SlotFacts => ({
  channel: 'web',
  device: 'desktop',
  formatIds: null,
  location: { country: 'FR', region: 'ARA', city: 'Lyon' },
  now: NOW,
  ...overrides,
});

describe('eligibility (docs/decisions.md section 5)', () => {
  it.each([
    ['an approved ad', {}, {}, {}, null],
    ['admin validation pending', { adminValidation: 3 }, {}, {}, 'notValidatedByAdmin'],
    ['admin rejected', { adminValidation: 2 }, {}, {}, 'notValidatedByAdmin'],
    ['no publisher validation', { publisherValidation: null }, {}, {}, 'notValidatedByPublisher'],
    ['publisher declined', { publisherValidation: { state: 2, expiresAt: null } }, {}, {}, 'notValidatedByPublisher'],
    ['publisher pending', { publisherValidation: { state: 3, expiresAt: NOW + 1 } }, {}, {}, 'notValidatedByPublisher'],
    ['publisher request expired', { publisherValidation: { state: 3, expiresAt: NOW } }, {}, {}, null],
    ['ejected', { isEjected: true }, {}, {}, 'ejected'],
    ['switched off', { isShowing: false }, {}, {}, 'notShowing'],
    ['off for this publisher', { isShownOnPublisher: false }, {}, {}, 'switchedOffForPublisher'],
    ['no impressions left', {}, { remainingImpressions: 0 }, {}, 'noCredits'],
    ['all impressions reserved', {}, { remainingImpressions: 5, reservedImpressions: 5 }, {}, 'noCredits'],
    ['one impression unreserved', {}, { remainingImpressions: 5, reservedImpressions: 4 }, {}, null],
    ['click-priced with clicks', {}, { isCpc: true, remainingImpressions: 0, remainingClicks: 3 }, {}, null],
    ['click-priced without clicks', {}, { isCpc: true, remainingClicks: 0 }, {}, 'noCredits'],
    ['AutoFlow cap reached', {}, { pauseDailyImpressions: 100, todayImpressions: 100 }, {}, 'dailyCapReached'],
    ['AutoFlow cap not reached', {}, { pauseDailyImpressions: 100, todayImpressions: 99 }, {}, null],
    [
      'AutoFlow cap reached with the served ads not yet viewed',
      {},
      { pauseDailyImpressions: 100, todayImpressions: 97, reservedImpressions: 3 },
      {},
      'dailyCapReached',
    ],
    [
      'AutoFlow cap one short with the served ads not yet viewed',
      {},
      { pauseDailyImpressions: 100, todayImpressions: 97, reservedImpressions: 2 },
      {},
      null,
    ],
    ['AutoFlow off', {}, { pauseDailyImpressions: 0, todayImpressions: 1e6 }, {}, null],
    ['budget spent', { budget: 1000, spent: 1000 }, {}, {}, 'budgetSpent'],
    ['budget left', { budget: 1000, spent: 999 }, {}, {}, null],
    ['vertical on mobile', { formatId: 1 }, {}, { device: 'mobile' }, 'formatNotOnMobile'],
    ['vertical on desktop', { formatId: 1 }, {}, {}, null],
    ['newsletter format on the web', { formatId: 2 }, {}, {}, 'wrongChannel'],
    ['newsletter-only on the web', { isOwlOnly: true }, {}, {}, 'wrongChannel'],
    ['web-only in a newsletter', { isWebOnly: true }, {}, { channel: 'owl' }, 'wrongChannel'],
    ['newsletter format in a newsletter', { formatId: 2 }, {}, { channel: 'owl' }, null],
    ['a video in a newsletter', { formatId: 2, isVideo: true }, {}, { channel: 'owl' }, 'wrongChannel'],
    ['a video on the web', { isVideo: true }, {}, {}, null],
    [
      'web format in a newsletter banner',
      { formatId: 3 },
      {},
      { channel: 'owl', formatIds: [2] },
      'formatNotInPlacement',
    ],
    ['newsletter format in a newsletter banner', { formatId: 2 }, {}, { channel: 'owl', formatIds: [2] }, null],
    ['format outside the placement', { formatId: 4 }, {}, { formatIds: [3] }, 'formatNotInPlacement'],
    ['format inside the placement', { formatId: 4 }, {}, { formatIds: [3, 4] }, null],
    ['geotargeted elsewhere', {}, { geoTargets: ['BE'] }, {}, 'outsideGeotargeting'],
    ['geotargeted to the region', {}, { geoTargets: ['BE', 'FR/ARA'] }, {}, null],
    ['geotargeted, location unknown', {}, { geoTargets: ['FR'] }, { location: null }, 'outsideGeotargeting'],
  ] as const)('%s', (_name, adOverrides, campaignOverrides, slotOverrides, expected) => {
    expect(
      ineligibility(
        ad(adOverrides as Partial<EligibleAdFacts>),
        campaign(campaignOverrides as Partial<EligibleCampaignFacts>),
        slot(slotOverrides as Partial<SlotFacts>),
      ),
    ).toBe(expected);
  });

  it.each([
    [[], null, true],
    [['FR'], { country: 'FR' }, true],
    [['FR/ARA/Lyon'], { country: 'FR', region: 'ARA', city: 'Lyon' }, true],
    [['FR/ARA/Lyon'], { country: 'FR', region: 'ARA', city: 'Grenoble' }, false],
    [['FR/IDF'], { country: 'FR' }, false],
  ] as const)('geotargeting %j for %j is %s', (targets, location, expected) => {
    expect(matchesGeotargeting(targets, location)).toBe(expected);
  });

  it('available credits subtract reservations for impression-priced campaigns only', () => {
    expect(availableCredits(campaign({ remainingImpressions: 10, reservedImpressions: 3 }))).toBe(7);
    expect(availableCredits(campaign({ isCpc: true, remainingClicks: 4, reservedImpressions: 3 }))).toBe(4);
  });
});

describe('Balancer', () => {
  it.each([
    [500, 1000, 'balancer'],
    [999, 1000, 'balancer'],
    [1000, 1000, 'autopilot'],
    [0, 0, 'autopilot'],
  ] as const)('%i impressions today with threshold %i: %s', (today, threshold, mode) => {
    expect(selectionMode(today, threshold)).toBe(mode);
  });

  it.each([
    ['30,000 left, no cap: 1,000 a day', { remainingImpressions: 30_000 }, 1000],
    ['30,000 left, 400 done today', { remainingImpressions: 30_000, todayImpressions: 400 }, 600],
    ['AutoFlow cap 200', { remainingImpressions: 30_000, pauseDailyImpressions: 200 }, 200],
    ['cap above what is left', { remainingImpressions: 50, pauseDailyImpressions: 200 }, 50],
    ['target met: keeps 1', { remainingImpressions: 30_000, todayImpressions: 5000 }, 1],
    ['click-priced: 15 clicks at 0.5% CTR over 30 days', { isCpc: true, remainingClicks: 15 }, 100],
  ] as const)('%s', (_name, overrides, expected) => {
    const facts = {
      isCpc: false,
      remainingImpressions: 0,
      remainingClicks: 0,
      pauseDailyImpressions: 0,
      todayImpressions: 0,
    };
    expect(impressionsNeededToday({ ...facts, ...overrides })).toBe(expected);
  });

  it('shares are proportional to what each advertiser needs today', () => {
    const shares = balancerShares(
      new Map([
        [1, 300],
        [2, 100],
      ]),
    );
    expect(shares.get(1)).toBeCloseTo(0.75);
    expect(shares.get(2)).toBeCloseTo(0.25);
  });

  it('chooseAd follows the advertiser shares and splits an advertiser equally under Balancer', () => {
    const random = seededRandom(7);
    const candidates: SelectableAd[] = [
      { advertiserId: 1, isAutoPilot: true, impressions: 0, clicks: 0 },
      { advertiserId: 1, isAutoPilot: true, impressions: 0, clicks: 0 },
      { advertiserId: 2, isAutoPilot: true, impressions: 0, clicks: 0 },
    ];
    const needs = new Map([
      [1, 300],
      [2, 100],
    ]);
    const picks = [0, 0, 0];
    for (let round = 0; round < 20_000; round++) picks[chooseAd(candidates, needs, 'balancer', random)]! += 1;
    expect(picks[0]! / 20_000).toBeCloseTo(0.375, 1);
    expect(picks[1]! / 20_000).toBeCloseTo(0.375, 1);
    expect(picks[2]! / 20_000).toBeCloseTo(0.25, 1);
  });

  it('chooseAd answers -1 without candidates', () => {
    expect(chooseAd([], new Map(), 'balancer', seededRandom(1))).toBe(-1);
  });
});

describe('AutoPilot (Thompson sampling)', () => {
  it('a seeded source gives the same draws', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });

  it('Beta samples have the expected mean', () => {
    const random = seededRandom(3);
    let sum = 0;
    for (let index = 0; index < 5000; index++) sum += sampleBeta(11, 991, random);
    expect(sum / 5000).toBeCloseTo(11 / 1002, 3);
  });

  it('gives the better ad most of the traffic and still tries a new one', () => {
    const known = [
      { impressions: 10_000, clicks: 300 },
      { impressions: 10_000, clicks: 100 },
    ];
    const shares = thompsonShares(known);
    expect(shares[0]).toBeGreaterThan(0.99);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    const withNew = thompsonShares([...known, { impressions: 200, clicks: 2 }]);
    expect(withNew[2]).toBeGreaterThan(0.01);
    expect(withNew[0]).toBeGreaterThan(withNew[2]!);
  });

  it('computes the probability of winning the draw exactly, the same on every call', () => {
    // Beta(2, 1) (one click in one impression) against Beta(1, 1): the integral of 2x . x over [0, 1] = 2/3.
    const [clicked, fresh] = thompsonShares([
      { impressions: 1, clicks: 1 },
      { impressions: 0, clicks: 0 },
    ]);
    expect(clicked).toBeCloseTo(2 / 3, 4);
    expect(fresh).toBeCloseTo(1 / 3, 4);
    // Beta(1, 2) (one impression, no click) against Beta(1, 1): the integral of 2(1 - x) . x = 1/3.
    expect(
      thompsonShares([
        { impressions: 1, clicks: 0 },
        { impressions: 0, clicks: 0 },
      ])[0],
    ).toBeCloseTo(1 / 3, 4);
    // A young ad against an established one (its wide Beta(2, 100) over the other's narrow peak): 27.087%, from
    // the incomplete beta function, within 0.01 percentage point.
    const [established, young] = thompsonShares([
      { impressions: 78_480, clicks: 790 },
      { impressions: 100, clicks: 1 },
    ]);
    expect(Math.abs(established! - 0.27087)).toBeLessThan(1e-4);
    expect(Math.abs(young! - 0.72913)).toBeLessThan(1e-4);
    const same = { impressions: 50_000, clicks: 400 };
    for (const share of thompsonShares([same, same, same])) expect(share).toBeCloseTo(1 / 3, 4);
    const mixed = [
      { impressions: 40_000, clicks: 420 },
      { impressions: 38_000, clicks: 380 },
      { impressions: 900, clicks: 8 },
      { impressions: 0, clicks: 0 },
    ];
    const exact = thompsonShares(mixed);
    expect(thompsonShares(mixed)).toEqual(exact);
    expect(exact.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // What thompsonPick does, counted over many draws, agrees to within the draws' own error.
    const random = seededRandom(5);
    const wins = mixed.map(() => 0);
    const draws = 40_000;
    for (let round = 0; round < draws; round++) wins[thompsonPick(mixed, random)]! += 1;
    wins.forEach((count, index) => expect(Math.abs(count / draws - exact[index]!)).toBeLessThan(0.008));
  });

  it('gives a worse ad its small share, not a multiple of a draw: 0.023%, and below 0.01% when clearly worse', () => {
    const [, close] = thompsonShares([
      { impressions: 100_000, clicks: 1_000 },
      { impressions: 100_000, clicks: 850 },
    ]);
    // With this many impressions both Betas are nearly normal: P(worse wins) = P(Z > 0.0015 / 0.000428) = 2.33e-4.
    expect(close).toBeGreaterThan(2.2e-4);
    expect(close).toBeLessThan(2.45e-4);
    const [good, poor] = thompsonShares([
      { impressions: 100_000, clicks: 1_000 },
      { impressions: 100_000, clicks: 800 },
    ]);
    expect(poor).toBeGreaterThan(0);
    expect(poor).toBeLessThan(0.0001);
    expect(good).toBeGreaterThan(0.9999);
  });

  it('applies only in autopilot mode and only when the advertiser has AutoPilot on', () => {
    const ads: SelectableAd[] = [
      { advertiserId: 1, isAutoPilot: true, impressions: 10_000, clicks: 300 },
      { advertiserId: 1, isAutoPilot: true, impressions: 10_000, clicks: 10 },
    ];
    expect(sharesInsideAdvertiser(ads, 'balancer')).toEqual([0.5, 0.5]);
    expect(
      sharesInsideAdvertiser(
        ads.map((one) => ({ ...one, isAutoPilot: false })),
        'autopilot',
      ),
    ).toEqual([0.5, 0.5]);
    expect(sharesInsideAdvertiser(ads, 'autopilot')[0]).toBeGreaterThan(0.95);
  });

  it('pickWeighted skips zero weights and answers -1 when all are zero', () => {
    expect(pickWeighted([0, 0], seededRandom(1))).toBe(-1);
    expect(pickWeighted([0, 5, 0], seededRandom(1))).toBe(1);
    expect(pickWeighted([1, 1], () => 0.99)).toBe(1);
    expect(pickWeighted([1, 1], () => 0)).toBe(0);
  });
});

describe('CTR ranks and thresholds', () => {
  it.each([
    [[1, 2, 3, 4, 5], 25, 2],
    [[1, 2, 3, 4, 5], 75, 4],
    [[1, 2, 3, 4], 25, 1.75],
    [[5], 75, 5],
    [[], 50, null],
  ] as const)('percentile of %j at %i = %s', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  const ads = [
    { impressions: 1000, clicks: 1 },
    { impressions: 1000, clicks: 2 },
    { impressions: 1000, clicks: 3 },
    { impressions: 1000, clicks: 4 },
    { impressions: 1000, clicks: 5 },
    { impressions: 10, clicks: 9 },
  ];

  it('thresholds are the 25th and 75th percentiles of ads with enough impressions', () => {
    expect(ctrThresholds(ads, 500)).toEqual({ lower: 0.002, higher: 0.004 });
    expect(ctrThresholds(ads, 5000)).toBeNull();
  });

  it.each([
    [{ impressions: 1000, clicks: 5 }, 'high'],
    [{ impressions: 1000, clicks: 4 }, 'high'],
    [{ impressions: 1000, clicks: 3 }, 'medium'],
    [{ impressions: 1000, clicks: 2 }, 'low'],
    [{ impressions: 1000, clicks: 0 }, 'low'],
    [{ impressions: 499, clicks: 400 }, null],
  ] as const)('%j is %s', (counts, rank) => {
    expect(ctrRank(counts, { lower: 0.002, higher: 0.004 }, 500)).toBe(rank);
  });

  it('no rank without thresholds', () => {
    expect(ctrRank({ impressions: 1000, clicks: 5 }, null, 500)).toBeNull();
  });
});

describe('share percentages and weight ranks', () => {
  it.each([
    [1, 3, 33.3],
    [2, 3, 66.7],
    [0, 3, 0],
    [1, 0, 0],
    [0.0001, 1, 0],
    [1, 1, 100],
  ] as const)('%d of %d = %d%%', (part, total, pct) => {
    expect(sharePct(part, total)).toBe(pct);
  });

  it.each([
    [
      [0.5, 0.3, 0.2],
      [1, 2, 3],
    ],
    [
      [0.2, 0.4, 0.4, 0.1],
      [3, 1, 1, 4],
    ],
    [[], []],
  ] as const)('ranks of %j are %j', (weights, ranks) => {
    expect(weightRanks(weights)).toEqual(ranks);
  });
});
