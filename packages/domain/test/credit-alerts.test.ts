import { describe, expect, it } from 'vitest';
import {
  CREDIT_PACE_DAYS,
  creditDaysLeft,
  creditUnitsLeft,
  daysToEmptyColour,
  isLowOnCredits,
  lastFullWeek,
  LOW_CREDIT_DAYS,
  mondayOf,
} from '../src/activity.ts';

const cpm = (remainingImpressions: number) => ({ isCpc: false, remainingImpressions, remainingClicks: 0 });
const cpc = (remainingClicks: number) => ({ isCpc: true, remainingImpressions: 999_999, remainingClicks });

describe('credits left and days to empty at the recent pace', () => {
  it('counts impressions, or clicks for a click-priced campaign', () => {
    expect(creditUnitsLeft(cpm(1200))).toBe(1200);
    expect(creditUnitsLeft(cpc(30))).toBe(30);
    expect(creditUnitsLeft(cpm(-5))).toBe(0);
  });

  it.each([
    // remaining, delivered over the last 7 days, days left
    [70_000, 70_000, 7],
    [69_999, 70_000, 6.9999],
    [1_000, 7_000, 1],
    [0, 7_000, 0],
    [10_000, 0, null],
  ])('%i impressions left after %i in 7 days: %s days', (remaining, delivered, days) => {
    const left = creditDaysLeft(cpm(remaining), { impressions: delivered, clicks: 0 });
    if (days === null) expect(left).toBeNull();
    else expect(left).toBeCloseTo(days, 4);
  });

  it('paces a click-priced campaign by its clicks', () => {
    expect(creditDaysLeft(cpc(30), { impressions: 1_000_000, clicks: 70 })).toBe(3);
    expect(creditDaysLeft(cpc(30), { impressions: 1_000_000, clicks: 0 })).toBeNull();
  });

  it('averages over another number of days when asked', () => {
    expect(CREDIT_PACE_DAYS).toBe(7);
    expect(creditDaysLeft(cpm(300), { impressions: 300, clicks: 0 }, 3)).toBe(3);
    expect(creditDaysLeft(cpm(300), { impressions: 300, clicks: 0 }, 0)).toBeNull();
  });

  it('is low under LOW_CREDIT_DAYS (7) days, empty included, and never without a pace', () => {
    expect(LOW_CREDIT_DAYS).toBe(7);
    expect(isLowOnCredits(6.99)).toBe(true);
    expect(isLowOnCredits(0)).toBe(true);
    expect(isLowOnCredits(7)).toBe(false);
    expect(isLowOnCredits(30)).toBe(false);
    expect(isLowOnCredits(null)).toBe(false);
    // The red of the days-to-empty colour is the same threshold.
    expect(daysToEmptyColour(LOW_CREDIT_DAYS - 0.01)).toBe('red');
    expect(daysToEmptyColour(LOW_CREDIT_DAYS)).toBe('orange');
  });
});

describe('weeks', () => {
  it.each([
    ['2026-11-23', '2026-11-23'], // a Monday
    ['2026-11-25', '2026-11-23'],
    ['2026-11-29', '2026-11-23'], // a Sunday
    ['2027-01-01', '2026-12-28'], // across a year
  ])('the Monday of %s is %s', (day, monday) => {
    expect(mondayOf(day)).toBe(monday);
  });

  it('reports the last full Monday-Sunday week before the week of today', () => {
    expect(lastFullWeek('2026-11-30')).toEqual({ monday: '2026-11-23', sunday: '2026-11-29' });
    expect(lastFullWeek('2026-12-06')).toEqual({ monday: '2026-11-23', sunday: '2026-11-29' });
    // Sunday is not closed yet: the week before.
    expect(lastFullWeek('2026-11-29')).toEqual({ monday: '2026-11-16', sunday: '2026-11-22' });
  });
});
