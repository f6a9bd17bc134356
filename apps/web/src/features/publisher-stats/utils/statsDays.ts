import type { TStatsDay } from '@helium/contracts';

/** The days newest first (`day` is YYYY-MM-DD), whatever order they came in. */
export function newestFirst(days: readonly TStatsDay[]): TStatsDay[] {
  return [...days].sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
}

/** Whether a day has anything to show in a table: the newsletter ads, the web ads. */
export function tablesOf(day: TStatsDay): { owl: boolean; web: boolean } {
  return { owl: day.owlAds.length > 0, web: day.webAds.length > 0 };
}

/** How many days one page of the Stats screen lists (docs/decisions.md, "Publisher Stats in pages"). */
export const STATS_DAYS_PER_PAGE = 10;

export interface DaysPage<T> {
  /** The days of the page. */
  days: T[];
  /** The page shown, from 1 (the one asked for, kept within the pages there are). */
  page: number;
  pages: number;
  /** The positions of its first and last day, from 1, and how many days there are. */
  first: number;
  last: number;
  total: number;
}

/** One page of `perPage` days; a page beyond the last (fewer days after a reload) shows the last. */
export function pageOfDays<T>(days: readonly T[], page: number, perPage = STATS_DAYS_PER_PAGE): DaysPage<T> {
  const pages = Math.max(1, Math.ceil(days.length / perPage));
  const shown = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const from = (shown - 1) * perPage;
  const slice = days.slice(from, from + perPage);
  return {
    days: slice,
    page: shown,
    pages,
    first: slice.length > 0 ? from + 1 : 0,
    last: from + slice.length,
    total: days.length,
  };
}
