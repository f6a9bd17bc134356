import { describe, expect, it } from 'vitest';
import { adBudgetMaxEuros, budgetChoices } from '../src/activity.ts';
import {
  activationRefusal,
  adBudgetRefusal,
  autoFlowRefusal,
  autoPilotRefusal,
  ejectionRefusal,
  statsRange,
  statsRangeRefusal,
  type PublisherSwitchChange,
} from '../src/campaign-changes.ts';

const running = { isCpc: false, remainingImpressions: 80_000, remainingClicks: 0 };
const finished = { isCpc: false, remainingImpressions: 0, remainingClicks: 50 };
const clickPriced = { isCpc: true, remainingImpressions: 0, remainingClicks: 200 };

describe('the AutoFlow daily cap', () => {
  it.each([
    ['off on a click-priced campaign', clickPriced, 0, null],
    ['on for a click-priced campaign', clickPriced, 100, { reason: 'autoFlowNotForClicks' }],
    ['up to 50,000', running, 50_000, null],
    ['above 50,000', running, 50_100, { reason: 'autoFlowAboveMaximum', max: 50_000 }],
    ['up to the remaining impressions', { ...running, remainingImpressions: 3_000 }, 3_000, null],
    [
      'above the remaining impressions',
      { ...running, remainingImpressions: 3_000 },
      3_100,
      { reason: 'autoFlowAboveMaximum', max: 3_000 },
    ],
    ['on for a finished campaign', finished, 100, { reason: 'autoFlowAboveMaximum', max: 0 }],
    ['off for a finished campaign', finished, 0, null],
  ] as const)('%s', (_case, campaign, cap, refusal) => {
    expect(autoFlowRefusal(campaign, cap)).toEqual(refusal);
  });
});

describe('the ad budget maximum', () => {
  it.each([
    [0, 0, 0],
    [0, 90, 100],
    [130, 250, 400],
    [100, 100, 200],
    [0, 100.01, 200],
  ])('spent %d euros, %d euros of credits left: at most %d', (spent, remaining, max) => {
    expect(adBudgetMaxEuros(spent, remaining)).toBe(max);
  });

  it("is the budget selector's last choice", () => {
    expect(budgetChoices(130, 250).at(-1)).toBe(adBudgetMaxEuros(130, 250));
  });
});

describe('an ad budget', () => {
  // 400,000 impressions left at 2.50 euros CPM: 1,000 euros of credits.
  const campaign = { ...running, remainingImpressions: 400_000, cpm: 2_500_000, cpc: 0, canBudget: true };

  it.each([
    ['no cap', campaign, 0, 0, null],
    ['up to spent plus credits', campaign, 1_200, 150, null],
    ['above spent plus credits', campaign, 1_300, 150, { reason: 'budgetAboveMaximum', max: 1_200 }],
    ['one step with no credits left', { ...campaign, remainingImpressions: 0 }, 100, 0, null],
    [
      'two steps with no credits left',
      { ...campaign, remainingImpressions: 0 },
      200,
      0,
      { reason: 'budgetAboveMaximum', max: 0 },
    ],
    ['where budgets are not offered', { ...campaign, canBudget: false }, 100, 0, { reason: 'budgetNotAvailable' }],
    ['no cap where budgets are not offered', { ...campaign, canBudget: false }, 0, 0, { reason: 'budgetNotAvailable' }],
  ] as const)('%s', (_case, facts, budget, spent, refusal) => {
    expect(adBudgetRefusal(facts, budget, spent)).toEqual(refusal);
  });
});

describe('ejection', () => {
  const ad = {
    isShowing: false,
    approvedPublisherIds: [],
    switchedOff: new Set<number>(),
    isEjected: false,
    isLocked: false,
  };
  const showing = { ...ad, isShowing: true };
  const offEverywhere = { ...ad, isShowing: true, approvedPublisherIds: [7], switchedOff: new Set([7]) };

  it.each([
    ['ejects an ad switched off', running, ad, true, null],
    ['ejects an ad switched off on every publisher that approved it', running, offEverywhere, true, null],
    ['refuses a showing ad', running, showing, true, 'adShowing'],
    ['refuses an ad already ejected', running, { ...ad, isEjected: true }, true, 'adAlreadyEjected'],
    ['re-injects an ejected ad', running, { ...ad, isEjected: true }, false, null],
    ['refuses to re-inject an ad not ejected', running, ad, false, 'adNotEjected'],
    ['refuses to re-inject a locked ad', running, { ...ad, isEjected: true, isLocked: true }, false, 'adLocked'],
    ['refuses anything on a finished campaign', finished, ad, true, 'campaignFinished'],
    ['refuses to re-inject on a finished campaign', finished, { ...ad, isEjected: true }, false, 'campaignFinished'],
  ] as const)('%s', (_case, campaign, facts, doEject, reason) => {
    expect(ejectionRefusal(campaign, facts, doEject)).toEqual(reason === null ? null : { reason });
  });
});

