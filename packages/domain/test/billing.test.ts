import { describe, expect, it } from 'vitest';
import {
  billingLimit,
  CLICK_TOKEN_MS,
  isUniqueClick,
  uniqueClickKeys,
  uniqueClickWindow,
  UNIQUE_CLICK_MS,
  type BillingFacts,
} from '../src/index.ts';

const cpm: BillingFacts = {
  isCpc: false,
  remainingImpressions: 10,
  remainingClicks: 0,
  pauseDailyImpressions: 0,
  todayImpressions: 0,
  budget: 0,
  spent: 0,
};

describe('billingLimit: what keeps one more event of an ad from being billed', () => {
  it.each([
    ['credits left, no cap, no budget', cpm, null],
    ['no impressions left', { ...cpm, remainingImpressions: 0 }, 'noCredits'],
    ['impressions below zero (never stored, still refused)', { ...cpm, remainingImpressions: -1 }, 'noCredits'],
    ['the daily cap reached', { ...cpm, pauseDailyImpressions: 5, todayImpressions: 5 }, 'dailyCapReached'],
    ['one under the daily cap', { ...cpm, pauseDailyImpressions: 5, todayImpressions: 4 }, null],
    ['the budget spent', { ...cpm, budget: 1000, spent: 1000 }, 'budgetSpent'],
    ['one micro-euro under the budget', { ...cpm, budget: 1000, spent: 999 }, null],
    ['a click-priced campaign with clicks left', { ...cpm, isCpc: true, remainingClicks: 1 }, null],
    ['a click-priced campaign without clicks', { ...cpm, isCpc: true, remainingClicks: 0 }, 'noCredits'],
    [
      'a click-priced campaign ignores the impressions cap',
      { ...cpm, isCpc: true, remainingClicks: 1, pauseDailyImpressions: 1, todayImpressions: 9 },
      null,
    ],
  ] as const)('%s', (_name, facts, limit) => {
    expect(billingLimit(facts)).toBe(limit);
  });
});

describe('unique clicks', () => {
  const web = { adId: 7, visitor: 'v1', decisionId: 'd1', channel: 'web' as const, visitorAnHourAgo: null };

  it('are keyed by visitor and ad for an hour, and by decision for its token life (not a newsletter)', () => {
    expect(uniqueClickKeys(web).own).toEqual([
      { key: '7|v1', windowMs: UNIQUE_CLICK_MS },
      { key: 'decision|d1', windowMs: CLICK_TOKEN_MS },
    ]);
    expect(uniqueClickKeys({ ...web, channel: 'owl' }).own).toEqual([{ key: '7|v1', windowMs: UNIQUE_CLICK_MS }]);
  });

  it("also check yesterday's hash of the visitor just after midnight, without marking it", () => {
    const keys = uniqueClickKeys({ ...web, visitorAnHourAgo: 'v0' });
    expect(keys.own.map((key) => key.key)).toEqual(['7|v1', 'decision|d1']);
    expect(keys.checked.map((key) => key.key)).toEqual(['7|v1', 'decision|d1', '7|v0']);
  });

  it('are unique only when no key had a unique click within its window', () => {
    const { checked } = uniqueClickKeys(web);
    const now = 10 * CLICK_TOKEN_MS;
    expect(isUniqueClick(checked, [undefined, undefined], now)).toBe(true);
    expect(isUniqueClick(checked, [now - UNIQUE_CLICK_MS, undefined], now)).toBe(true);
    expect(isUniqueClick(checked, [now - UNIQUE_CLICK_MS + 1, undefined], now)).toBe(false);
    expect(isUniqueClick(checked, [undefined, now - CLICK_TOKEN_MS + 1], now)).toBe(false);
    expect(isUniqueClick(checked, [undefined, now - CLICK_TOKEN_MS], now)).toBe(true);
  });

  it('give each key its window back from its name', () => {
    expect(uniqueClickWindow('decision|d1')).toBe(CLICK_TOKEN_MS);
    expect(uniqueClickWindow('7|v1')).toBe(UNIQUE_CLICK_MS);
  });
});
