import { describe, expect, it } from 'vitest';
import { eurosToMicros, microsToEuros, shareOf } from '../src/money.ts';
import { accountValue, parseAccountValue } from '../src/roles.ts';

describe('eurosToMicros', () => {
  it.each([
    ['2.50', 2_500_000],
    ['2,50', 2_500_000],
    ['0.000001', 1],
    ['0.0000019', 1],
    ['1234', 1_234_000_000],
    ['-3.2', -3_200_000],
    [2.5, 2_500_000],
    [0.1, 100_000],
  ] as const)('%j euros = %i micros', (euros, micros) => {
    expect(eurosToMicros(euros)).toBe(micros);
  });

  it.each(['', 'abc', '1.2.3', '1e5'])('refuses %j', (text) => {
    expect(() => eurosToMicros(text)).toThrow(RangeError);
  });

  it('converts back for display', () => {
    expect(microsToEuros(2_500_000)).toBe(2.5);
  });
});

describe('shareOf', () => {
  it.each([
    [1_000_000, 7000, 700_000],
    [1, 7000, 0],
    [2_500, 7000, 1_750],
    [3, 3333, 0],
  ])('shareOf(%i, %i bp) = %i', (amount, bp, expected) => {
    expect(shareOf(amount, bp)).toBe(expected);
  });
});

describe('account values', () => {
  it.each([
    ['0', { type: 0, id: null }],
    ['0,7', { type: 0, id: null }],
    ['1,12', { type: 1, id: 12 }],
    ['2,3', { type: 2, id: 3 }],
    ['1', null],
    ['3,1', null],
    ['2,abc', null],
    ['', null],
  ])('parseAccountValue(%j)', (value, expected) => {
    expect(parseAccountValue(value)).toEqual(expected);
  });

  it('writes the admin entry as 0', () => {
    expect(accountValue(0, 5)).toBe('0');
    expect(accountValue(1, 5)).toBe('1,5');
  });
});
