import { describe, expect, it } from 'vitest';
import { adCardShare, isShareFaded } from '../src/activity.ts';
import { advertiserAdShares, ctrWindowStartDay, sharePct, type AdvertiserDisplay } from '../src/delivery/index.ts';

describe('the CTR window: today and the 6 days before it', () => {
  it.each([
    ['2026-03-10', '2026-03-04'],
    ['2026-03-03', '2026-02-25'],
    ['2024-03-05', '2024-02-28'],
    ['2026-01-04', '2025-12-29'],
  ])('ends %s and starts %s', (today, start) => {
    expect(ctrWindowStartDay(today)).toBe(start);
  });

  it('holds 7 UTC days', () => {
    const start = Date.parse(`${ctrWindowStartDay('2026-10-25')}T00:00:00Z`);
    expect((Date.parse('2026-10-25T00:00:00Z') - start) / 86_400_000 + 1).toBe(7);
  });

  it('refuses what is not a UTC day', () => {
    expect(() => ctrWindowStartDay('2026-3-10')).toThrow(RangeError);
    expect(() => ctrWindowStartDay('2026-03-10T12:00:00Z')).toThrow(RangeError);
  });
});

describe('admin ad cards: share and fading', () => {
  it('fades from the unrounded share, at the thresholds 0.01% (desktop) and 0.1% (mobile)', () => {
    expect(adCardShare('desktop', 0.000099_99)).toEqual({ sharePct: 0.01, isFaded: true });
    expect(adCardShare('desktop', 0.0001)).toEqual({ sharePct: 0.01, isFaded: false });
    expect(adCardShare('mobile', 0.000999_9)).toEqual({ sharePct: 0.1, isFaded: true });
    expect(adCardShare('mobile', 0.001)).toEqual({ sharePct: 0.1, isFaded: false });
  });

  it('keeps shares between 0.01% and 0.05% on desktop and fades 0.05% to 0.1% on mobile', () => {
    // Rounded to one decimal first, 0.04% read 0 (faded on desktop) and 0.06% read 0.1 (shown on mobile).
    expect(adCardShare('desktop', 0.0004)).toEqual({ sharePct: 0.04, isFaded: false });
    expect(adCardShare('mobile', 0.0006)).toEqual({ sharePct: 0.06, isFaded: true });
    expect(adCardShare('mobile', 0.0004)).toEqual({ sharePct: 0.04, isFaded: true });
  });

  it('gives the 2 decimals the card shows, and fades a 0 share', () => {
    expect(adCardShare('desktop', 1 / 3).sharePct).toBe(33.33);
    expect(adCardShare('mobile', 1)).toEqual({ sharePct: 100, isFaded: false });
    expect(adCardShare('desktop', 0)).toEqual({ sharePct: 0, isFaded: true });
    expect(isShareFaded('desktop', 0.009_999)).toBe(true);
    expect(isShareFaded('mobile', 0.099_999)).toBe(true);
  });

  it('rounds other shares to the decimals asked (one by default)', () => {
    expect(sharePct(1, 3)).toBe(33.3);
    expect(sharePct(1, 3, 2)).toBe(33.33);
    expect(sharePct(0, 3, 2)).toBe(0);
  });
});

describe("an ad's share of its advertiser's traffic over its displays", () => {
  const ad = (id: number, clicks: number, isAutoPilot = true) => ({
    id,
    advertiserId: 1,
    isAutoPilot,
    impressions: 10_000,
    clicks,
  });
  const good = ad(1, 1_000);
  const poor = ad(2, 10);
  const other = ad(3, 10);

  it('shares equally under Balancer, whatever the CTR and the AutoPilot switch', () => {
    const shares = advertiserAdShares([{ mode: 'balancer', ads: [good, poor, other], weight: 5 }]);
    expect([...shares.values()]).toEqual([1 / 3, 1 / 3, 1 / 3]);
  });

  it('samples by CTR under AutoPilot only when every ad of the advertiser has it on', () => {
    const autopilot = advertiserAdShares([{ mode: 'autopilot', ads: [good, poor], weight: 1 }]);
    expect(autopilot.get(1)).toBeGreaterThan(0.95);
    expect(autopilot.get(1)! + autopilot.get(2)!).toBeCloseTo(1, 10);
    const oneOff = advertiserAdShares([{ mode: 'autopilot', ads: [good, ad(2, 10, false)], weight: 1 }]);
    expect([...oneOff.values()]).toEqual([0.5, 0.5]);
  });

  it("weights the displays by the advertiser's traffic there, equally when it has none", () => {
    const displays: Array<AdvertiserDisplay<number>> = [
      { mode: 'balancer', ads: [good, poor], weight: 300 },
      { mode: 'balancer', ads: [poor], weight: 100 },
      { mode: 'balancer', ads: [], weight: 1_000 },
    ];
    const weighted = advertiserAdShares(displays);
    expect(weighted.get(1)).toBeCloseTo(0.375, 10);
    expect(weighted.get(2)).toBeCloseTo(0.625, 10);
    const unweighted = advertiserAdShares(displays.map((display) => ({ ...display, weight: 0 })));
    expect(unweighted.get(1)).toBeCloseTo(0.25, 10);
    expect(unweighted.get(2)).toBeCloseTo(0.75, 10);
    // Two identical displays count twice.
    const twice = advertiserAdShares(
      [displays[0]!, { ...displays[0]!, weight: 0 }, displays[1]!].map((display) => ({
        ...display,
        weight: 0,
      })),
    );
    expect(twice.get(1)).toBeCloseTo(1 / 3, 10);
    expect(advertiserAdShares([]).size).toBe(0);
  });
});
