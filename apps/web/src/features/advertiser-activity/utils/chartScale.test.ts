import { describe, expect, it } from 'vitest';
import { formatPercent } from '@helium/domain/format';
import { decimalsOf, labelCount, labelledIndexes, niceAxis } from './chartScale.ts';

describe('chart axes', () => {
  it.each([
    [810, [0, 250, 500, 750, 1000]],
    [1653, [0, 500, 1000, 1500, 2000]],
    [1100, [0, 300, 600, 900, 1200]],
    [8, [0, 2, 4, 6, 8]],
  ])('counts up to %d: %j', (value, ticks) => expect(niceAxis(value, 4, { whole: true }).ticks).toEqual(ticks));

  it('counts in whole steps of at least 1, also when there are none', () => {
    expect(niceAxis(3, 4, { whole: true }).ticks).toEqual([0, 1, 2, 3, 4]);
    expect(niceAxis(0, 4, { whole: true }).ticks).toEqual([0, 1, 2, 3, 4]);
    expect(niceAxis(9, 4, { whole: true }).ticks).toEqual([0, 3, 6, 9, 12]);
  });

  it('gives percent axes round steps and the decimals that write them exactly', () => {
    expect(niceAxis(1.18, 2)).toMatchObject({ ticks: [0, 0.6, 1.2], decimals: 1 });
    expect(niceAxis(2.4, 4)).toMatchObject({ ticks: [0, 0.6, 1.2, 1.8, 2.4], decimals: 1 });
    expect(niceAxis(0.9, 2)).toMatchObject({ ticks: [0, 0.5, 1], decimals: 1 });
    expect(niceAxis(0.48, 2)).toMatchObject({ ticks: [0, 0.25, 0.5], decimals: 2 });
    expect(niceAxis(0, 2).max).toBeGreaterThan(0);
  });

  it('writes 1.25 % as 1,25 % in French, not 1,3 %', () => {
    expect(decimalsOf(1.25)).toBe(2);
    expect(decimalsOf(0.3)).toBe(1);
    expect(decimalsOf(3 * 0.1)).toBe(1);
    expect(decimalsOf(500)).toBe(0);
    expect(formatPercent(1.25, 'fr', decimalsOf(1.25))).toBe('1,25\u00a0%'.replace('\u00a0', ' '));
    const axis = niceAxis(0.48, 2);
    expect(axis.ticks.map((tick) => formatPercent(tick, 'fr', axis.decimals))).toEqual(['0,00 %', '0,25 %', '0,50 %']);
  });
});

describe('day labels', () => {
  it('labels every day of a short range, and at most the count asked of a long one, first and last included', () => {
    expect(labelledIndexes(3)).toEqual([0, 1, 2]);
    const long = labelledIndexes(30);
    expect(long.length).toBe(6);
    expect(long[0]).toBe(0);
    expect(long.at(-1)).toBe(29);
    expect(labelledIndexes(30, 3)).toEqual([0, 15, 29]);
    expect(labelledIndexes(1)).toEqual([0]);
  });

  it('fits as many labels as their width allows', () => {
    // A 1280 px screen: a plot of about 900 px, 80 px labels.
    expect(labelCount(900, 80, 30)).toBeGreaterThanOrEqual(6);
    // A 390 px phone: about 230 px.
    const phone = labelCount(230, 80, 30);
    expect(phone).toBe(3);
    const indexes = labelledIndexes(30, phone);
    const spacing = 230 / 29;
    for (let index = 1; index < indexes.length; index += 1) {
      expect((indexes[index]! - indexes[index - 1]!) * spacing).toBeGreaterThanOrEqual(80 + 12);
    }
    expect(labelCount(60, 80, 30)).toBe(1);
  });
});
