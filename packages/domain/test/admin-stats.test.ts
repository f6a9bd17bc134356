import { describe, expect, it } from 'vitest';
import { missingValidatedPct, partsToEuros, revenueParts, scaleParts, validatedPct } from '../src/admin-stats.ts';
import { splitRevenue } from '../src/revenue.ts';

describe('admin stats rules', () => {
  it.each([
    [0, 0, 0, 0],
    [1000, 600, 60, 0],
    [1000, 599, 59.9, 0.1],
    [1000, 250, 25, 35],
    [1000, 1200, 120, 0],
  ])('%i pageviews, %i impressions: %f %% validated, %f %% missing', (pageviews, impressions, pct, missing) => {
    expect(validatedPct(pageviews, impressions)).toBe(pct);
    expect(missingValidatedPct(pageviews, impressions)).toBe(missing);
  });

  it('subtracts trial costs from the company so that h + p + s is what advertisers were charged', () => {
    const paid = splitRevenue({
      cost: 1_234_567,
      publisherShareBp: 7000,
      salesRepShareBp: 1000,
      salesReps: 1,
      isTrial: false,
    });
    const trial = splitRevenue({
      cost: 500_001,
      publisherShareBp: 7000,
      salesRepShareBp: 1000,
      salesReps: 0,
      isTrial: true,
    });
    const parts = revenueParts({
      cost: paid.advertiserCost + trial.advertiserCost,
      publisherRevenue: paid.publisher + trial.publisher,
      salesRepRevenue: paid.salesRep + trial.salesRep,
      companyRevenue: paid.company + trial.company,
      trialCost: paid.trialCost + trial.trialCost,
    });
    expect(parts.total).toBe(1_234_567);
    expect(parts.h + parts.p + parts.s).toBe(parts.total);
    expect(parts.h).toBe(paid.company + trial.company - 500_001);
  });

  it.each([
    [{ h: 3_335, p: 3_335, s: 3_330, total: 10_000 }],
    [{ h: 1_234_567, p: 2_345_678, s: 3_456_789, total: 7_037_034 }],
    [{ h: -356_004, p: 1_005_005, s: 5_005, total: 654_006 }],
    [{ h: 4_999, p: 4_999, s: 4_999, total: 14_997 }],
  ])('rounds %o to cents that add up', (parts) => {
    const euros = partsToEuros(parts);
    expect(Math.round((euros.h + euros.p + euros.s) * 100)).toBe(Math.round(euros.total * 100));
    expect(euros.total).toBe(Math.round(parts.total / 10_000) / 100);
    for (const key of ['h', 'p', 's'] as const)
      expect(Math.abs(euros[key] * 1_000_000 - parts[key])).toBeLessThan(10_000);
  });

  it('scales parts (average, projection) keeping h + p + s = total', () => {
    const scaled = scaleParts({ h: 1_000_001, p: 2_000_002, s: 3, total: 3_000_006 }, 30, 7);
    expect(scaled.h + scaled.p + scaled.s).toBe(scaled.total);
    expect(scaled.total).toBe(Math.floor((3_000_006 * 30) / 7));
  });
});
