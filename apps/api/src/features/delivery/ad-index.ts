import { and, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  adClicks,
  adPublisherActivations,
  adPublisherValidations,
  ads,
  advertisers,
  campaigns,
  dailyAdStats,
  publisherPlacements,
  publishers,
  type Database,
} from '@helium/db';
import {
  ctrWindowStartDay,
  DEFAULT_PUBLISHER_SHARE_BP,
  type Channel,
  type Device,
  type Placement,
  type PublisherValidation,
} from '@helium/domain';
import { latestValidNetworkSettings } from '../network-settings/network-settings.ts';

export interface IndexedAd {
  id: number;
  advertiserId: number;
  campaignId: number;
  type: 'image' | 'video';
  formatId: number;
  isWebOnly: boolean;
  isOwlOnly: boolean;
  adminValidation: number;
  isShowing: boolean;
  isEjected: boolean;
  budget: number;
  image: string | null;
  mp4: string | null;
  poster: string | null;
  /** The thumbnail's picture (the admin's Activity cards), not served. */
  preview: string | null;
  width: number | null;
  height: number | null;
  link: string | null;
  validations: Map<number, PublisherValidation>;
  /** Publishers the advertiser switched this ad off for (doShow false). */
  hiddenOn: Set<number>;
}

export interface IndexedCampaign {
  id: number;
  advertiserId: number;
  isCpc: boolean;
  isOwl: boolean;
  isTrial: boolean;
  isFiller: boolean;
  isAutoPilot: boolean;
  cpm: number;
  cpc: number;
  pauseDailyImpressions: number;
  /** Credits as stored when the index was loaded (CreditBook keeps them current). */
  storedImpressions: number;
  storedClicks: number;
  /** The version of those credits (campaigns.credits_version): instances sharing them keep the newest. */
  creditsVersion: number;
  /** Location codes "FR", "FR/IDF", "FR/IDF/Paris"; empty = everywhere. */
  geoTargets: string[];
}

export interface IndexedPublisher {
  id: number;
  brand: string;
  domain: string | null;
  isWeb: boolean;
  isOwl: boolean;
  isInstalled: boolean;
  revenueShareBp: number | null;
  salesRepUserId: number | null;
  /** Stored placements in their order (id); none = the default placement (`placementsFor`). */
  placements: Placement[];
}

export interface IndexSettings {
  publisherRevenueShareBp: number;
  salesRepRevenueShareBp: number;
  minImpressionsToAutoPilot: number;
  minImpressionsForCtrRank: number;
}

/** Everything serving needs, read in a few queries; selection then runs without touching the database. */
export interface AdIndexSnapshot {
  ads: Map<number, IndexedAd>;
  /** Ads validated by the admin, by publisher that approved (or let expire) them; eligibility still applies. */
  adsByPublisher: Map<number, IndexedAd[]>;
  campaigns: Map<number, IndexedCampaign>;
  /** Some campaign is geotargeted: decisions then need the visitor's location. */
  isGeotargeted: boolean;
  publishers: Map<number, IndexedPublisher>;
  advertiserSalesRep: Map<number, number | null>;
  advertiserBrand: Map<number, string>;
  settings: IndexSettings;
}

