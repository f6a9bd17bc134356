import { describe, expect, it } from 'vitest';
import {
  autoFlowDays,
  autoFlowMax,
  budgetChoices,
  budgetToSend,
  ctrRankColour,
  daysToEmpty,
  daysToEmptyColour,
  fileSizeKb,
  isCampaignFinished,
  isShareFaded,
  metricLine,
  normaliseRange,
  remainingCreditsEuros,
  remainingPct,
} from '../src/activity.ts';

describe('metricLine', () => {
  it('computes CTR, CPC, CPM, LR and CPL from counts and micro-euros', () => {
    expect(metricLine({ impressions: 2000, clicks: 10, leads: 2, cost: 5_000_000 }, true)).toEqual({
      impressions: 2000,
      clicks: 10,
      ctr: 0.5,
      cpc: 0.5,
      cpm: 2.5,
      costs: 5,
      leads: 2,
      lr: 20,
      cpl: 2.5,
    });
  });

  it('gives N/A (null) for leads, LR and CPL when leads are not tracked or cannot be divided', () => {
    expect(metricLine({ impressions: 0, clicks: 0, leads: 0, cost: 0 }, false)).toMatchObject({
      ctr: 0,
      cpc: 0,
      cpm: 0,
      leads: null,
      lr: null,
      cpl: null,
    });
    expect(metricLine({ impressions: 10, clicks: 0, leads: 0, cost: 0 }, true)).toMatchObject({
      leads: 0,
      lr: null,
      cpl: null,
    });
  });
});

describe('campaign state', () => {
  it('is finished when its remaining impressions or clicks reach 0', () => {
    expect(isCampaignFinished({ isCpc: false, remainingImpressions: 0, remainingClicks: 5 })).toBe(true);
    expect(isCampaignFinished({ isCpc: true, remainingImpressions: 5, remainingClicks: 0 })).toBe(true);
    expect(isCampaignFinished({ isCpc: false, remainingImpressions: 1, remainingClicks: 0 })).toBe(false);
  });

  it('values the remaining credits and their share', () => {
    const base = { remainingImpressions: 400_000, remainingClicks: 100, cpm: 2_500_000, cpc: 300_000 };
    expect(remainingCreditsEuros({ ...base, isCpc: false })).toBe(1000);
    expect(remainingCreditsEuros({ ...base, isCpc: true })).toBe(30);
    expect(remainingPct(75, 25)).toBe(75);
    expect(remainingPct(0, 0)).toBe(0);
  });
});

describe('ad budget choices', () => {
  it('offers multiples of 100 from above the cost up to cost plus remaining credits', () => {
    expect(budgetChoices(130, 250)).toEqual([200, 300, 400]);
    expect(budgetChoices(0, 90)).toEqual([100]);
    expect(budgetChoices(0, 300, 700)).toEqual([100, 200, 300, 700]);
  });

  it('sends the no-budget choice -1 as 0', () => {
    expect(budgetToSend(-1)).toBe(0);
    expect(budgetToSend(300)).toBe(300);
  });
});

describe('AutoFlow', () => {
  it('caps the slider at the lesser of 50,000 and the remaining impressions', () => {
    expect(autoFlowMax(400_000)).toBe(50_000);
    expect(autoFlowMax(12_300)).toBe(12_300);
  });

  it('spreads the remaining impressions over days, none when off', () => {
    expect(autoFlowDays(10_000, 3_000)).toBe(4);
    expect(autoFlowDays(10_000, 0)).toBeNull();
  });
});

describe('admin thresholds', () => {
  it('colours days to empty: under 7 red, 7 to 15 orange, over 15 green', () => {
    expect(daysToEmptyColour(6.9)).toBe('red');
    expect(daysToEmptyColour(7)).toBe('orange');
    expect(daysToEmptyColour(15)).toBe('orange');
    expect(daysToEmptyColour(15.1)).toBe('green');
    expect(daysToEmpty(1000, 100)).toBe(10);
    expect(daysToEmpty(1000, 0)).toBeNull();
  });

  it('fades cards under 0.01 percent on desktop and 0.1 percent on mobile', () => {
    expect(isShareFaded('desktop', 0.009)).toBe(true);
    expect(isShareFaded('desktop', 0.01)).toBe(false);
    expect(isShareFaded('mobile', 0.09)).toBe(true);
    expect(isShareFaded('mobile', 0.1)).toBe(false);
  });

  it('colours CTR ranks and sizes files in KB', () => {
    expect([ctrRankColour('high'), ctrRankColour('medium'), ctrRankColour('low')]).toEqual(['green', 'orange', 'red']);
    expect(fileSizeKb(1536)).toBe(2);
  });
});

describe('normaliseRange', () => {
  it('orders two days and reads one day as a one-day range', () => {
    expect(normaliseRange([])).toBeNull();
    expect(normaliseRange(['2026-09-02'])).toEqual({ from: '2026-09-02', to: '2026-09-02' });
    expect(normaliseRange(['2026-09-05', '2026-09-02'])).toEqual({ from: '2026-09-02', to: '2026-09-05' });
  });
});
