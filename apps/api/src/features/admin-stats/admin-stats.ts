import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import {
  ads,
  dailyAdStats,
  dailyPublisherStats,
  dailyUrlStats,
  ledgerBalances,
  owlIssueAds,
  publishers,
  type Database,
} from '@helium/db';
import type { TAdminStats, TAdminStatsPublisher } from '@helium/contracts';
import { microsToCentEuros, type CtrThresholds, type Micros } from '@helium/domain';
import { shiftDay } from '@helium/domain/activity';
import { ctrPct, percentOf } from '@helium/domain/admin-activity';
import {
  DEFAULT_STATS_DAYS_AVERAGED,
  missingValidatedPct,
  MONTHLY_PROJECTION_DAYS,
  partsToEuros,
  revenueParts,
  scaleParts,
  validatedPct,
  type DeliveredMoney,
  type RevenueParts,
} from '@helium/domain/admin-stats';
import { formatDate, formatMicros, formatNumber, formatPercent, isoDay, type Locale } from '@helium/domain/format';
import type { HashIds } from '../../infra/hash-ids.ts';
import { adMediaUrls } from '../../infra/media-storage.ts';
import type { NetworkSettings } from '../network-settings/network-settings.ts';

/*
 * Admin Stats, the admin's home (specification 01, sections 2, 3 and 9; docs/decisions.md section 6; issue 24).
 *
 * - The window is the last N closed UTC days, yesterday included (N: the network setting `statsDaysAveraged`,
 *   7 by default). Figures are daily averages over it; `revenue.yesterday` is yesterday's.
 * - Money comes from `daily_ad_stats`: h = company revenue - trial costs, p = publisher revenue, s = sales-rep
 *   revenue, and h + p + s = cost, what advertisers were charged, to the micro-euro (and to the cent once
 *   rounded, `partsToEuros`).
 * - Every query reads the window's days only (the summaries' primary keys start with the day); the balances are
 *   the ones the database keeps per account (`ledger_balances`), so a year of history for 1,000 publishers answers
 *   in a fraction of a second (docs/performance.md, "Admin Stats").
 */

/** How many most frequent URLs per publisher and device the checkbox shows. */
export const FREQUENT_URLS = 5;

export interface AdminStatsOptions {
  now: Date;
  locale: Locale;
  settings: NetworkSettings;
  /** The network's CTR percentiles (the delivery engine's, last 7 days); null while no ad qualifies. */
  ctrThresholds: CtrThresholds | null;
  hashIds: HashIds;
  withUrls: boolean;
}

/** Days averaged: the network setting "days averaged in Stats" (7 by default), kept within a year. */
export function statsDaysAveraged(settings: NetworkSettings): number {
  const value = settings.statsDaysAveraged;
  return Number.isInteger(value) && value >= 1 ? Math.min(value, 366) : DEFAULT_STATS_DAYS_AVERAGED;
}

const money = {
  cost: sql<string>`sum(${dailyAdStats.cost})`.mapWith(Number),
  publisherRevenue: sql<string>`sum(${dailyAdStats.publisherRevenue})`.mapWith(Number),
  salesRepRevenue: sql<string>`sum(${dailyAdStats.salesRepRevenue})`.mapWith(Number),
  companyRevenue: sql<string>`sum(${dailyAdStats.companyRevenue})`.mapWith(Number),
  trialCost: sql<string>`sum(${dailyAdStats.trialCost})`.mapWith(Number),
};

const NO_MONEY: DeliveredMoney = { cost: 0, publisherRevenue: 0, salesRepRevenue: 0, companyRevenue: 0, trialCost: 0 };

function addMoney(a: DeliveredMoney, b: DeliveredMoney): DeliveredMoney {
  return {
    cost: a.cost + b.cost,
    publisherRevenue: a.publisherRevenue + b.publisherRevenue,
    salesRepRevenue: a.salesRepRevenue + b.salesRepRevenue,
    companyRevenue: a.companyRevenue + b.companyRevenue,
    trialCost: a.trialCost + b.trialCost,
  };
}

/** What the page shows of each publisher (a year of Stats reads 1,000 of them: no column more). */
const PUBLISHER_COLUMNS = {
  id: publishers.id,
  brand: publishers.brand,
  isWeb: publishers.isWeb,
  isOwl: publishers.isOwl,
  isInstalled: publishers.isInstalled,
  minBalanceForPayout: publishers.minBalanceForPayout,
};
type PublisherRow = { [Key in keyof typeof PUBLISHER_COLUMNS]: (typeof publishers.$inferSelect)[Key] };

