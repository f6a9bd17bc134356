import { describe, expect, it } from 'vitest';
import {
  adCtr,
  dailyVolumeFactor,
  DEFAULT_TRAFFIC_MODEL,
  drawCount,
  drawDailyAdFigures,
  drawDevice,
  minuteShare,
  seededRandom,
  splitInteger,
} from '../src/index.ts';

describe('traffic model', () => {
  it('gives each ad a stable CTR between 0.1% and 2%, spread across ads', () => {
    const ctrs = Array.from({ length: 200 }, (_, index) => adCtr(index + 1, 'desktop'));
    expect(Math.min(...ctrs)).toBeGreaterThanOrEqual(0.001);
    expect(Math.max(...ctrs)).toBeLessThanOrEqual(0.02);
    expect(Math.max(...ctrs) / Math.min(...ctrs)).toBeGreaterThan(10);
    expect(adCtr(42, 'desktop')).toBe(adCtr(42, 'desktop'));
    expect(adCtr(42, 'mobile')).toBeCloseTo(adCtr(42, 'desktop') * DEFAULT_TRAFFIC_MODEL.mobileCtrFactor, 12);
  });

  it('mixes desktop and mobile by the model share', () => {
    const random = seededRandom(1);
    const draws = Array.from({ length: 10_000 }, () => drawDevice(random));
    const mobile = draws.filter((device) => device === 'mobile').length / draws.length;
    expect(mobile).toBeGreaterThan(0.42);
    expect(mobile).toBeLessThan(0.48);
  });

  it('has a daily volume curve around 1, lower on Sundays, growing towards today', () => {
    const sunday = new Date('2026-09-06T00:00:00Z');
    const tuesday = new Date('2026-09-08T00:00:00Z');
    expect(dailyVolumeFactor(sunday, 10, 1)).toBeLessThan(dailyVolumeFactor(tuesday, 8, 1));
    const factors = Array.from({ length: 28 }, (_, back) => {
      const day = new Date(Date.UTC(2026, 8, 30) - back * 86_400_000);
      return dailyVolumeFactor(day, back, 3);
    });
    const mean = factors.reduce((sum, value) => sum + value, 0) / factors.length;
    expect(mean).toBeGreaterThan(0.85);
    expect(mean).toBeLessThan(1.15);
    expect(dailyVolumeFactor(tuesday, 8, 1)).toBe(dailyVolumeFactor(tuesday, 8, 1));
  });

  it('spreads a day over its minutes (busier in the evening than at night)', () => {
    let total = 0;
    for (let minute = 0; minute < 1440; minute++) total += minuteShare(new Date(Date.UTC(2026, 0, 1, 0, minute)));
    expect(total).toBeCloseTo(1, 9);
    expect(minuteShare(new Date('2026-01-01T20:00:00Z'))).toBeGreaterThan(
      minuteShare(new Date('2026-01-01T03:00:00Z')),
    );
  });

  it('draws consistent daily figures: impressions <= served, clicks <= impressions, leads <= clicks', () => {
    const random = seededRandom(9);
    for (let adId = 1; adId < 50; adId++) {
      const figures = drawDailyAdFigures(random, adId, adId % 2 ? 'desktop' : 'mobile', 20 + adId * 40);
      expect(figures.impressions).toBeLessThanOrEqual(figures.served);
      expect(figures.clicks).toBeLessThanOrEqual(figures.impressions);
      expect(figures.allClicks).toBeGreaterThanOrEqual(figures.clicks);
      expect(figures.leads).toBeLessThanOrEqual(figures.clicks);
    }
    expect(drawCount(seededRandom(2), 10_000, 0.7)).toBeGreaterThan(6800);
    expect(drawCount(seededRandom(2), 10_000, 0.7)).toBeLessThan(7200);
    expect(drawCount(seededRandom(2), 0, 0.5)).toBe(0);
  });
});

describe('splitInteger', () => {
  it('splits a whole number over weights, adding up exactly', () => {
    expect(splitInteger(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(splitInteger(7, [0, 1])).toEqual([0, 7]);
    expect(splitInteger(0, [1, 2])).toEqual([0, 0]);
    expect(splitInteger(5, [0, 0])).toEqual([0, 0]);
    const parts = splitInteger(1234, [0.3, 0.2, 0.4, 0.1]);
    expect(parts.reduce((sum, part) => sum + part, 0)).toBe(1234);
  });
});