describe('activation switches', () => {
  const campaign = { ...running, canActivateAdsByPublisher: true };
  const ad = { isEjected: false };
  const onPublisher = (change: Partial<PublisherSwitchChange> = {}): PublisherSwitchChange => ({
    isAdPublisherActive: false,
    publisher: { isInstalled: true, hasApprovedAd: true },
    ...change,
  });

  it.each([
    ['switches the whole ad', campaign, ad, null, null],
    ['switches the ad on one publisher', campaign, ad, onPublisher(), null],
    ['refuses on a finished campaign', { ...finished, canActivateAdsByPublisher: true }, ad, null, 'campaignFinished'],
    ['refuses an ejected ad', campaign, { isEjected: true }, null, 'adEjected'],
    [
      'refuses per-publisher switches where not offered',
      { ...campaign, canActivateAdsByPublisher: false },
      ad,
      onPublisher(),
      'byPublisherNotAvailable',
    ],
    [
      'switches the whole ad where per-publisher switches are not offered',
      { ...campaign, canActivateAdsByPublisher: false },
      ad,
      null,
      null,
    ],
    [
      'needs the switch asked for',
      campaign,
      ad,
      onPublisher({ isAdPublisherActive: undefined }),
      'isAdPublisherActiveMissing',
    ],
    ['needs the publisher to exist', campaign, ad, onPublisher({ publisher: null }), 'publisherNotFound'],
    [
      'needs the publisher to have installed the script',
      campaign,
      ad,
      onPublisher({ publisher: { isInstalled: false, hasApprovedAd: true } }),
      'publisherNotInstalled',
    ],
    [
      'needs the publisher to have approved the ad',
      campaign,
      ad,
      onPublisher({ publisher: { isInstalled: true, hasApprovedAd: false } }),
      'publisherNotAuthorized',
    ],
    [
      'answers the first refusal: not installed before not approved',
      campaign,
      ad,
      onPublisher({ publisher: { isInstalled: false, hasApprovedAd: false } }),
      'publisherNotInstalled',
    ],
  ] as const)('%s', (_case, facts, adFacts, change, reason) => {
    expect(activationRefusal(facts, adFacts, change)).toEqual(reason === null ? null : { reason });
  });
});

describe('AutoPilot', () => {
  it.each([
    [true, null],
    [false, { reason: 'autoPilotNotAvailable' }],
  ])('with its switch shown %s', (isAutoPilotVisible, refusal) => {
    expect(autoPilotRefusal({ isAutoPilotVisible })).toEqual(refusal);
  });
});

describe('the stats date range', () => {
  const today = '2026-03-10';

  it.each([
    [null, null],
    ['2026-03-10', { from: '2026-03-10', to: '2026-03-10' }],
    [['2026-03-01'], { from: '2026-03-01', to: '2026-03-01' }],
    [['2026-03-01', '2026-03-05'], { from: '2026-03-01', to: '2026-03-05' }],
    [['2026-03-05', '2026-03-01'], { from: '2026-03-01', to: '2026-03-05' }],
    [['2025-12-31', '2026-01-02'], { from: '2025-12-31', to: '2026-01-02' }],
  ] as const)('stores %j as %j', (dates, range) => {
    expect(statsRangeRefusal(dates, today)).toBeNull();
    expect(statsRange(dates)).toEqual(range);
  });

  it.each([['2026-03-11'], [['2026-03-11']], [['2026-03-01', '2026-03-11']], [['2027-01-01', '2026-03-01']]] as const)(
    'refuses %j, after today',
    (dates) => {
      expect(statsRangeRefusal(dates, today)).toEqual({ reason: 'dateInFuture' });
    },
  );
});