interface Counts {
  pageviews: number;
  impressions: number;
  clicks: number;
}

export async function adminStats(db: Database, options: AdminStatsOptions): Promise<TAdminStats> {
  const days = statsDaysAveraged(options.settings);
  const lastDay = shiftDay(isoDay(options.now), -1);
  const firstDay = shiftDay(lastDay, -(days - 1));
  const inWindow = <T extends typeof dailyAdStats.day | typeof dailyPublisherStats.day | typeof dailyUrlStats.day>(
    column: T,
  ) => and(gte(column, firstDay), lte(column, lastDay));
  const { locale } = options;

  // Two passes over the window's ad summaries (cheaper than one grouped by day and publisher): the money per day,
  // and the figures per publisher and channel, newsletters per ad.
  const owlAdId = sql<number>`case when ${dailyAdStats.channel} = 'owl' then ${dailyAdStats.adId} else 0 end`;
  const [dayRows, publisherAdRows, trafficRows, balanceRows, publisherRows] = await Promise.all([
    db
      .select({ day: dailyAdStats.day, ...money })
      .from(dailyAdStats)
      .where(inWindow(dailyAdStats.day))
      .groupBy(dailyAdStats.day),
    db
      .select({
        publisherId: dailyAdStats.publisherId,
        channel: dailyAdStats.channel,
        adId: owlAdId.mapWith(Number),
        impressions: sql<string>`sum(${dailyAdStats.impressions})`.mapWith(Number),
        clicks: sql<string>`sum(${dailyAdStats.clicks})`.mapWith(Number),
        cost: money.cost,
        publisherRevenue: money.publisherRevenue,
      })
      .from(dailyAdStats)
      .where(inWindow(dailyAdStats.day))
      .groupBy(dailyAdStats.publisherId, dailyAdStats.channel, owlAdId),
    db
      .select({
        publisherId: dailyPublisherStats.publisherId,
        device: dailyPublisherStats.device,
        pageviews: sql<string>`sum(${dailyPublisherStats.pageviews})`.mapWith(Number),
        impressions: sql<string>`sum(${dailyPublisherStats.impressions})`.mapWith(Number),
        clicks: sql<string>`sum(${dailyPublisherStats.clicks})`.mapWith(Number),
      })
      .from(dailyPublisherStats)
      .where(inWindow(dailyPublisherStats.day))
      .groupBy(dailyPublisherStats.publisherId, dailyPublisherStats.device),
    // The balances the database keeps with every ledger entry (migration 0018), not a sum over the whole ledger.
    db
      .select({ publisherId: ledgerBalances.accountId, balance: ledgerBalances.balance })
      .from(ledgerBalances)
      .where(eq(ledgerBalances.accountType, 'publisher')),
    db.select(PUBLISHER_COLUMNS).from(publishers).orderBy(publishers.brand, publishers.id),
  ]);

  const byDay = new Map<string, DeliveredMoney>(dayRows.map((row) => [row.day, row]));
  const webRevenue = new Map<number, Micros>();
  const owlCounts = new Map<number, { impressions: number; clicks: number; publisherRevenue: Micros }>();
  let impressionsAll = 0;
  let clicksAll = 0;
  for (const row of publisherAdRows) {
    impressionsAll += row.impressions;
    clicksAll += row.clicks;
    if (row.channel === 'owl') {
      const owl = owlCounts.get(row.publisherId) ?? { impressions: 0, clicks: 0, publisherRevenue: 0 };
      owlCounts.set(row.publisherId, {
        impressions: owl.impressions + row.impressions,
        clicks: owl.clicks + row.clicks,
        publisherRevenue: owl.publisherRevenue + row.publisherRevenue,
      });
    } else webRevenue.set(row.publisherId, (webRevenue.get(row.publisherId) ?? 0) + row.publisherRevenue);
  }

  const traffic = new Map<string, Counts>();
  for (const row of trafficRows) traffic.set(`${row.publisherId}:${row.device}`, row);
  const balances = new Map(balanceRows.map((row) => [row.publisherId, row.balance]));
  const urls = options.withUrls ? await frequentUrls(db, firstDay, lastDay) : new Map<string, FrequentUrl[]>();

  const average = (count: number) => Math.round(count / days);
  const averageEuros = (micros: Micros) => microsToCentEuros(Math.floor(micros / days));
  const money$ = (micros: Micros) => formatMicros(micros, { locale });

  const totals = {
    pageviewsDesktop: 0,
    pageviewsMobile: 0,
    impressionsDesktop: 0,
    impressionsMobile: 0,
    clicksDesktop: 0,
    clicksMobile: 0,
    revenues: 0,
    projectedMonthlyRevenues: 0,
    balance: 0,
  };
  let revenueMicrosWeb = 0;
  let balanceMicrosWeb = 0;
  let maxMobileImpressions = 0;
  const statsPublishers: TAdminStatsPublisher[] = publisherRows.map((publisher) => {
    const desktop = traffic.get(`${publisher.id}:desktop`) ?? { pageviews: 0, impressions: 0, clicks: 0 };
    const mobile = traffic.get(`${publisher.id}:mobile`) ?? { pageviews: 0, impressions: 0, clicks: 0 };
    const revenueMicros = (webRevenue.get(publisher.id) ?? 0) + (owlCounts.get(publisher.id)?.publisherRevenue ?? 0);
    const balance = balances.get(publisher.id) ?? 0;
    const minimum = publisher.minBalanceForPayout ?? options.settings.minBalanceForPayout;
    const owl = owlCounts.get(publisher.id);
    const impressions = desktop.impressions + mobile.impressions;
    const clicks = desktop.clicks + mobile.clicks;
    if (publisher.isWeb) {
      totals.pageviewsDesktop += average(desktop.pageviews);
      totals.pageviewsMobile += average(mobile.pageviews);
      totals.impressionsDesktop += average(desktop.impressions);
      totals.impressionsMobile += average(mobile.impressions);
      totals.clicksDesktop += average(desktop.clicks);
      totals.clicksMobile += average(mobile.clicks);
      revenueMicrosWeb += webRevenue.get(publisher.id) ?? 0;
      balanceMicrosWeb += balance;
      maxMobileImpressions = Math.max(maxMobileImpressions, average(mobile.impressions));
    }
    return {
      id: publisher.id,
      brand: publisher.brand,
      is_web: publisher.isWeb,
      is_owl: publisher.isOwl,
      is_installed: publisher.isInstalled,
      allValidatedImpressions: average(impressions),
      clicks: average(clicks),
      ctrStr: formatPercent(ctrPct(impressions, clicks), locale, 2),
      revenues: averageEuros(revenueMicros),
      projectedMonthlyRevenues: microsToCentEuros(Math.floor((revenueMicros * MONTHLY_PROJECTION_DAYS) / days)),
      balance: microsToCentEuros(balance),
      min_balance_for_payout: microsToCentEuros(minimum),
      balanceStr: money$(balance),
      minBalanceForPayoutStr: money$(minimum),
      isBalanceOverMinimum: balance > minimum,
      averageOwlSummariesUs: {
        impressions: average(owl?.impressions ?? 0),
        clicks: average(owl?.clicks ?? 0),
        ctr: formatPercent(ctrPct(owl?.impressions ?? 0, owl?.clicks ?? 0), locale, 2),
        revenues: averageEuros(owl?.publisherRevenue ?? 0),
      },
      performance: {
        perfs_pageviews_desktop: average(desktop.pageviews),
        perfs_pageviews_mobile: average(mobile.pageviews),
        perfs_validated_impressions_desktop: average(desktop.impressions),
        perfs_validated_impressions_mobile: average(mobile.impressions),
        perfs_clicks_desktop: average(desktop.clicks),
        perfs_clicks_mobile: average(mobile.clicks),
        validatedDesktopPct: validatedPct(desktop.pageviews, desktop.impressions),
        validatedMobilePct: validatedPct(mobile.pageviews, mobile.impressions),
        missingValidatedDesktopPct: missingValidatedPct(desktop.pageviews, desktop.impressions),
        missingValidatedMobilePct: missingValidatedPct(mobile.pageviews, mobile.impressions),
        mostFrequentUrlsDesktop: urls.get(`${publisher.id}:desktop`) ?? [],
        mostFrequentUrlsMobile: urls.get(`${publisher.id}:mobile`) ?? [],
      },
    };
  });
  totals.revenues = averageEuros(revenueMicrosWeb);
  totals.projectedMonthlyRevenues = microsToCentEuros(Math.floor((revenueMicrosWeb * MONTHLY_PROJECTION_DAYS) / days));
  totals.balance = microsToCentEuros(balanceMicrosWeb);

  // Revenue: every day of the window (an empty day counts as 0 in the average), yesterday, and the projection.
  const windowDays = Array.from({ length: days }, (_, index) => shiftDay(firstDay, index));
  let sum: DeliveredMoney = NO_MONEY;
  for (const day of windowDays) sum = addMoney(sum, byDay.get(day) ?? NO_MONEY);
  const sumParts = revenueParts(sum);
  const dailyParts: RevenueParts = scaleParts(sumParts, 1, days);
  const daily = partsToEuros(dailyParts);
  const pageviewsAll = [...traffic.values()].reduce((total, row) => total + row.pageviews, 0);
  const publisherImpressions = [...traffic.values()].reduce((total, row) => total + row.impressions, 0);
  const owlTotals = [...owlCounts.values()].reduce(
    (total, row) => ({ impressions: total.impressions + row.impressions, clicks: total.clicks + row.clicks }),
    { impressions: 0, clicks: 0 },
  );
  const thresholds = options.ctrThresholds;

  return {
    revenue: {
      yesterday: partsToEuros(revenueParts(byDay.get(lastDay) ?? NO_MONEY)),
      projectedMonthly: partsToEuros(scaleParts(sumParts, MONTHLY_PROJECTION_DAYS, days)),
      trialCosts: averageEuros(sum.trialCost),
    },
    buyCpmStr: money$(impressionsAll > 0 ? Math.round((sum.cost * 1000) / impressionsAll) : 0),
    buyCpcStr: money$(clicksAll > 0 ? Math.round(sum.cost / clicksAll) : 0),
    ctrTotalStr: formatPercent(ctrPct(impressionsAll, clicksAll), locale, 2),
    ctrLowerStr: thresholds ? formatPercent(thresholds.lower * 100, locale, 2) : '-',
    ctrHigherStr: thresholds ? formatPercent(thresholds.higher * 100, locale, 2) : '-',
    trialCosts: averageEuros(sum.trialCost),
    totalRev: daily.total,
    heliumRev: daily.h,
    publishersRev: daily.p,
    salesRepsRev: daily.s,
    publishers: statsPublishers,
    inventory: {
      pageviewsDesktop: totals.pageviewsDesktop,
      pageviewsMobile: totals.pageviewsMobile,
      impressionsDesktop: totals.impressionsDesktop,
      impressionsMobile: totals.impressionsMobile,
    },
    owlStats: await owlAdStats(
      db,
      publisherAdRows.filter((row) => row.channel === 'owl'),
      firstDay,
      options,
      publisherRows,
    ),
    revenues: windowDays.map((day) => {
      const dayMoney = byDay.get(day) ?? NO_MONEY;
      const parts = partsToEuros(revenueParts(dayMoney));
      return {
        day,
        dayStr: formatDate(day, locale),
        charged: parts.total,
        parts,
        trialCosts: microsToCentEuros(dayMoney.trialCost),
      };
    }),
    allPublishersMaxMobileImpressions: maxMobileImpressions,
    allPublishersImpressions: average(publisherImpressions),
    allPublishersClicks: average([...traffic.values()].reduce((total, row) => total + row.clicks, 0)),
    allPublishersCtrStr: formatPercent(
      ctrPct(
        publisherImpressions,
        [...traffic.values()].reduce((total, row) => total + row.clicks, 0),
      ),
      locale,
      2,
    ),
    allOwlPublishersImpressionsStr: formatNumber(average(owlTotals.impressions), locale),
    allOwlPublishersClicksStr: formatNumber(average(owlTotals.clicks), locale),
    allOwlPublishersCtrStr: formatPercent(ctrPct(owlTotals.impressions, owlTotals.clicks), locale, 2),
    allPublishersPageviews: average(pageviewsAll),
    allPublishersFailedImpressions: Math.max(0, average(pageviewsAll) - average(publisherImpressions)),
    totals,
    BACK_DAYS_TO_ANALYZE: days,
  };
}

