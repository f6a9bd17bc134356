import { and, asc, eq, gte, inArray, isNull } from 'drizzle-orm';
import { adPublisherValidations, ads, campaigns, dailyAdStats, publishers, type Database } from '@helium/db';
import {
  AD_FORMAT,
  advertiserAdShares,
  ctrWindowStartDay,
  ineligibility,
  isShownAsVideo,
  selectionMode,
  type AdvertiserDisplay,
  type Channel,
  type Device,
  type EligibleAdFacts,
  type EligibleCampaignFacts,
  type PublisherValidation,
  type SelectableAd,
} from '@helium/domain';
import { isoDay } from '@helium/domain/format';
import { campaignImpressionsOn, displayKey, impressionsByDisplay, spentByAd } from '../delivery/ad-index.ts';
import {
  adSpentMicros,
  findPublisherValidation,
  publisherValidation,
  switchedOffPublishers,
  type AdRow,
  type CampaignRow,
} from './campaign-reads.ts';

/*
 * Where a campaign's ads may show and how often: the advertiser's traffic shares across publishers, and the facts
 * the eligibility rule reads for one ad on one publisher (packages/domain/src/delivery/eligibility.ts).
 */
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
