import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { ads, dailyAdStats, ledgerEntries, publishers, type Database } from '@helium/db';
import { microsToEuros, type Micros } from '@helium/domain';
import { shiftDay } from '@helium/domain/activity';
import { ctrPct, percentOf } from '@helium/domain/admin-activity';
import { formatDate, type Locale } from '@helium/domain/format';
import type { TPublisherStats, TStatsDay } from '@helium/contracts';
import { notFound } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';
import { adMediaUrls } from '../../infra/media-storage.ts';
import { utcDay } from '../delivery/visitor.ts';
import { DAY_CLOSE_GRACE_MS } from '../revenue-ledger/daily-ledger.ts';

/**
 * The publisher's Stats (specification 02, sections 2.6, 3 and 7): one table per closed UTC day, newest first, of
 * the ads shown in its newsletter (owl) and on its site (web), from `daily_ad_stats`.
 *
 * - The days are the closed ones (a day closes 5 minutes after its midnight UTC, `DAY_CLOSE_GRACE_MS`) of the
 *   last `STATS_DAYS` days; today, still moving, is left to the Performance screen. A day is listed when it has
 *   validated impressions or publisher revenue, the rule by which the daily revenue ledger posts a day, so every
 *   listed day has its revenue line in Accounting (posted by the job's next run, within 5 minutes of the close)
 *   and its `totalRevenue` is that line's amount: both are the sum of the day's `publisher_revenue` (a posted
 *   day's summaries are final: set-asides skip it).
 * - `totalRevenues` is the Accounting screen's total revenues: the sum of the publisher's `revenue` entries in
 *   `ledger_entries`, every posted day since the start (not only the days listed), without today's revenue, which
 *   is posted once the day is closed.
 */

/** How far back the Stats screen goes: the last 90 days (older days stay in Accounting's revenue lines). */
export const STATS_DAYS = 90;

/** The figures of one ad on one day, in micro-euros; a web ad's per device, a newsletter's opens on desktop. */
export interface StatsAdFigures {
  adId: number;
  channel: 'owl' | 'web';
  desktopImpressions: number;
  mobileImpressions: number;
  desktopClicks: number;
  mobileClicks: number;
  publisherRevenue: Micros;
}

export interface StatsDayFigures {
  /** YYYY-MM-DD (UTC). */
  day: string;
  impressions: number;
  /** The sum of the day's publisher revenue: the amount of the day's revenue entry in the ledger. */
  publisherRevenue: Micros;
  ads: StatsAdFigures[];
}

/** The orders the screen may ask for the ads of a day (`sortBy`); by impressions otherwise. */
const AD_ORDERS = {
  impressions: (ad: StatsAdFigures) => ad.desktopImpressions + ad.mobileImpressions,
  clicks: (ad: StatsAdFigures) => ad.desktopClicks + ad.mobileClicks,
  ctr: (ad: StatsAdFigures) => ctrPct(ad.desktopImpressions + ad.mobileImpressions, ad.desktopClicks + ad.mobileClicks),
  publisherRevenue: (ad: StatsAdFigures) => ad.publisherRevenue,
} as const;
type AdOrder = keyof typeof AD_ORDERS;

function adOrder(sortBy: string | undefined): AdOrder {
  return sortBy !== undefined && Object.hasOwn(AD_ORDERS, sortBy) ? (sortBy as AdOrder) : 'impressions';
}

/** The publisher's closed days of the last `STATS_DAYS` days, newest first, with their ads' figures. */
export async function publisherStatsDays(
  db: Database,
  publisherId: number,
  now: Date,
  sortBy?: string,
): Promise<StatsDayFigures[]> {
  // As DailyRevenueLedger.closedBefore: days before this one are closed (final, and posted in the ledger).
  const closedBefore = utcDay(new Date(now.getTime() - DAY_CLOSE_GRACE_MS));
  const rows = await db
    .select({
      day: dailyAdStats.day,
      adId: dailyAdStats.adId,
      channel: dailyAdStats.channel,
      device: dailyAdStats.device,
      impressions: sql<number>`sum(${dailyAdStats.impressions})::int`,
      clicks: sql<number>`sum(${dailyAdStats.clicks})::int`,
      publisherRevenue: sql<number | string>`sum(${dailyAdStats.publisherRevenue})::bigint`,
    })
    .from(dailyAdStats)
    .where(
      and(
        eq(dailyAdStats.publisherId, publisherId),
        gte(dailyAdStats.day, shiftDay(closedBefore, -STATS_DAYS)),
        lt(dailyAdStats.day, closedBefore),
      ),
    )
    .groupBy(dailyAdStats.day, dailyAdStats.adId, dailyAdStats.channel, dailyAdStats.device);

  const days = new Map<string, StatsDayFigures>();
  const adsOfDay = new Map<string, StatsAdFigures>();
  for (const row of rows) {
    const impressions = Number(row.impressions);
    const clicks = Number(row.clicks);
    const revenue = Number(row.publisherRevenue);
    let day = days.get(row.day);
    if (!day) days.set(row.day, (day = { day: row.day, impressions: 0, publisherRevenue: 0, ads: [] }));
    day.impressions += impressions;
    day.publisherRevenue += revenue;
    // An ad served but neither viewed nor clicked that day is no line of the table.
    if (impressions === 0 && clicks === 0 && revenue === 0) continue;
    const key = `${row.day}|${row.adId}|${row.channel}`;
    let ad = adsOfDay.get(key);
    if (!ad) {
      ad = {
        adId: row.adId,
        channel: row.channel,
        desktopImpressions: 0,
        mobileImpressions: 0,
        desktopClicks: 0,
        mobileClicks: 0,
        publisherRevenue: 0,
      };
      adsOfDay.set(key, ad);
      day.ads.push(ad);
    }
    if (row.device === 'mobile') {
      ad.mobileImpressions += impressions;
      ad.mobileClicks += clicks;
    } else {
      ad.desktopImpressions += impressions;
      ad.desktopClicks += clicks;
    }
    ad.publisherRevenue += revenue;
  }

  const order = AD_ORDERS[adOrder(sortBy)];
  return (
    [...days.values()]
      // The daily revenue ledger's rule for a day that gets a revenue entry.
      .filter((day) => day.impressions > 0 || day.publisherRevenue !== 0)
      .sort((a, b) => b.day.localeCompare(a.day))
      .map((day) => ({ ...day, ads: day.ads.sort((a, b) => order(b) - order(a) || a.adId - b.adId) }))
  );
}

