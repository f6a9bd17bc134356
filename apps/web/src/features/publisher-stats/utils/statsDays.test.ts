import { describe, expect, it } from 'vitest';
import type { TStatsDay } from '@helium/contracts';
import { newestFirst, tablesOf } from './statsDays.ts';

const day = (iso: string, owl = 0, web = 0) =>
  ({
    day: iso,
    dayStr: iso,
    totalImpressions: 0,
    totalRevenue: 0,
    owlAds: Array.from({ length: owl }),
    webAds: Array.from({ length: web }),
  }) as unknown as TStatsDay;

describe('newestFirst', () => {
  it('puts the newest day first without changing the list it was given', () => {
    const days = [day('2026-11-20'), day('2026-11-22'), day('2026-11-21')];
    expect(newestFirst(days).map((d) => d.day)).toEqual(['2026-11-22', '2026-11-21', '2026-11-20']);
    expect(days[0]?.day).toBe('2026-11-20');
  });
});

describe('tablesOf', () => {
  it('tells which of the two tables a day needs', () => {
    expect(tablesOf(day('2026-11-22', 1, 0))).toEqual({ owl: true, web: false });
    expect(tablesOf(day('2026-11-22', 0, 2))).toEqual({ owl: false, web: true });
  });
});