type FrequentUrl = TAdminStatsPublisher['performance']['mostFrequentUrlsDesktop'][number];

/** The checkbox's lists: per publisher and device, the pages with the most pageviews over the window. */
async function frequentUrls(db: Database, firstDay: string, lastDay: string): Promise<Map<string, FrequentUrl[]>> {
  const result = (await db.execute(sql`
    select publisher_id, device, url, pageviews, impressions from (
      select publisher_id, device, url,
        sum(pageviews) filter (where ad_id = 0) as pageviews,
        sum(impressions) filter (where ad_id <> 0) as impressions,
        row_number() over (
          partition by publisher_id, device order by sum(pageviews) filter (where ad_id = 0) desc nulls last, url
        ) as rank
      from ${dailyUrlStats}
      where day >= ${firstDay} and day <= ${lastDay}
      group by publisher_id, device, url
    ) ranked
    where rank <= ${FREQUENT_URLS}
    order by publisher_id, device, rank`)) as {
    rows: Array<{ publisher_id: number; device: string; url: string; pageviews: string; impressions: string }>;
  };
  const lists = new Map<string, FrequentUrl[]>();
  for (const row of result.rows) {
    const key = `${row.publisher_id}:${row.device}`;
    const pageviews = Number(row.pageviews ?? 0);
    const impressions = Number(row.impressions ?? 0);
    lists.set(key, [
      ...(lists.get(key) ?? []),
      {
        href: row.url,
        pageviews_count: pageviews,
        impressions_count: impressions,
        difference: pageviews - impressions,
      },
    ]);
  }
  return lists;
}

