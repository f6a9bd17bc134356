import { describe, expect, it } from 'vitest';
import { footnoteKey, isBelowRule } from './statsRules.ts';

describe('admin stats rules of the screen', () => {
  it('says "Yesterday" for one day, else the number of days averaged', () => {
    expect(footnoteKey(1)).toEqual({ key: 'adminStats.footnoteYesterday', count: 1 });
    expect(footnoteKey(7)).toEqual({ key: 'adminStats.footnoteAverage', count: 7 });
  });

  it('is red only when something is missing to reach 60 %', () => {
    expect(isBelowRule(0)).toBe(false);
    expect(isBelowRule(0.1)).toBe(true);
  });
});
