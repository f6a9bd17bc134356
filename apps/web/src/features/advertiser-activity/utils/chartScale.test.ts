import { describe, expect, it } from 'vitest';
import { labelledIndexes, niceMax, ticks } from './chartScale.ts';

describe('chart scales', () => {
  it.each([
    [0, 1],
    [0.7, 1],
    [3, 5],
    [1653, 2000],
    [2100, 2500],
    [2600, 5000],
    [10_000, 10_000],
    [10_001, 20_000],
  ])('niceMax(%d) = %d', (value, max) => expect(niceMax(value)).toBe(max));

  it('spreads four steps from 0', () => expect(ticks(2000)).toEqual([0, 500, 1000, 1500, 2000]));

  it('labels every day of a short range, and at most six of a long one, the last included', () => {
    expect(labelledIndexes(3)).toEqual([0, 1, 2]);
    const long = labelledIndexes(30);
    expect(long.length).toBeLessThanOrEqual(6);
    expect(long[0]).toBe(0);
    expect(long.at(-1)).toBe(29);
  });
});
