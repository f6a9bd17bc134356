import { and, asc, eq, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import {
  adPublisherActivations,
  adPublisherValidations,
  ads,
  campaigns,
  dailyAdStats,
  dailyUrlStats,
  publishers,
  type Database,
} from '@helium/db';
import {
  AD_FORMAT,
  advertiserAdShares,
  ctrRank,
  ctrThresholds,
  ctrWindowStartDay,
  ineligibility,
  isNewsletterFormat,
  isOnRegisteredDomain,
  isPublisherApproved,
  isShownAsVideo,
  microsToEuros,
  pageAddress,
  selectionMode,
  sharePct,
  type AdvertiserDisplay,
  type Channel,
  type CtrThresholds,
  type Device,
  type EligibleAdFacts,
  type EligibleCampaignFacts,
  type PublisherValidation,
  type SelectableAd,
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
  type Counts,
} from '@helium/domain/activity';
import { formatDate, formatNumber, isoDay, type Locale } from '@helium/domain/format';
import type { TCampaignAd, TCampaignEx, TPublisherStatLine } from '@helium/contracts';
import { HttpError, notFound } from '../../http/errors.ts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';
import { findAdvertiserAd } from '../ads/ads.ts';
import { campaignImpressionsOn, displayKey, impressionsByDisplay, spentByAd } from '../delivery/ad-index.ts';
import { geolocationSummary } from '../locations/location-catalogue.ts';

export type CampaignRow = typeof campaigns.$inferSelect;
export type AdRow = typeof ads.$inferSelect;

/** Encodes public ids for the "see it live" link (hcid, haid). */
export interface ActivityHashIds {
  encodeCampaign(id: number): string;
  encodeAd(id: number): string;
}

const counts = {
  impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
  clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
  leads: sql<number>`coalesce(sum(${dailyAdStats.leads}), 0)::int`,
  cost: sql<number>`coalesce(sum(${dailyAdStats.cost}), 0)::bigint`,
};

function toCounts(row: { impressions: number; clicks: number; leads: number; cost: number | string }): Counts {
  return {
    impressions: Number(row.impressions),
    clicks: Number(row.clicks),
    leads: Number(row.leads),
    cost: Number(row.cost),
  };
}

/** The advertiser's campaign: the one asked for (403 when it is someone else's), else its first. */
export async function findAdvertiserCampaign(
  db: Database,
  advertiserId: number,
  campaignId?: number,
): Promise<CampaignRow> {
  if (campaignId === undefined) {
    const [first] = await db
      .select()
      .from(campaigns)
      .where(eq(campaigns.advertiserId, advertiserId))
      .orderBy(asc(campaigns.id))
      .limit(1);
    if (!first) throw new HttpError(404, 'noCampaign', 'This advertiser has no campaign yet.');
    return first;
  }
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1);
  if (!row) throw notFound('This campaign does not exist.');
  if (row.advertiserId !== advertiserId) {
    throw new HttpError(403, 'notYourCampaign', 'This campaign belongs to another advertiser.');
  }
  return row;
}

/** A live ad of that campaign: 404 when missing, 403 when it belongs to another advertiser or campaign. */
export async function findCampaignAd(db: Database, campaign: CampaignRow, adId: number): Promise<AdRow> {
  const ad = await findAdvertiserAd(db, campaign.advertiserId, adId);
  if (ad.campaignId !== campaign.id) {
    throw new HttpError(403, 'notYourAd', 'This ad belongs to another campaign.');
  }
  return ad;
}

/** Per-publisher switches that are off, by ad. */
export async function switchedOffPublishers(
  db: Database,
  adIds?: readonly number[],
): Promise<Map<number, Set<number>>> {
  if (adIds && adIds.length === 0) return new Map();
  const where: SQL[] = [eq(adPublisherActivations.doShow, false)];
  if (adIds) where.push(inArray(adPublisherActivations.adId, [...adIds]));
  const rows = await db
    .select({ adId: adPublisherActivations.adId, publisherId: adPublisherActivations.publisherId })
    .from(adPublisherActivations)
    .where(and(...where));
  const map = new Map<number, Set<number>>();
  for (const row of rows) {
    let set = map.get(row.adId);
    if (!set) map.set(row.adId, (set = new Set()));
    set.add(row.publisherId);
  }
  return map;
}

/** A stored publisher validation as the rules read it (its expiry in epoch ms). */
export function publisherValidation(row: { state: number; expiresAt: Date | null }): PublisherValidation {
  return { state: row.state, expiresAt: row.expiresAt?.getTime() ?? null };
}