export async function loadIndex(db: Database): Promise<AdIndexSnapshot> {
  const adRows = await db
    .select()
    .from(ads)
    .where(and(isNull(ads.deletedAt), eq(ads.adminValidation, 1)));
  const validationRows = await db.select().from(adPublisherValidations);
  const activationRows = await db.select().from(adPublisherActivations);
  const campaignRows = await db.select().from(campaigns);
  const publisherRows = await db.select().from(publishers);
  const placementRows = await db.select().from(publisherPlacements).orderBy(publisherPlacements.id);
  const advertiserRows = await db
    .select({ id: advertisers.id, brand: advertisers.brand, salesRepUserId: advertisers.salesRepUserId })
    .from(advertisers);
  const settingsRow = await latestValidNetworkSettings(db);

  const indexedAds = new Map<number, IndexedAd>();
  for (const row of adRows) {
    indexedAds.set(row.id, {
      id: row.id,
      advertiserId: row.advertiserId,
      campaignId: row.campaignId,
      type: row.type,
      formatId: row.formatId,
      isWebOnly: row.isWebOnly,
      isOwlOnly: row.isOwlOnly,
      adminValidation: row.adminValidation,
      isShowing: row.isShowing,
      isEjected: row.isEjected,
      budget: row.budget,
      image: row.image,
      mp4: row.mp4,
      poster: row.poster,
      preview: row.preview,
      width: row.width,
      height: row.height,
      link: row.link,
      validations: new Map(),
      hiddenOn: new Set(),
    });
  }
  for (const row of activationRows) if (!row.doShow) indexedAds.get(row.adId)?.hiddenOn.add(row.publisherId);
  const adsByPublisher = new Map<number, IndexedAd[]>();
  for (const row of validationRows) {
    const ad = indexedAds.get(row.adId);
    if (!ad) continue;
    ad.validations.set(row.publisherId, { state: row.state, expiresAt: row.expiresAt?.getTime() ?? null });
    if (row.state === 1 || row.state === 3) {
      let list = adsByPublisher.get(row.publisherId);
      if (!list) adsByPublisher.set(row.publisherId, (list = []));
      list.push(ad);
    }
  }
  const indexedCampaigns = new Map<number, IndexedCampaign>();
  for (const row of campaignRows) {
    indexedCampaigns.set(row.id, {
      id: row.id,
      advertiserId: row.advertiserId,
      isCpc: row.isCpc,
      isOwl: row.isOwl,
      isTrial: row.isTrial,
      isFiller: row.isFiller,
      isAutoPilot: row.isAutoPilot,
      cpm: row.cpm,
      cpc: row.cpc,
      pauseDailyImpressions: row.pauseDailyImpressions,
      storedImpressions: row.remainingImpressions,
      storedClicks: row.remainingClicks,
      creditsVersion: row.creditsVersion,
      geoTargets: row.geoTargets,
    });
  }
  const indexedPublishers = new Map<number, IndexedPublisher>();
  for (const row of publisherRows) {
    indexedPublishers.set(row.id, {
      id: row.id,
      brand: row.brand,
      domain: row.domain,
      isWeb: row.isWeb,
      isOwl: row.isOwl,
      isInstalled: row.isInstalled,
      revenueShareBp: row.revenueShareBp,
      salesRepUserId: row.salesRepUserId,
      placements: [],
    });
  }
  for (const row of placementRows) {
    indexedPublishers.get(row.publisherId)?.placements.push({
      selector: row.selector,
      position: row.position,
      formatIds: row.formatIds,
      device: row.device,
    });
  }
  return {
    ads: indexedAds,
    adsByPublisher,
    campaigns: indexedCampaigns,
    isGeotargeted: campaignRows.some((row) => row.geoTargets.length > 0),
    publishers: indexedPublishers,
    advertiserSalesRep: new Map(advertiserRows.map((row) => [row.id, row.salesRepUserId])),
    advertiserBrand: new Map(advertiserRows.map((row) => [row.id, row.brand])),
    settings: {
      publisherRevenueShareBp: settingsRow?.publisherRevenueShareBp ?? DEFAULT_PUBLISHER_SHARE_BP,
      salesRepRevenueShareBp: settingsRow?.salesRepRevenueShareBp ?? 1000,
      minImpressionsToAutoPilot: settingsRow?.minImpressionsToAutoPilot ?? 1000,
      minImpressionsForCtrRank: settingsRow?.minImpressionsForCtrRank ?? 500,
    },
  };
}

/**
 * The campaigns' stored credits read again into an index loaded earlier: read with no batch in flight (ServingIndex),
 * they agree with the credits spent and not yet written (CreditBook), which the rest of the index need not. A campaign
 * created since the index was read waits for the next load.
 */
export async function readStoredCredits(db: Database, index: AdIndexSnapshot): Promise<void> {
  const rows = await db
    .select({
      id: campaigns.id,
      remainingImpressions: campaigns.remainingImpressions,
      remainingClicks: campaigns.remainingClicks,
      creditsVersion: campaigns.creditsVersion,
    })
    .from(campaigns);
  for (const row of rows) {
    const campaign = index.campaigns.get(row.id);
    if (!campaign) continue;
    campaign.storedImpressions = row.remainingImpressions;
    campaign.storedClicks = row.remainingClicks;
    campaign.creditsVersion = row.creditsVersion;
  }
}

/**
 * A display, whose validated impressions today decide Balancer or AutoPilot: a publisher's web pages on one
 * device, or its newsletter (whose opens are recorded as desktop but must not move the web display's mode).
 */
export function displayKey(publisherId: number, channel: Channel, device: Device): string {
  return channel === 'owl' ? `${publisherId}:owl` : `${publisherId}:${device}`;
}

