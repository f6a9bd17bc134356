import { describe, expect, it } from 'vitest';
import type { TStatsDay } from '@helium/contracts';
import { newestFirst, pageOfDays, STATS_DAYS_PER_PAGE, tablesOf } from './statsDays.ts';

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

describe('pageOfDays', () => {
  const days = Array.from({ length: 23 }, (_, index) => index + 1);

  it('cuts the days into pages and says which days a page holds', () => {
    expect(pageOfDays(days, 1, 10)).toEqual({
      days: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      page: 1,
      pages: 3,
      first: 1,
      last: 10,
      total: 23,
    });
    expect(pageOfDays(days, 3, 10)).toMatchObject({ days: [21, 22, 23], page: 3, first: 21, last: 23 });
  });

  it('keeps the page asked for within the pages there are', () => {
    expect(pageOfDays(days, 9, 10)).toMatchObject({ page: 3, first: 21 });
    expect(pageOfDays(days, 0, 10)).toMatchObject({ page: 1, first: 1 });
    expect(pageOfDays(days, Number.NaN, 10)).toMatchObject({ page: 1 });
  });

  it('has one empty page without days', () => {
    expect(pageOfDays([], 1, 10)).toEqual({ days: [], page: 1, pages: 1, first: 0, last: 0, total: 0 });
  });

  it('lists ten days a page by default', () => {
    expect(pageOfDays(days, 1).days).toHaveLength(STATS_DAYS_PER_PAGE);
  });
});
