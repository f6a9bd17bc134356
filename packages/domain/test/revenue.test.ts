import { describe, expect, it } from 'vitest';
import { clickCost, impressionCost, impressionCostAt, impressionsCost, splitRevenue } from '../src/revenue.ts';

describe('costs', () => {
  it.each([
    [2_500_000, 2_500],
    [2_345_678, 2_345],
    [999, 0],
  ] as const)('one impression at CPM %i costs %i micros', (cpm, cost) => {
    expect(impressionCost(cpm)).toBe(cost);
  });

  it.each([
    [1000, 2_345_678, 2_345_678],
    [3, 2_345_678, 7_037],
    [0, 2_500_000, 0],
  ] as const)('%i impressions at CPM %i cost %i', (count, cpm, cost) => {
    expect(impressionsCost(count, cpm)).toBe(cost);
  });

  it('counts large purchases without losing precision', () => {
    // About 10 million impressions at a 999.999999 EUR CPM: the plain product passes 2^53 and rounds up.
    expect(impressionsCost(10_000_001, 999_999_999)).toBe(10_000_000_989_999);
  });

  it.each([[1_234_500], [2_345_678], [999], [2_500_000]] as const)(
    'impressions one by one at CPM %i add up to the price of the purchase',
    (cpm) => {
      const purchased = 10_000;
      let charged = 0;
      const costs = new Set<number>();
      for (let remaining = purchased; remaining > 0; remaining--) {
        const cost = impressionCostAt(cpm, remaining);
        costs.add(cost);
        charged += cost;
      }
      expect(charged).toBe(impressionsCost(purchased, cpm));
      // Each impression costs the CPM / 1000 rounded down or up, never more apart.
      expect([...costs].every((cost) => cost === Math.floor(cpm / 1000) || cost === Math.ceil(cpm / 1000))).toBe(true);
    },
  );

  it('a whole number of micro-euros per impression is charged as it is', () => {
    expect(impressionCostAt(2_500_000, 7)).toBe(2_500);
    expect(impressionCostAt(1_234_500, 2)).toBe(impressionsCost(2, 1_234_500) - impressionsCost(1, 1_234_500));
  });

  it('a unique click costs the CPC', () => {
    expect(clickCost(350_000)).toBe(350_000);
  });
});

describe('splitRevenue (docs/decisions.md section 6)', () => {
  it.each([
    [
      '70% publisher, no rep',
      2500,
      7000,
      1000,
      0,
      false,
      { advertiserCost: 2500, publisher: 1750, salesRep: 0, company: 750, trialCost: 0 },
    ],
    [
      'one sales rep',
      2500,
      7000,
      1000,
      1,
      false,
      { advertiserCost: 2500, publisher: 1750, salesRep: 250, company: 500, trialCost: 0 },
    ],
    [
      'two sales reps',
      2500,
      7000,
      1000,
      2,
      false,
      { advertiserCost: 2500, publisher: 1750, salesRep: 500, company: 250, trialCost: 0 },
    ],
    [
      'shares rounded down',
      2345,
      7000,
      1000,
      1,
      false,
      { advertiserCost: 2345, publisher: 1641, salesRep: 234, company: 470, trialCost: 0 },
    ],
    [
      'trial: advertiser pays nothing, publisher is paid',
      2500,
      7000,
      1000,
      0,
      true,
      { advertiserCost: 0, publisher: 1750, salesRep: 0, company: 750, trialCost: 2500 },
    ],
    [
      'custom publisher share 80%',
      1000,
      8000,
      1000,
      0,
      false,
      { advertiserCost: 1000, publisher: 800, salesRep: 0, company: 200, trialCost: 0 },
    ],
    [
      'reps never exceed what is left',
      1000,
      9500,
      1000,
      2,
      false,
      { advertiserCost: 1000, publisher: 950, salesRep: 50, company: 0, trialCost: 0 },
    ],
    ['zero cost', 0, 7000, 1000, 1, false, { advertiserCost: 0, publisher: 0, salesRep: 0, company: 0, trialCost: 0 }],
    [
      'a publisher share above 100% pays the cost, no more',
      1000,
      12000,
      1000,
      1,
      false,
      { advertiserCost: 1000, publisher: 1000, salesRep: 0, company: 0, trialCost: 0 },
    ],
    [
      'negative shares pay nothing',
      1000,
      -500,
      -1000,
      1,
      false,
      { advertiserCost: 1000, publisher: 0, salesRep: 0, company: 1000, trialCost: 0 },
    ],
  ] as const)('%s', (_name, cost, publisherShareBp, salesRepShareBp, salesReps, isTrial, expected) => {
    const split = splitRevenue({ cost, publisherShareBp, salesRepShareBp, salesReps, isTrial });
    expect(split).toEqual(expected);
    expect(split.publisher + split.salesRep + split.company).toBe(cost);
  });
});