/** A publisher's validation of an ad; null when it was never asked. */
export async function findPublisherValidation(
  db: Database,
  adId: number,
  publisherId: number,
): Promise<PublisherValidation | null> {
  const [row] = await db
    .select()
    .from(adPublisherValidations)
    .where(and(eq(adPublisherValidations.adId, adId), eq(adPublisherValidations.publisherId, publisherId)))
    .limit(1);
  return row ? publisherValidation(row) : null;
}

/**
 * What an ad has spent so far, in micro-euros, as the delivery engine counts it against the ad's budget: its
 * cost plus its trial cost (a trial campaign's spending is all trial cost).
 */
export async function adSpentMicros(db: Database, adId: number): Promise<number> {
  return (await spentByAd(db, [adId])).get(adId) ?? 0;
}

/** Every ad's counts over the CTR window (today and the 6 days before) and the network's CTR thresholds. */
export async function weekCtr(db: Database, today: string, minImpressions: number) {
  const rows = await db
    .select({
      adId: dailyAdStats.adId,
      impressions: counts.impressions,
      clicks: counts.clicks,
    })
    .from(dailyAdStats)
    .where(gte(dailyAdStats.day, ctrWindowStartDay(today)))
    .groupBy(dailyAdStats.adId);
  const byAd = new Map(
    rows.map((row) => [row.adId, { impressions: Number(row.impressions), clicks: Number(row.clicks) }]),
  );
  const thresholds: CtrThresholds | null = ctrThresholds([...byAd.values()], minImpressions);
  return { byAd, thresholds };
}

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
      image: ad.image ? `/media/${ad.image}` : null,
      mp4: ad.mp4 ? `/media/${ad.mp4}` : null,
      poster: ad.poster ? `/media/${ad.poster}` : null,
      preview: ad.preview ? `/media/${ad.preview}` : null,
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

  return {
    id: campaign.id,
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

/** The newsletter banners' formats, as the engine chooses a newsletter issue's ad. */
const NEWSLETTER_FORMATS: readonly number[] = [AD_FORMAT.newsletter];

/**
 * Each of the advertiser's ads' share (0..1) of the advertiser's traffic, as the delivery engine allocates it
 * now (docs/decisions.md section 5): on each display (a web publisher's desktop or mobile, a newsletter) the
 * advertiser's eligible ads share its part equally while the display is in Balancer (fewer than
 * `minImpressionsToAutoPilot` validated impressions today), and by Thompson sampling on their CTR window once
 * the display is in AutoPilot and all of them have AutoPilot on. The displays are weighted by the advertiser's
 * validated impressions there over the CTR window. Like the admin's get-activity, geotargeting is left aside
 * and served ads not yet viewed are not reserved.
 */
export async function advertiserTrafficShares(
  db: Database,
  advertiserId: number,
  options: {
    now: Date;
    minImpressionsToAutoPilot: number;
    /** Each ad's counts over the CTR window (`weekCtr`). */
    week: ReadonlyMap<number, { impressions: number; clicks: number }>;
  },
): Promise<Map<number, number>> {
  const today = isoDay(options.now);
  const nowMs = options.now.getTime();
  const adRows = await db
    .select()
    .from(ads)
    .where(and(eq(ads.advertiserId, advertiserId), isNull(ads.deletedAt), eq(ads.adminValidation, 1)))
    .orderBy(asc(ads.id));
  if (adRows.length === 0) return new Map();
  const adIds = adRows.map((ad) => ad.id);
  const campaignById = new Map(
    (await db.select().from(campaigns).where(eq(campaigns.advertiserId, advertiserId))).map((row) => [row.id, row]),
  );
  const validations = new Map<string, PublisherValidation>();
  for (const row of await db.select().from(adPublisherValidations).where(inArray(adPublisherValidations.adId, adIds))) {
    validations.set(`${row.adId}:${row.publisherId}`, publisherValidation(row));
  }
  const switchedOff = await switchedOffPublishers(db, adIds);
  const spent = await spentByAd(db, adIds);
  const campaignToday = await campaignImpressionsOn(db, today, eq(dailyAdStats.advertiserId, advertiserId));
  // Displays as the engine keys them (displayKey): today's impressions decide each one's mode, the
  // advertiser's over the CTR window weigh it.
  const displayToday = await impressionsByDisplay(db, eq(dailyAdStats.day, today));
  const traffic = await impressionsByDisplay(
    db,
    and(eq(dailyAdStats.advertiserId, advertiserId), gte(dailyAdStats.day, ctrWindowStartDay(today))),
  );

  const displays: Array<AdvertiserDisplay<number>> = [];
  const publisherRows = await db.select().from(publishers).orderBy(asc(publishers.id));
  for (const publisher of publisherRows) {
    const slots: Array<{ channel: Channel; device: Device; formatIds: readonly number[] | null }> = [];
    if (publisher.isWeb) slots.push({ channel: 'web', device: 'desktop', formatIds: null });
    if (publisher.isWeb) slots.push({ channel: 'web', device: 'mobile', formatIds: null });
    if (publisher.isOwl) slots.push({ channel: 'owl', device: 'desktop', formatIds: NEWSLETTER_FORMATS });
    for (const slot of slots) {
      const eligible: Array<SelectableAd & { id: number }> = [];
      for (const ad of adRows) {
        const campaign = campaignById.get(ad.campaignId);
        if (!campaign) continue;
        const reason = ineligibility(
          adFacts(ad, {
            validation: validations.get(`${ad.id}:${publisher.id}`) ?? null,
            isShownOnPublisher: !switchedOff.get(ad.id)?.has(publisher.id),
            spent: spent.get(ad.id) ?? 0,
          }),
          campaignFacts(campaign, campaignToday.get(campaign.id) ?? 0),
          { ...slot, location: null, now: nowMs },
        );
        if (reason) continue;
        eligible.push({
          id: ad.id,
          advertiserId: ad.advertiserId,
          isAutoPilot: campaign.isAutoPilot,
          ...(options.week.get(ad.id) ?? { impressions: 0, clicks: 0 }),
        });
      }
      const key = displayKey(publisher.id, slot.channel, slot.device);
      displays.push({
        mode: selectionMode(displayToday.get(key) ?? 0, options.minImpressionsToAutoPilot),
        ads: eligible,
        weight: traffic.get(key) ?? 0,
      });
    }
  }
  return advertiserAdShares(displays);
}

/**
 * What the eligibility rule (docs/decisions.md section 5) knows about one ad on one publisher, read from the
 * database: the same facts the delivery engine's in-memory index holds, including the per-publisher switch.
 */
export async function eligibilityFactsFor(
  db: Database,
  adId: number,
  publisherId: number,
  now: Date,
): Promise<{ ad: EligibleAdFacts; campaign: EligibleCampaignFacts } | null> {
  const [ad] = await db.select().from(ads).where(eq(ads.id, adId)).limit(1);
  if (!ad) return null;
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, ad.campaignId)).limit(1);
  if (!campaign) return null;
  const validation = await findPublisherValidation(db, adId, publisherId);
  const off = (await switchedOffPublishers(db, [adId])).get(adId) ?? new Set<number>();
  const today = await campaignImpressionsOn(db, isoDay(now), eq(dailyAdStats.campaignId, campaign.id));
  return {
    ad: adFacts(ad, {
      validation,
      isShownOnPublisher: !off.has(publisherId),
      spent: await adSpentMicros(db, adId),
    }),
    campaign: campaignFacts(campaign, today.get(campaign.id) ?? 0),
  };
}

