import { describe, expect, it } from 'vitest';
import { decimalPlaces, decimalText, decimalUnits, scaledDecimal } from '../src/decimals.ts';

describe('decimalText', () => {
  it.each([
    [0.92, '0.92'],
    [61250, '61250'],
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [-2.5e-8, '-0.000000025'],
    [1e21, '1000000000000000000000'],
    [1.25e21, '1250000000000000000000'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('writes %s as %s', (value, text) => {
    expect(decimalText(value)).toBe(text);
  });

  it('refuses what is not a finite number', () => {
    expect(() => decimalText(Number.NaN)).toThrow(RangeError);
    expect(() => decimalText(Infinity)).toThrow(RangeError);
  });
});

describe('decimalPlaces', () => {
  it.each([
    [12, 0],
    [2.5, 1],
    [0.001, 3],
    [1e-7, 7],
    [61250.005, 3],
    [0.12345678, 8],
  ])('counts the decimals of %s: %s', (value, places) => {
    expect(decimalPlaces(value)).toBe(places);
  });
});

describe('decimalUnits and scaledDecimal: exact, without floating-point rounding', () => {
  it.each([
    [2.35, 2, 235],
    [0.29, 2, 29],
    [19.99, 2, 1999],
    [0.000001, 6, 1],
    [123.456789, 6, 123_456_789],
    [1_000_000_000, 6, 1_000_000_000_000_000],
    [-0.5, 2, -50],
  ])('counts %s in units of 10^-%s: %s', (value, decimals, units) => {
    expect(decimalUnits(value, decimals)).toBe(units);
  });

  it.each([
    [0.92, 8, '0.92000000'],
    [0.12345678, 8, '0.12345678'],
    [65432.1, 2, '65432.10'],
    [1.005, 3, '1.005'],
    [100, 0, '100'],
  ])('writes %s with %s decimals as %s', (value, scale, text) => {
    expect(scaledDecimal(value, scale)).toBe(text);
  });

  it('refuses a number with more decimals than asked rather than rounding it', () => {
    expect(() => decimalUnits(0.001, 2)).toThrow(RangeError);
    expect(() => scaledDecimal(0.001, 2)).toThrow(RangeError);
    // What toFixed(2) does to it: "1.00", a cent lost.
    expect(() => scaledDecimal(1.005, 2)).toThrow(RangeError);
  });

  it('refuses units beyond the safe integers', () => {
    expect(() => decimalUnits(1e10, 8)).toThrow(RangeError);
  });
});
