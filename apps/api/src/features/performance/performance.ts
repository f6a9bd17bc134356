import { and, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import {
  PERFORMANCE_HISTORY_DAYS,
  type TGetPerformanceHistoryResponse,
  type TGetRealtimePerformanceResponse,
  type TPerformanceHistoryRow,
} from '@helium/contracts';
import { DAY_MS, MINUTE_MS, utcDayNumber } from '@helium/domain';
import { shiftDay } from '@helium/domain/activity';
import { isoDay } from '@helium/domain/format';
import { dailyPublisherStats, publishers, realtimeCounters, type Database } from '@helium/db';
import { notFound } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';

/**
 * The dials and today's count (docs/server-behaviour.md, 'Publisher performance'): the latest complete UTC
 * minute's counters (0 when that minute had no traffic), the largest per-minute counts of the complete minutes
 * of the last 24 hours (at least 1, so a dial always has a scale), and today's validated impressions.
 */
export async function realtimePerformance(
  db: Database,
  publisherId: number,
  now: Date,
): Promise<TGetRealtimePerformanceResponse> {
  const currentMinute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const latestComplete = new Date(currentMinute.getTime() - MINUTE_MS);
  const since = new Date(currentMinute.getTime() - DAY_MS);
  const [[latest], [maxima], [today]] = await Promise.all([
    db
      .select()
      .from(realtimeCounters)
      .where(and(eq(realtimeCounters.publisherId, publisherId), eq(realtimeCounters.minute, latestComplete)))
      .limit(1),
    db
      .select({
        pageviewsDesktop: sql<number | string>`coalesce(max(${realtimeCounters.pageviewsDesktop}), 0)`,
        pageviewsMobile: sql<number | string>`coalesce(max(${realtimeCounters.pageviewsMobile}), 0)`,
        impressionsDesktop: sql<number | string>`coalesce(max(${realtimeCounters.impressionsDesktop}), 0)`,
        impressionsMobile: sql<number | string>`coalesce(max(${realtimeCounters.impressionsMobile}), 0)`,
      })
      .from(realtimeCounters)
      .where(
        and(
          eq(realtimeCounters.publisherId, publisherId),
          gte(realtimeCounters.minute, since),
          lt(realtimeCounters.minute, currentMinute),
        ),
      ),
    db
      .select({ impressions: sql<number | string>`coalesce(sum(${dailyPublisherStats.impressions}), 0)` })
      .from(dailyPublisherStats)
      .where(and(eq(dailyPublisherStats.publisherId, publisherId), eq(dailyPublisherStats.day, isoDay(now)))),
  ]);
  const atLeastOne = (value: number | string | undefined) => Math.max(1, Number(value ?? 0));
  return {
    pageviewsDesktopPerMinute: latest?.pageviewsDesktop ?? 0,
    pageviewsMobilePerMinute: latest?.pageviewsMobile ?? 0,
    impressionsDesktopPerMinute: latest?.impressionsDesktop ?? 0,
    impressionsMobilePerMinute: latest?.impressionsMobile ?? 0,
    pageviewsDesktopPerMinuteMax: atLeastOne(maxima?.pageviewsDesktop),
    pageviewsMobilePerMinuteMax: atLeastOne(maxima?.pageviewsMobile),
    impressionsDesktopPerMinuteMax: atLeastOne(maxima?.impressionsDesktop),
    impressionsMobilePerMinuteMax: atLeastOne(maxima?.impressionsMobile),
    publisherCurrentImpressionsToday: Number(today?.impressions ?? 0),
  };
}

/**
 * The daily history (docs/server-behaviour.md, 'Publisher performance'): one row per day with pageviews or
 * validated impressions among the 30 complete UTC days before today, newest first.
 */
export async function performanceHistory(
  db: Database,
  hashIds: HashIds,
  publisherId: number,
  now: Date,
): Promise<TGetPerformanceHistoryResponse> {
  const [publisher] = await db
    .select({ id: publishers.id, isInstalled: publishers.isInstalled })
    .from(publishers)
    .where(eq(publishers.id, publisherId))
    .limit(1);
  if (!publisher) throw notFound();
  const stats = await db
    .select({
      day: dailyPublisherStats.day,
      device: dailyPublisherStats.device,
      pageviews: dailyPublisherStats.pageviews,
      impressions: dailyPublisherStats.impressions,
    })
    .from(dailyPublisherStats)
    .where(
      and(
        eq(dailyPublisherStats.publisherId, publisher.id),
        gte(dailyPublisherStats.day, shiftDay(isoDay(now), -PERFORMANCE_HISTORY_DAYS)),
        lte(dailyPublisherStats.day, isoDay(now)),
      ),
    )
    .orderBy(desc(dailyPublisherStats.day));

  // Today's figures make the history start (a new publisher's first day shows the live dials), but the rows
  // are whole days: yesterday and the 29 before.
  const today = isoDay(now);
  const isAnyToday = stats.some((stat) => stat.day === today && stat.pageviews + stat.impressions > 0);
  const byDay = new Map<string, TPerformanceHistoryRow>();
  for (const stat of stats) {
    if (stat.day === today) continue;
    let row = byDay.get(stat.day);
    if (!row) {
      row = {
        id: utcDayNumber(Date.parse(`${stat.day}T00:00:00Z`)),
        day: stat.day,
        perfs_pageviews_desktop: 0,
        perfs_pageviews_mobile: 0,
        perfs_validated_impressions_desktop: 0,
        perfs_validated_impressions_mobile: 0,
      };
      byDay.set(stat.day, row);
    }
    if (stat.device === 'desktop') {
      row.perfs_pageviews_desktop += stat.pageviews;
      row.perfs_validated_impressions_desktop += stat.impressions;
    } else {
      row.perfs_pageviews_mobile += stat.pageviews;
      row.perfs_validated_impressions_mobile += stat.impressions;
    }
  }
  const rows = [...byDay.values()]
    .filter(
      (row) =>
        row.perfs_pageviews_desktop +
          row.perfs_pageviews_mobile +
          row.perfs_validated_impressions_desktop +
          row.perfs_validated_impressions_mobile >
        0,
    )
    .sort((a, b) => b.id - a.id);
  return {
    isAnyPerformanceHistory: rows.length > 0 || isAnyToday,
    publisherPerformanceHistory: rows,
    publisherDailyPageviewsMax: Math.max(
      0,
      ...rows.map((row) => Math.max(row.perfs_pageviews_desktop, row.perfs_pageviews_mobile)),
    ),
    hash: hashIds.encodePublisher(publisher.id),
    publisherIsInstalled: publisher.isInstalled,
  };
}
