import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS, startOfUtcDay, utcDayNumber } from '../src/index.ts';

describe('time', () => {
  it('names the durations once', () => {
    expect([MINUTE_MS, HOUR_MS, DAY_MS]).toEqual([60_000, 3_600_000, 86_400_000]);
  });

  it.each([
    ['1970-01-01T00:00:00Z', 0],
    ['2026-11-25T00:00:00Z', 20_782],
    ['2026-11-25T23:59:59.999Z', 20_782],
    ['2026-11-26T00:00:00Z', 20_783],
  ])('%s is UTC day %i, which starts at its midnight', (iso, day) => {
    const ms = Date.parse(iso);
    expect(utcDayNumber(ms)).toBe(day);
    expect(new Date(startOfUtcDay(ms)).toISOString()).toBe(`${iso.slice(0, 10)}T00:00:00.000Z`);
  });
});
