import { describe, expect, it } from 'vitest';
import type { TPerformanceHistoryRow } from '@helium/contracts';
import {
  averagePerDay,
  barWidthPct,
  clockAngle,
  dayTotal,
  dialPct,
  dialPoint,
  GAUGE,
  isValidatedShareLow,
  missingSharePct,
  needleAngle,
  validatedSharePct,
  wiggledPct,
} from './performance.ts';

const row = (desktop: number, mobile: number, id = 1): TPerformanceHistoryRow => ({
  id,
  day: '2026-01-01',
  perfs_pageviews_desktop: 0,
  perfs_pageviews_mobile: 0,
  perfs_validated_impressions_desktop: desktop,
  perfs_validated_impressions_mobile: mobile,
});

describe('publisher performance figures', () => {
  it('takes the validated share of pageviews, and none without pageviews', () => {
    expect(validatedSharePct(1000, 700)).toBe(70);
    expect(validatedSharePct(0, 5)).toBeNull();
    expect(missingSharePct(1000, 700)).toBeCloseTo(30);
    expect(missingSharePct(100, 130)).toBe(0);
    expect(missingSharePct(0, 0)).toBeNull();
    // 59.95% validated reads 60.0%: the missing share reads 40.0%, not 40.1% (together 100.0%).
    expect(missingSharePct(2000, 1199)).toBe(40);
  });

  it('flags a validated share below 60%, not at 60%, as the share is shown (one decimal)', () => {
    expect(isValidatedShareLow(1000, 599)).toBe(true);
    expect(isValidatedShareLow(1000, 600)).toBe(false);
    // 59.96% reads "60.0%": not red. 59.94% reads "59.9%": red.
    expect(isValidatedShareLow(10_000, 5996)).toBe(false);
    expect(isValidatedShareLow(10_000, 5994)).toBe(true);
    expect(isValidatedShareLow(0, 0)).toBe(false);
  });

  it('scales bars and dials to their maximum, within 0..100', () => {
    expect(barWidthPct(750, 1500)).toBe(50);
    expect(barWidthPct(2000, 1500)).toBe(100);
    expect(barWidthPct(10, 0)).toBe(0);
    expect(dialPct(3, 0)).toBe(100);
    expect(dialPct(0, 40)).toBe(0);
  });

  it('averages the validated impressions per day from the first day with data to yesterday, at most 30 days', () => {
    expect(dayTotal(row(700, 300))).toBe(1000);
    const today = 20_000;
    // Three days in a row up to yesterday.
    expect(averagePerDay([row(700, 300, today - 1), row(100, 0, today - 2), row(40, 1000, today - 3)], today)).toBe(
      2140 / 3,
    );
    // Data 10 and 2 days ago: the 8 days between without data count as 0 (10 days from the first to yesterday).
    expect(averagePerDay([row(500, 0, today - 2), row(500, 0, today - 10)], today)).toBe(100);
    // Never spread over more than the 30 days of the window.
    expect(averagePerDay([row(3000, 0, today - 30), row(0, 0, today - 1)], today)).toBe(100);
    // A browser clock a day behind the server's: the rows' own span still counts.
    expect(averagePerDay([row(100, 0, today - 1), row(100, 0, today - 2)], today - 1)).toBe(100);
    expect(averagePerDay([], today)).toBeNull();
  });
});

describe('the gauge (specification 02 section 9)', () => {
  it('sweeps clockwise from 9 to 3 o clock through 12', () => {
    expect(needleAngle(0)).toBe(180);
    expect(needleAngle(50)).toBe(270);
    expect(needleAngle(100)).toBe(360);
    expect(needleAngle(150)).toBe(360);
    expect(clockAngle(GAUGE.minLabelPosition)).toBe(120);
    expect(clockAngle(GAUGE.maxLabelPosition)).toBe(60);
  });

  it('puts 12 o clock at the top of the face', () => {
    const top = dialPoint(needleAngle(50), 60);
    expect(top.x).toBeCloseTo(75);
    expect(top.y).toBeCloseTo(15);
  });

  it('wiggles within 2.5% of the value, inside the scale, and not at all at 0', () => {
    expect(wiggledPct(50, () => 0)).toBe(47.5);
    expect(wiggledPct(50, () => 1)).toBe(52.5);
    expect(wiggledPct(99, () => 1)).toBe(100);
    expect(wiggledPct(0, () => 1)).toBe(0);
  });
});
