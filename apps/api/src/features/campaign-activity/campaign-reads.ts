import { and, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { ads } from '@helium/db';
import { adPublisherActivations, adPublisherValidations, campaigns, dailyAdStats, type Database } from '@helium/db';
import { ctrThresholds, ctrWindowStartDay, type CtrThresholds, type PublisherValidation } from '@helium/domain';
import { type Counts } from '@helium/domain/activity';
import { HttpError, notFound } from '../../http/errors.ts';
import { findAdvertiserAd, newestCampaign } from '../ads/ads.ts';
import { spentByAd } from '../delivery/ad-index.ts';

/* A campaign's and its ads' records as the Activity screen and its calls read them. */

export type CampaignRow = typeof campaigns.$inferSelect;
export type AdRow = typeof ads.$inferSelect;

/** Encodes public ids for the "see it live" link (hcid, haid). */
export interface ActivityHashIds {
  encodeCampaign(id: number): string;
  encodeAd(id: number): string;
}

/** An ad's figures summed over the daily summaries' rows a query selects. */
export const counts = {
  impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
  clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
  leads: sql<number>`coalesce(sum(${dailyAdStats.leads}), 0)::int`,
  cost: sql<number>`coalesce(sum(${dailyAdStats.cost}), 0)::bigint`,
};

/** Those sums as numbers (PostgreSQL answers bigint sums as text). */
export function toCounts(row: { impressions: number; clicks: number; leads: number; cost: number | string }): Counts {
  return {
    impressions: Number(row.impressions),
    clicks: Number(row.clicks),
    leads: Number(row.leads),
    cost: Number(row.cost),
  };
}

/** The advertiser's campaign: the one asked for (403 when it is someone else's), else its newest (uploads' one). */
export async function findAdvertiserCampaign(
  db: Database,
  advertiserId: number,
  campaignId?: number,
): Promise<CampaignRow> {
  if (campaignId === undefined) {
    const newest = await newestCampaign(db, advertiserId);
    if (!newest) throw new HttpError(404, 'noCampaign', 'This advertiser has no campaign yet.');
    return newest;
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
