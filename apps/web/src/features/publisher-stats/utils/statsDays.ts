import type { TStatsDay } from '@helium/contracts';

/** The days newest first (`day` is YYYY-MM-DD), whatever order they came in. */
export function newestFirst(days: readonly TStatsDay[]): TStatsDay[] {
  return [...days].sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
}

/** Whether a day has anything to show in a table: the newsletter ads, the web ads. */
export function tablesOf(day: TStatsDay): { owl: boolean; web: boolean } {
  return { owl: day.owlAds.length > 0, web: day.webAds.length > 0 };
}
