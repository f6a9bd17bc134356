import { asc, eq, gte, sql } from 'drizzle-orm';
import { ads, campaigns, dailyAdStats, type Database } from '@helium/db';
import type { TAdminActivityCampaign, TAdminActivityPublisher, TAdminActivityShow } from '@helium/contracts';
import { ctrRank, ctrWindowStartDay, microsToCentEuros, sharePct, type Device } from '@helium/domain';
import { adCardShare, approvedPublisherIds, shiftDay } from '@helium/domain/activity';
import {
  campaignCardFigures,
  ctrPct,
  displayAdRanks,
  fitsWebDisplay,
  isCampaignShowing,
} from '@helium/domain/admin-activity';
import { isoDay } from '@helium/domain/format';
import type { IndexedAd } from '../delivery/ad-index.ts';
import type { DeliveryEngine } from '../delivery/engine.ts';
import { adMediaUrls } from '../../infra/media-storage.ts';

/*
 * The admin's Activity screens (specification 01, sections 3 and 7): the delivery engine's state now, by
 * campaign (advertiser view) or by publisher. The figures' rules are in packages/domain/src/admin-activity.ts.
 */

export interface AdminActivityOptions {
  now: Date;
  /** The screen's toggle: finished campaigns (advertiser view), ads not served now (publisher view). */
  showCompleteCampaignsOrInactiveAds: boolean;
}

/** The advertiser view: a card per campaign, by advertiser then campaign (a stable order between reloads). */
export async function activityByAdvertiser(
  db: Database,
  engine: DeliveryEngine,
  options: AdminActivityOptions,
): Promise<TAdminActivityCampaign[]> {
  const { index, credits } = engine.state();
  const nowMs = options.now.getTime();
  const totals = await db
    .select({
      campaignId: dailyAdStats.campaignId,
      impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
      cost: sql<number>`coalesce(sum(${dailyAdStats.cost} + ${dailyAdStats.trialCost}), 0)::bigint`,
    })
    .from(dailyAdStats)
    .groupBy(dailyAdStats.campaignId);
  const yesterdayRows = await db
    .select({
      campaignId: dailyAdStats.campaignId,
      impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
    })
    .from(dailyAdStats)
    .where(eq(dailyAdStats.day, shiftDay(isoDay(options.now), -1)))
    .groupBy(dailyAdStats.campaignId);
  const byCampaign = new Map(totals.map((row) => [row.campaignId, row]));
  const yesterdayBy = new Map(yesterdayRows.map((row) => [row.campaignId, Number(row.impressions)]));
  const adsByCampaign = new Map<number, IndexedAd[]>();
  for (const ad of index.ads.values())
    adsByCampaign.set(ad.campaignId, [...(adsByCampaign.get(ad.campaignId) ?? []), ad]);
  const rows = await db.select().from(campaigns).orderBy(asc(campaigns.advertiserId), asc(campaigns.id));

  return rows.flatMap((campaign) => {
    const total = byCampaign.get(campaign.id);
    const live = index.campaigns.get(campaign.id);
    const figures = campaignCardFigures({
      isCpc: campaign.isCpc,
      impressions: Number(total?.impressions ?? 0),
      clicks: Number(total?.clicks ?? 0),
      cost: Number(total?.cost ?? 0),
      remainingImpressions: live ? credits.remainingImpressions(live.id) : campaign.remainingImpressions,
      remainingClicks: live ? credits.remainingClicks(live.id) : campaign.remainingClicks,
      yesterdayImpressions: yesterdayBy.get(campaign.id) ?? 0,
    });
    if (figures.isFinished && !options.showCompleteCampaignsOrInactiveAds) return [];
    const campaignAds = (adsByCampaign.get(campaign.id) ?? []).map((ad) => ({
      isShowing: ad.isShowing,
      isEjected: ad.isEjected,
      approvedPublisherIds: approvedPublisherIds(ad.validations, nowMs),
      switchedOff: ad.hiddenOn,
    }));
    return [
      {
        id: campaign.id,
        ex: {
          advertiser: { brand: index.advertiserBrand.get(campaign.advertiserId) ?? '' },
          is_cpc: campaign.isCpc,
          is_owl: campaign.isOwl,
          cpc: microsToCentEuros(campaign.cpc),
          cpm: microsToCentEuros(campaign.cpm),
          isShowing: isCampaignShowing(campaignAds),
          stats: { total: figures.total },
          inventory: figures.inventory,
        },
      },
    ];
  });
}

type ShowGroup = TAdminActivityPublisher['displayData'][number]['byAdvertiserShowData'][number] & {
  /** Groups are per advertiser (two advertisers may share a brand); the answer names the brand only. */
  advertiserId: number;
};