/** Newsletter figures per ad ("key": the ad's hash id), a line per publisher, over the window (daily averages). */
async function owlAdStats(
  db: Database,
  rows: Array<{
    adId: number;
    publisherId: number;
    impressions: number;
    clicks: number;
    cost: Micros;
    publisherRevenue: Micros;
  }>,
  firstDay: string,
  options: AdminStatsOptions,
  publisherRows: PublisherRow[],
): Promise<TAdminStats['owlStats']> {
  if (rows.length === 0) return [];
  const adIds = [...new Set(rows.map((row) => row.adId))];
  const adRows = await db.select().from(ads).where(inArray(ads.id, adIds));
  const banners = await db
    .select({
      adId: owlIssueAds.adId,
      publisherId: owlIssueAds.publisherId,
      bannerIndex: sql<number>`min(${owlIssueAds.bannerIndex})`.mapWith(Number),
    })
    .from(owlIssueAds)
    .where(and(inArray(owlIssueAds.adId, adIds), gte(owlIssueAds.createdAt, new Date(`${firstDay}T00:00:00Z`))))
    .groupBy(owlIssueAds.adId, owlIssueAds.publisherId);
  const bannerOf = new Map(banners.map((row) => [`${row.adId}:${row.publisherId}`, row.bannerIndex]));
  const brandOf = new Map(publisherRows.map((publisher) => [publisher.id, publisher.brand]));
  const publisherOwlImpressions = new Map<number, number>();
  for (const row of rows)
    publisherOwlImpressions.set(row.publisherId, (publisherOwlImpressions.get(row.publisherId) ?? 0) + row.impressions);
  const days = statsDaysAveraged(options.settings);
  const { locale } = options;
  return adRows
    .sort((a, b) => a.id - b.id)
    .map((ad) => ({
      key: options.hashIds.encodeAd(ad.id),
      ad: {
        id: ad.id,
        hashId: options.hashIds.encodeAd(ad.id),
        type: ad.type,
        ...adMediaUrls(ad),
        link: ad.link,
        format_id: ad.formatId,
      },
      lines: rows
        .filter((row) => row.adId === ad.id)
        .map((row) => ({
          publisherBrand: brandOf.get(row.publisherId) ?? '',
          bannerIndex: bannerOf.get(`${row.adId}:${row.publisherId}`) ?? null,
          impressions: Math.round(row.impressions / days),
          clicks: Math.round(row.clicks / days),
          ctrStr: formatPercent(ctrPct(row.impressions, row.clicks), locale, 2),
          sharePct: percentOf(row.impressions, publisherOwlImpressions.get(row.publisherId) ?? 0),
          publisherRevenue: microsToCentEuros(Math.floor(row.publisherRevenue / days)),
          providerRevenue: microsToCentEuros(Math.floor((row.cost - row.publisherRevenue) / days)),
        })),
    }));
}
