import { describe, expect, it } from 'vitest';
import {
  NETWORK_SETTING_NUMBER_RULES as RULES,
  settingNumberProblem,
  settingsAcrossFieldsProblem,
} from '../src/network-settings.ts';
import { eurosToPicoBitcoins } from '../src/pricing.ts';

describe('settingNumberProblem', () => {
  it.each([
    ['btcToEur', 0.001, 'tooManyDecimals'],
    ['btcToEur', 0, 'belowMin'],
    ['btcToEur', 99.99, 'belowMin'],
    ['btcToEur', 61250.5, null],
    ['btcToEur', 1_000_000_000.01, 'aboveMax'],
    ['usdToEur', 0.000000001, 'tooManyDecimals'],
    ['usdToEur', 0.009, 'belowMin'],
    ['usdToEur', 0.92345678, null],
    ['usdToEur', 100.5, 'aboveMax'],
    ['vatPct', 19.99, null],
    ['vatPct', 19.999, 'tooManyDecimals'],
    ['vatPct', -0.01, 'belowMin'],
    ['vatPct', 100.01, 'aboveMax'],
    ['transferFeeWire', 0.000001, null],
    ['transferFeeWire', 0.0000001, 'tooManyDecimals'],
    ['minImpressionsForCtrRank', 10.5, 'tooManyDecimals'],
    ['statsDaysAveraged', 0, 'belowMin'],
    ['statsDaysAveraged', 366, 'aboveMax'],
    ['vatPct', Number.NaN, 'notANumber'],
  ] as const)('%s = %s: %s', (name, value, problem) => {
    expect(settingNumberProblem(value, RULES[name])).toBe(problem);
  });

  it('keeps the pico-bitcoins of a 900,000 euro purchase a safe integer at the lowest bitcoin rate', () => {
    const picoBitcoins = eurosToPicoBitcoins(900_000_000_000, RULES.btcToEur.min.toFixed(2));
    expect(Number.isSafeInteger(picoBitcoins)).toBe(true);
  });
});

describe('settingsAcrossFieldsProblem', () => {
  const settings = {
    publisherRevenueSharePct: 70,
    salesRepRevenueSharePct: 10,
    discountThreshold1Pct: 25,
    discountThreshold2Pct: 50,
    discountThreshold3Pct: 100,
  };

  it('takes settings that break no rule, shares adding up to 100 % exactly in basis points', () => {
    expect(settingsAcrossFieldsProblem(settings)).toBeNull();
    expect(
      settingsAcrossFieldsProblem({ ...settings, publisherRevenueSharePct: 70.3, salesRepRevenueSharePct: 29.7 }),
    ).toBeNull();
  });

  it('names the sales-rep share when the shares add up to more than 100 %', () => {
    expect(settingsAcrossFieldsProblem({ ...settings, salesRepRevenueSharePct: 30.01 })).toEqual({
      field: 'salesRepRevenueSharePct',
      problem: 'sharesAbove100',
    });
  });

  it('names the second threshold when the thresholds do not go up', () => {
    expect(settingsAcrossFieldsProblem({ ...settings, discountThreshold1Pct: 60 })).toEqual({
      field: 'discountThreshold2Pct',
      problem: 'thresholdsNotAscending',
    });
  });
});
