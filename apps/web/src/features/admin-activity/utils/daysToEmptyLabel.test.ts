import { describe, expect, it } from 'vitest';
import { daysToEmptyLabel } from './daysToEmptyLabel.ts';

describe('daysToEmptyLabel', () => {
  it('colours the number it shows: under 7 red, 7 to 15 orange, over 15 green', () => {
    expect(daysToEmptyLabel(6.9)).toEqual({ days: 6, colour: 'red' });
    expect(daysToEmptyLabel(7)).toEqual({ days: 7, colour: 'orange' });
    expect(daysToEmptyLabel(14.9)).toEqual({ days: 14, colour: 'orange' });
    expect(daysToEmptyLabel(15)).toEqual({ days: 15, colour: 'orange' });
    expect(daysToEmptyLabel(15.4)).toEqual({ days: 15, colour: 'orange' });
    expect(daysToEmptyLabel(16)).toEqual({ days: 16, colour: 'green' });
  });

  it('keeps an unknown duration (no traffic yesterday) green', () => {
    expect(daysToEmptyLabel(null)).toEqual({ days: null, colour: 'green' });
  });
});