/** The sum of the publisher's revenue entries in the ledger (Accounting's total revenues), in micro-euros. */
export async function publisherTotalRevenues(db: Database, publisherId: number): Promise<Micros> {
  const [row] = await db
    .select({ total: sql<number | string>`coalesce(sum(${ledgerEntries.amount}), 0)::bigint` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.accountType, 'publisher'),
        eq(ledgerEntries.accountId, publisherId),
        eq(ledgerEntries.kind, 'revenue'),
      ),
    );
  return Number(row?.total ?? 0);
}

export interface PublisherStatsOptions {
  locale: Locale;
  now: Date;
  hashIds: HashIds;
  sortBy?: string;
}

/** POST /api/publisher/get-stats for the publisher in use. */
export async function publisherStats(
  db: Database,
  publisherId: number,
  options: PublisherStatsOptions,
): Promise<TPublisherStats> {
  const [publisher] = await db
    .select({ id: publishers.id, brand: publishers.brand, isWeb: publishers.isWeb, isOwl: publishers.isOwl })
    .from(publishers)
    .where(eq(publishers.id, publisherId))
    .limit(1);
  if (!publisher) throw notFound();
  const [days, totalRevenues] = await Promise.all([
    publisherStatsDays(db, publisher.id, options.now, options.sortBy),
    publisherTotalRevenues(db, publisher.id),
  ]);
  const adIds = [...new Set(days.flatMap((day) => day.ads.map((ad) => ad.adId)))];
  // Deleted ads too: what they earned stays in the days they were shown.
  const adRows = adIds.length > 0 ? await db.select().from(ads).where(inArray(ads.id, adIds)) : [];
  const media = new Map(
    adRows.map((ad) => [
      ad.id,
      {
        id: ad.id,
        hashId: options.hashIds.encodeAd(ad.id),
        type: ad.type,
        ...adMediaUrls(ad),
        link: ad.link,
        format_id: ad.formatId,
      },
    ]),
  );

  const newSummaryDays = days.map((day): TStatsDay => {
    const lines = day.ads.flatMap((figures) => {
      const ad = media.get(figures.adId);
      if (!ad) return [];
      const impressions = figures.desktopImpressions + figures.mobileImpressions;
      const clicks = figures.desktopClicks + figures.mobileClicks;
      const line = {
        ad,
        impressions,
        clicks,
        ctr: ctrPct(impressions, clicks),
        publisherRevenue: microsToEuros(figures.publisherRevenue),
      };
      return [{ figures, line, impressions, clicks }];
    });
    return {
      day: day.day,
      dayStr: formatDate(day.day, options.locale),
      totalImpressions: day.impressions,
      totalRevenue: microsToEuros(day.publisherRevenue),
      owlAds: lines.filter(({ figures }) => figures.channel === 'owl').map(({ line }) => line),
      webAds: lines
        .filter(({ figures }) => figures.channel === 'web')
        .map(({ figures, line, impressions, clicks }) => ({
          ...line,
          desktopImpressions: figures.desktopImpressions,
          mobileImpressions: figures.mobileImpressions,
          desktopClicks: figures.desktopClicks,
          mobileClicks: figures.mobileClicks,
          desktopImpressionsPct: percentOf(figures.desktopImpressions, impressions),
          mobileImpressionsPct: percentOf(figures.mobileImpressions, impressions),
          desktopClicksPct: percentOf(figures.desktopClicks, clicks),
          mobileClicksPct: percentOf(figures.mobileClicks, clicks),
        })),
    };
  });

  return {
    isAnySummaries: newSummaryDays.length > 0,
    newSummaryDays,
    totalRevenues: microsToEuros(totalRevenues),
    publisher,
  };
}