/**
 * An ad row as the eligibility rule sees it on one publisher. The engine's index holds the same facts in
 * memory, so the database's view carries no reservations and, like the admin's view, no geotargeting.
 */
function adFacts(
  ad: AdRow,
  onPublisher: { validation: PublisherValidation | null; isShownOnPublisher: boolean; spent: number },
): EligibleAdFacts {
  return {
    formatId: ad.formatId,
    isWebOnly: ad.isWebOnly,
    isOwlOnly: ad.isOwlOnly,
    isVideo: isShownAsVideo(ad),
    adminValidation: ad.adminValidation,
    publisherValidation: onPublisher.validation,
    isShowing: ad.isShowing,
    isEjected: ad.isEjected,
    isShownOnPublisher: onPublisher.isShownOnPublisher,
    budget: ad.budget,
    spent: onPublisher.spent,
  };
}

function campaignFacts(campaign: CampaignRow, todayImpressions: number): EligibleCampaignFacts {
  return {
    isCpc: campaign.isCpc,
    remainingImpressions: campaign.remainingImpressions,
    remainingClicks: campaign.remainingClicks,
    reservedImpressions: 0,
    pauseDailyImpressions: campaign.pauseDailyImpressions,
    todayImpressions,
    geoTargets: [],
  };
}
