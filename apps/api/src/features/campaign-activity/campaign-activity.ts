import { and, asc, eq, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { adPublisherValidations, ads, dailyAdStats, dailyUrlStats, publishers, type Database } from '@helium/db';
import {
  ctrRank,
  isNewsletterFormat,
  isOnRegisteredDomain,
  isPublisherApproved,
  microsToEuros,
  pageAddress,
  sharePct,
} from '@helium/domain';
import {
  addCounts,
  isAdShowing,
  isCampaignFinished,
  metricLine,
  normaliseRange,
  NO_COUNTS,
  remainingCreditsEuros,
  remainingPct,
} from '@helium/domain/activity';
import { formatDate, formatNumber, isoDay, type Locale } from '@helium/domain/format';
import type { TCampaignAd, TCampaignEx, TPublisherStatLine } from '@helium/contracts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';
import { geolocationSummary } from '../locations/location-catalogue.ts';

import {
  publisherValidation,
  switchedOffPublishers,
  weekCtr,
  counts,
  toCounts,
  type ActivityHashIds,
  type CampaignRow,
} from './campaign-reads.ts';
import { advertiserTrafficShares } from './traffic-shares.ts';
import { advertiserCampaigns } from '../ads/ads.ts';
import { adMediaUrls } from '../../infra/media-storage.ts';

export { findAdvertiserCampaign, type ActivityHashIds, type CampaignRow } from './campaign-reads.ts';

export interface CampaignExOptions {
  doByPublisher: boolean;
  doIncludeRealTimeHits: boolean;
  doByUrl: boolean;
  locale: Locale;
  now: Date;
  hashIds: ActivityHashIds;
  /** What the advertiser's coupon gives, or why it is held (billing/purchase.ts couponMessage): the add-credits modal. */
  couponStr?: string | null;
}

function rangeOf(campaign: CampaignRow): string[] {
  if (!campaign.statsDateFrom) return [];
  if (!campaign.statsDateTo || campaign.statsDateTo === campaign.statsDateFrom) return [campaign.statsDateFrom];
  return [campaign.statsDateFrom, campaign.statsDateTo];
}

function rangeText(range: string[], locale: Locale): string | null {
  const normal = normaliseRange(range);
  if (!normal) return null;
  const from = formatDate(`${normal.from}T00:00:00Z`, locale);
  if (normal.from === normal.to) return from;
  return `${from} – ${formatDate(`${normal.to}T00:00:00Z`, locale)}`;
}

function trialText(campaign: CampaignRow, locale: Locale): string | null {
  if (!campaign.isTrial) return null;
  const remaining = campaign.isCpc ? campaign.remainingClicks : campaign.remainingImpressions;
  const amount = formatNumber(remaining, locale);
  if (locale === 'fr') {
    return campaign.isCpc
      ? `Campagne d'essai : il vous reste ${amount} clics offerts.`
      : `Campagne d'essai : il vous reste ${amount} impressions offertes.`;
  }
  return campaign.isCpc
    ? `Trial campaign: ${amount} free clicks left.`
    : `Trial campaign: ${amount} free impressions left.`;
}

/** The campaignEx of specification 02, section 3, as the Activity screen shows it. */
export async function buildCampaignEx(
  db: Database,
  campaign: CampaignRow,
  options: CampaignExOptions,
): Promise<TCampaignEx> {
  const today = isoDay(options.now);
  const range = rangeOf(campaign);
  const normal = normaliseRange(range);
  const conditions: SQL[] = [eq(dailyAdStats.campaignId, campaign.id)];
  if (normal) conditions.push(gte(dailyAdStats.day, normal.from), lte(dailyAdStats.day, normal.to));
  // Without realtime hits, today's figures (still moving) are left out.
  if (!options.doIncludeRealTimeHits) conditions.push(ne(dailyAdStats.day, today));
  const where = and(...conditions);

  const adRows = await db
    .select()
    .from(ads)
    .where(and(eq(ads.campaignId, campaign.id), isNull(ads.deletedAt), eq(ads.adminValidation, 1)))
    .orderBy(asc(ads.id));
  const adIds = adRows.map((ad) => ad.id);

  const byAdPublisher = await db
    .select({ adId: dailyAdStats.adId, publisherId: dailyAdStats.publisherId, ...counts })
    .from(dailyAdStats)
    .where(where)
    .groupBy(dailyAdStats.adId, dailyAdStats.publisherId);
  const byDay = await db
    .select({ day: dailyAdStats.day, ...counts })
    .from(dailyAdStats)
    .where(where)
    .groupBy(dailyAdStats.day)
    .orderBy(asc(dailyAdStats.day));
  const [lifetime] = await db
    .select({ ...counts })
    .from(dailyAdStats)
    .where(eq(dailyAdStats.campaignId, campaign.id));
  const lifetimeCounts = lifetime ? toCounts(lifetime) : NO_COUNTS;
  // Leads are shown only for campaigns that report them (a conversion pixel or postback); N/A otherwise.
  const tracksLeads = lifetimeCounts.leads > 0;

  const settings = await latestNetworkSettings(db);
  const week = await weekCtr(db, today, settings.minImpressionsForCtrRank);
  const publisherRows = await db.select().from(publishers);
  const publisherById = new Map(publisherRows.map((row) => [row.id, row]));
  const validationRows = adIds.length
    ? await db.select().from(adPublisherValidations).where(inArray(adPublisherValidations.adId, adIds))
    : [];
  const switchedOff = await switchedOffPublishers(db, adIds);
  const nowMs = options.now.getTime();
  const approvedByAd = new Map<number, number[]>();
  for (const row of validationRows) {
    if (!isPublisherApproved(publisherValidation(row), nowMs)) continue;
    const list = approvedByAd.get(row.adId) ?? [];
    list.push(row.publisherId);
    approvedByAd.set(row.adId, list);
  }

  const urlRows = await db
    .select({ publisherId: dailyUrlStats.publisherId, url: sql<string>`min(${dailyUrlStats.url})` })
    .from(dailyUrlStats)
    .where(eq(dailyUrlStats.campaignId, campaign.id))
    .groupBy(dailyUrlStats.publisherId);
  const sampleUrls = new Map(urlRows.map((row) => [String(row.publisherId), row.url]));
  // A page the script reported for that publisher, when it is on the publisher's domain: anyone can report any
  // address to the serving endpoints, and advertisers follow this one.
  const samplePage = (publisherId: number): string | null => {
    const page = pageAddress(sampleUrls.get(String(publisherId)));
    const domain = publisherById.get(publisherId)?.domain ?? null;
    return page && isOnRegisteredDomain(new URL(page).hostname, domain) ? page : null;
  };

  const finished = isCampaignFinished(campaign);
  const liveUrlOf = (approvedIds: readonly number[], off: ReadonlySet<number> | undefined): string | null => {
    for (const publisherId of approvedIds) {
      const publisher = publisherById.get(publisherId);
      if (!publisher?.isWeb || !publisher.isInstalled || !publisher.domain || off?.has(publisherId)) continue;
      return samplePage(publisherId) ?? `https://${publisher.domain}/`;
    }
    return null;
  };
  const remainingMaxBudget = remainingCreditsEuros(campaign);
  const showing = new Map(
    adRows.map((ad) => [
      ad.id,
      isAdShowing({
        isShowing: ad.isShowing,
        approvedPublisherIds: approvedByAd.get(ad.id) ?? [],
        switchedOff: switchedOff.get(ad.id) ?? new Set(),
      }),
    ]),
  );
  const shareByAd = await advertiserTrafficShares(db, campaign.advertiserId, {
    now: options.now,
    minImpressionsToAutoPilot: settings.minImpressionsToAutoPilot,
    week: week.byAd,
  });

  let total = NO_COUNTS;
  const adViews: TCampaignAd[] = adRows.map((ad) => {
    const lines = byAdPublisher.filter((row) => row.adId === ad.id);
    let adTotal = NO_COUNTS;
    for (const line of lines) adTotal = addCounts(adTotal, toCounts(line));
    total = addCounts(total, adTotal);
    const isShowing = showing.get(ad.id) ?? false;
    let byPublisher: TPublisherStatLine[] | null = null;
    if (options.doByPublisher) {
      const off = switchedOff.get(ad.id) ?? new Set<number>();
      const approved = new Set(approvedByAd.get(ad.id) ?? []);
      const ids = new Set([...lines.filter((line) => Number(line.impressions) > 0).map((l) => l.publisherId), ...off]);
      byPublisher = [...ids].flatMap((publisherId) => {
        const publisher = publisherById.get(publisherId);
        if (!publisher) return [];
        const line = lines.find((row) => row.publisherId === publisherId);
        return [
          {
            id: publisher.id,
            brand: publisher.brand,
            sampleUrl: samplePage(publisher.id),
            ...metricLine(line ? toCounts(line) : NO_COUNTS, tracksLeads),
            doShow: !off.has(publisher.id),
            isPublisherWeb: publisher.isWeb,
            isPublisherInstalled: publisher.isInstalled,
            isPublisherAuthorized: approved.has(publisher.id),
          },
        ];
      });
      byPublisher.sort((a, b) => b.impressions - a.impressions || a.brand.localeCompare(b.brand));
    }
    return {
      id: ad.id,
      hashId: options.hashIds.encodeAd(ad.id),
      type: ad.type,
      ...adMediaUrls(ad),
      link: ad.link,
      format_id: ad.formatId,
      validation: ad.adminValidation,
      expiresAtStr: null,
      liveUrl: liveUrlOf(approvedByAd.get(ad.id) ?? [], switchedOff.get(ad.id)),
      isShowing,
      isEjected: ad.isEjected,
      isLocked: ad.isLocked,
      isWebOnly: ad.isWebOnly,
      isOwlOnly: ad.isOwlOnly || isNewsletterFormat(ad.formatId),
      sharePct: ad.isEjected ? null : sharePct(shareByAd.get(ad.id) ?? 0, 1),
      budget: microsToEuros(ad.budget),
      stats: {
        total: {
          ...metricLine(adTotal, tracksLeads),
          ctrRankStr: ctrRank(
            week.byAd.get(ad.id) ?? { impressions: 0, clicks: 0 },
            week.thresholds,
            settings.minImpressionsForCtrRank,
          ),
          remainingMaxBudget,
        },
        byPublisher,
      },
    };
  });

  let byUrl: TCampaignEx['stats']['byUrl'] = null;
  if (options.doByUrl) {
    const urlConditions: SQL[] = [eq(dailyUrlStats.campaignId, campaign.id), ne(dailyUrlStats.adId, 0)];
    if (normal) urlConditions.push(gte(dailyUrlStats.day, normal.from), lte(dailyUrlStats.day, normal.to));
    if (!options.doIncludeRealTimeHits) urlConditions.push(ne(dailyUrlStats.day, today));
    const rows = await db
      .select({
        url: dailyUrlStats.url,
        impressions: sql<number>`coalesce(sum(${dailyUrlStats.impressions}), 0)::int`,
        clicks: sql<number>`coalesce(sum(${dailyUrlStats.clicks}), 0)::int`,
        leads: sql<number>`coalesce(sum(${dailyUrlStats.leads}), 0)::int`,
        cost: sql<number>`coalesce(sum(${dailyUrlStats.cost}), 0)::bigint`,
      })
      .from(dailyUrlStats)
      .where(and(...urlConditions))
      .groupBy(dailyUrlStats.url);
    byUrl = rows
      .map((row) => ({ url: row.url, ...metricLine(toCounts(row), tracksLeads) }))
      .sort((a, b) => b.impressions - a.impressions || a.url.localeCompare(b.url));
  }

  const siblings = await advertiserCampaigns(db, campaign.advertiserId);
  return {
    id: campaign.id,
    campaigns: siblings.map((sibling) => ({ id: sibling.id, is_cpc: sibling.isCpc })),
    hashId: options.hashIds.encodeCampaign(campaign.id),
    is_cpc: campaign.isCpc,
    isTrial: campaign.isTrial,
    trialStr: trialText(campaign, options.locale),
    couponStr: options.couponStr ?? null,
    isPaused: campaign.pauseDailyImpressions > 0,
    isFinished: finished,
    isAutoPilot: campaign.isAutoPilot,
    isAutoPilotVisible: campaign.isAutoPilotVisible,
    pauseDailyImpressions: campaign.pauseDailyImpressions,
    canActivateAdsByPublisher: campaign.canActivateAdsByPublisher,
    canBuyInBtc: campaign.canBuyInBtc,
    canBillToPay: campaign.canBillToPay,
    billToPayMinOrder: microsToEuros(settings.billToPayMinOrder),
    canBudget: campaign.canBudget,
    do_not_discount: campaign.doNotDiscount,
    geolocation: campaign.geoTargets,
    geolocationStr: await geolocationSummary(campaign.geoTargets, options.locale),
    cpm: microsToEuros(campaign.cpm),
    cpc: microsToEuros(campaign.cpc),
    statsDateRange: range as TCampaignEx['statsDateRange'],
    statsDateRangeStr: rangeText(range, options.locale),
    ads: adViews,
    stats: {
      total: {
        ...metricLine(total, tracksLeads),
        remainingImpressions: campaign.remainingImpressions,
        remainingClicks: campaign.remainingClicks,
        remainingImpressionsPct: remainingPct(campaign.remainingImpressions, lifetimeCounts.impressions),
        remainingClicksPct: remainingPct(campaign.remainingClicks, lifetimeCounts.clicks),
      },
      byUrl,
      byDay: byDay.map((row) => {
        const line = metricLine(toCounts(row), tracksLeads);
        return { day: row.day, impressions: line.impressions, clicks: line.clicks, ctr: line.ctr };
      }),
    },
  };
}