/** The publisher view: each website's desktop and mobile displays, the advertisers and ads sharing them now. */
export async function activityByPublisher(
  db: Database,
  engine: DeliveryEngine,
  options: AdminActivityOptions,
): Promise<TAdminActivityPublisher[]> {
  const { index } = engine.state();
  // The CTR window of docs/decisions.md section 5: today and the 6 days before it.
  const statRows = await db
    .select({
      adId: dailyAdStats.adId,
      publisherId: dailyAdStats.publisherId,
      device: dailyAdStats.device,
      impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
    })
    .from(dailyAdStats)
    .where(gte(dailyAdStats.day, ctrWindowStartDay(isoDay(options.now))))
    .groupBy(dailyAdStats.adId, dailyAdStats.publisherId, dailyAdStats.device);
  const statsKey = (publisherId: number, adId: number, device: Device) => `${publisherId}|${adId}|${device}`;
  const stats = new Map(statRows.map((row) => [statsKey(row.publisherId, row.adId, row.device), row]));
  const countsOf = (publisherId: number, adId: number, device: Device) => {
    const row = stats.get(statsKey(publisherId, adId, device));
    return { impressions: Number(row?.impressions ?? 0), clicks: Number(row?.clicks ?? 0) };
  };
  // The network's CTR percentiles, once for every card of the answer.
  const ctrThresholds = engine.ctrThresholds();
  const fileSizes = new Map(
    (await db.select({ id: ads.id, filesize: ads.filesize }).from(ads)).map((row) => [row.id, row.filesize]),
  );

  const showOf = (
    publisherId: number,
    ad: IndexedAd,
    share: number,
    rank: number | null,
    device: Device,
  ): TAdminActivityShow => {
    const desktop = countsOf(publisherId, ad.id, 'desktop');
    const mobile = countsOf(publisherId, ad.id, 'mobile');
    // The card is one display's: its CTR is that display's, like the impressions and clicks it shows, and is
    // coloured by that CTR's rank against the network's thresholds (so colour and figure never disagree).
    const here = device === 'desktop' ? desktop : mobile;
    const card = adCardShare(device, share);
    return {
      ad: {
        id: ad.id,
        type: ad.type,
        filesize: fileSizes.get(ad.id) ?? 0,
        ...adMediaUrls(ad),
        link: ad.link,
      },
      campaign: { is_filler: index.campaigns.get(ad.campaignId)?.isFiller ?? false },
      desktop_impressions: desktop.impressions,
      desktop_clicks: desktop.clicks,
      mobile_impressions: mobile.impressions,
      mobile_clicks: mobile.clicks,
      current_ctr: ctrPct(here.impressions, here.clicks),
      share_pct: card.sharePct,
      is_faded: card.isFaded,
      desktopRank: device === 'desktop' ? rank : null,
      mobileRank: device === 'mobile' ? rank : null,
      ctrRankStr: ctrRank(here, ctrThresholds, index.settings.minImpressionsForCtrRank),
      format_id: ad.formatId,
    };
  };

  /**
   * With the toggle, the ads this publisher approved that the display does not serve now (switched off,
   * ejected, out of credits) are added with a 0 share, under their advertiser.
   */
  const withInactiveAds = (publisherId: number, device: Device, groups: ShowGroup[]): ShowGroup[] => {
    if (!options.showCompleteCampaignsOrInactiveAds) return groups;
    const shown = new Set(groups.flatMap((group) => group.shows.map((show) => show.ad.id)));
    for (const ad of index.adsByPublisher.get(publisherId) ?? []) {
      if (shown.has(ad.id) || !fitsWebDisplay(ad, device)) continue;
      let group = groups.find((one) => one.advertiserId === ad.advertiserId);
      if (!group) {
        group = {
          advertiserId: ad.advertiserId,
          advertiserBrand: index.advertiserBrand.get(ad.advertiserId) ?? '',
          totalSharePct: 0,
          isAutoPilot: index.campaigns.get(ad.campaignId)?.isAutoPilot ?? false,
          shows: [],
        };
        groups.push(group);
      }
      group.shows.push(showOf(publisherId, ad, 0, null, device));
    }
    return groups;
  };

  return (
    [...index.publishers.values()]
      .filter((publisher) => publisher.isWeb)
      // By id: the screen lists the sections (and their anchor links) in the order answered.
      .sort((a, b) => a.id - b.id)
      .map((publisher) => {
        const desktop = engine.displayPlan(publisher.id, 'desktop');
        const mobile = engine.displayPlan(publisher.id, 'mobile');
        const displayData = [
          { device: 'desktop' as const, plan: desktop },
          { device: 'mobile' as const, plan: mobile },
        ].map(({ device, plan }) => {
          const ranks = displayAdRanks(plan.advertisers);
          const groups = plan.advertisers.map((advertiser) => ({
            advertiserId: advertiser.advertiserId,
            advertiserBrand: advertiser.brand,
            totalSharePct: sharePct(advertiser.share, 1),
            isAutoPilot: advertiser.ads.every(({ ad }) => index.campaigns.get(ad.campaignId)?.isAutoPilot ?? false),
            shows: advertiser.ads.map(({ ad, share }) =>
              showOf(publisher.id, ad, share, ranks.get(ad.id) ?? null, device),
            ),
          }));
          return {
            display: device,
            thisDisplayTotalSharePct: plan.advertisers.length > 0 ? 100 : 0,
            byAdvertiserShowData: withInactiveAds(publisher.id, device, groups).map(
              ({ advertiserId: _advertiserId, ...group }) => group,
            ),
          };
        });
        return {
          id: publisher.id,
          brand: publisher.brand,
          isDesktopAutoPilot: desktop.mode === 'autopilot',
          isMobileAutoPilot: mobile.mode === 'autopilot',
          desktopTodayImpressions: desktop.today,
          mobileTodayImpressions: mobile.today,
          desktopMinImpressionsToAutoPilot: desktop.minImpressionsToAutoPilot,
          mobileMinImpressionsToAutoPilot: mobile.minImpressionsToAutoPilot,
          displayData,
        };
      })
  );
}