/** Validated impressions of each campaign on `day`, of the summary rows `where` also selects. */
export async function campaignImpressionsOn(db: Database, day: string, where?: SQL): Promise<Map<number, number>> {
  const rows = await db
    .select({ campaignId: dailyAdStats.campaignId, impressions: sql<number>`sum(${dailyAdStats.impressions})::int` })
    .from(dailyAdStats)
    .where(and(eq(dailyAdStats.day, day), where))
    .groupBy(dailyAdStats.campaignId);
  return new Map(rows.map((row) => [row.campaignId, Number(row.impressions)]));
}

/** Validated impressions by display (displayKey: a newsletter apart from its publisher's desktop pages). */
export async function impressionsByDisplay(db: Database, where: SQL | undefined): Promise<Map<string, number>> {
  const rows = await db
    .select({
      publisherId: dailyAdStats.publisherId,
      channel: dailyAdStats.channel,
      device: dailyAdStats.device,
      impressions: sql<number>`sum(${dailyAdStats.impressions})::int`,
    })
    .from(dailyAdStats)
    .where(where)
    .groupBy(dailyAdStats.publisherId, dailyAdStats.channel, dailyAdStats.device);
  return new Map(rows.map((row) => [displayKey(row.publisherId, row.channel, row.device), Number(row.impressions)]));
}

/**
 * What each ad has spent, as the engine adds it up against the ad's budget when it counts: its cost plus its
 * trial cost (a trial campaign spends trial cost). All ads, or those of `adIds`.
 */
export async function spentByAd(db: Database, adIds?: readonly number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({
      adId: dailyAdStats.adId,
      spent: sql<number>`sum(${dailyAdStats.cost} + ${dailyAdStats.trialCost})::bigint`,
    })
    .from(dailyAdStats)
    .where(adIds ? inArray(dailyAdStats.adId, [...adIds]) : undefined)
    .groupBy(dailyAdStats.adId);
  return new Map(rows.map((row) => [row.adId, Number(row.spent)]));
}

/** Counters the engine keeps in memory and updates as it counts; loaded once at start (and at day change). */
export interface CounterSnapshot {
  campaignToday: Map<number, number>;
  displayToday: Map<string, number>;
  /** Each ad's impressions and unique clicks per day of the CTR window (CtrWindow). */
  adDays: Array<{ day: string; adId: number; impressions: number; clicks: number }>;
  adSpent: Map<number, number>;
  recentUniqueClicks: Array<{ adId: number; decisionId: string; visitor: string; at: number }>;
}

/**
 * Today's counters from the database. `uniqueClicksSince` is how far back unique clicks are read: the longest
 * any of them keeps a later click from billing (a decision's click token's life).
 */
export async function loadCounters(
  db: Database,
  today: string,
  now: Date,
  uniqueClicksSince: number,
): Promise<CounterSnapshot> {
  // The CTR window of docs/decisions.md section 5: today and the 6 days before it.
  const weekStart = ctrWindowStartDay(today);
  const campaignToday = await campaignImpressionsOn(db, today);
  const displayToday = await impressionsByDisplay(db, eq(dailyAdStats.day, today));
  const dayRows = await db
    .select({
      day: dailyAdStats.day,
      adId: dailyAdStats.adId,
      impressions: sql<number>`sum(${dailyAdStats.impressions})::int`,
      clicks: sql<number>`sum(${dailyAdStats.clicks})::int`,
    })
    .from(dailyAdStats)
    .where(gte(dailyAdStats.day, weekStart))
    .groupBy(dailyAdStats.day, dailyAdStats.adId);
  const adSpent = await spentByAd(db);
  const clickRows = await db
    .select({ adId: adClicks.adId, decisionId: adClicks.decisionId, visitor: adClicks.visitor, at: adClicks.createdAt })
    .from(adClicks)
    .where(and(eq(adClicks.isUnique, true), gte(adClicks.createdAt, new Date(now.getTime() - uniqueClicksSince))));
  return {
    campaignToday,
    displayToday,
    adDays: dayRows.map((row) => ({
      day: String(row.day),
      adId: row.adId,
      impressions: Number(row.impressions),
      clicks: Number(row.clicks),
    })),
    adSpent,
    recentUniqueClicks: clickRows.map((row) => ({
      adId: row.adId,
      decisionId: row.decisionId,
      visitor: row.visitor,
      at: row.at.getTime(),
    })),
  };
}
