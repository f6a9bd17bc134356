import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ads, campaigns, dailyAdStats } from '@helium/db';
import { getActivityCall } from '@helium/contracts';
import {
  ctrOf,
  ctrRank,
  ctrWindowStartDay,
  isPublisherApproved,
  sharePct,
  weightRanks,
  type Device,
} from '@helium/domain';
import { adCardShare, daysToEmpty } from '@helium/domain/activity';
import { route } from '../../http/route.ts';
import { utcDay } from '../delivery/visitor.ts';
import { mediaUrl } from '../../infra/media-storage.ts';
import { isAdShowing } from '../campaign-activity/campaign-activity.ts';

const euros = (micros: number) => Math.round(micros / 10_000) / 100;
const floorTo2 = (value: number | null) => (value === null ? null : Math.floor(value * 100) / 100);
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** POST /api/admin/get-activity: the engine's state, by campaign (advertiser view) or by publisher. */
export default async function activityRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, getActivityCall, async ({ body }) => {
    const engine = app.delivery;
    const { index } = engine.state();
    const now = app.ctx.clock.now();
    const nowMs = now.getTime();
    const yesterday = utcDay(new Date(nowMs - 86_400_000));

    if (body.sortBy === 'advertiser') {
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
        .where(and(eq(dailyAdStats.day, yesterday), gte(dailyAdStats.day, yesterday)))
        .groupBy(dailyAdStats.campaignId);
      const byCampaign = new Map(totals.map((row) => [row.campaignId, row]));
      const yesterdayBy = new Map(yesterdayRows.map((row) => [row.campaignId, Number(row.impressions)]));
      // By advertiser, then campaign: each advertiser's campaigns together, in a stable order between reloads.
      const rows = await db.select().from(campaigns).orderBy(asc(campaigns.advertiserId), asc(campaigns.id));
      const list = rows
        .map((campaign) => {
          const total = byCampaign.get(campaign.id);
          const impressions = Number(total?.impressions ?? 0);
          const clicks = Number(total?.clicks ?? 0);
          const cost = Number(total?.cost ?? 0);
          const live = index.campaigns.get(campaign.id);
          const remainingImpressions = Math.max(0, live?.remainingImpressions ?? campaign.remainingImpressions);
          const remainingClicks = Math.max(0, live?.remainingClicks ?? campaign.remainingClicks);
          // The advertiser's rule (specification 02, section 4): an ad shows when its switch is on and it is shown
          // on at least one publisher that approved it (approved by none yet: its switch alone decides); the
          // campaign shows when one of its ads not ejected does.
          const isShowing = [...index.ads.values()].some(
            (ad) =>
              ad.campaignId === campaign.id &&
              !ad.isEjected &&
              isAdShowing(ad, {
                approvedPublisherIds: [...ad.validations]
                  .filter(([, validation]) => isPublisherApproved(validation, nowMs))
                  .map(([publisherId]) => publisherId),
                switchedOff: ad.hiddenOn,
              }),
          );
          const perDay = yesterdayBy.get(campaign.id) ?? 0;
          return {
            id: campaign.id,
            complete: campaign.isCpc ? remainingClicks === 0 : remainingImpressions === 0,
            ex: {
              advertiser: { brand: index.advertiserBrand.get(campaign.advertiserId) ?? '' },
              is_cpc: campaign.isCpc,
              is_owl: campaign.isOwl,
              cpc: euros(campaign.cpc),
              cpm: euros(campaign.cpm),
              isShowing,
              stats: {
                total: {
                  impressions,
                  clicks,
                  ctr: Math.round(ctrOf(impressions, clicks) * 10_000) / 100,
                  cpm: impressions > 0 ? euros((cost * 1000) / impressions) : 0,
                  cpc: clicks > 0 ? euros(cost / clicks) : 0,
                  remainingClicks,
                  remainingClicksPct: pct(remainingClicks, remainingClicks + clicks),
                  remainingImpressions,
                  remainingImpressionsPct: pct(remainingImpressions, remainingImpressions + impressions),
                },
              },
              inventory: {
                yesterdayThisCpmCampaignImpressions: perDay,
                // Rounded down, never up: 6.96 days must not read (and be coloured) as 7.
                daysToEmptyImpressions: floorTo2(daysToEmpty(remainingImpressions, perDay)),
              },
            },
          };
        })
        .filter((campaign) => body.showCompleteCampaignsOrInactiveAds || !campaign.complete)
        .map(({ complete: _complete, ...campaign }) => campaign);
      return { campaigns: list, publishers: [] };
    }

    // The CTR window of decisions.md section 5: today and the 6 days before it.
    const week = ctrWindowStartDay(utcDay(now));
    const adRows = await db
      .select({
        adId: dailyAdStats.adId,
        publisherId: dailyAdStats.publisherId,
        device: dailyAdStats.device,
        impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
        clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
      })
      .from(dailyAdStats)
      .where(gte(dailyAdStats.day, week))
      .groupBy(dailyAdStats.adId, dailyAdStats.publisherId, dailyAdStats.device);
    const statsKey = (publisherId: number, adId: number, device: Device) => `${publisherId}|${adId}|${device}`;
    const stats = new Map(adRows.map((row) => [statsKey(row.publisherId, row.adId, row.device), row]));
    const statsOf = (publisherId: number, adId: number, device: Device) =>
      stats.get(statsKey(publisherId, adId, device));
    // The network's CTR percentiles, once for every card of the answer.
    const ctrThresholds = engine.ctrThresholds();

    const fileSizes = new Map(
      (await db.select({ id: ads.id, filesize: ads.filesize }).from(ads)).map((row) => [row.id, row.filesize]),
    );
    type Ad = NonNullable<ReturnType<typeof index.ads.get>>;
    const showOf = (publisherId: number, ad: Ad, share: number, rank: number | null, device: Device) => {
      const desktop = statsOf(publisherId, ad.id, 'desktop');
      const mobile = statsOf(publisherId, ad.id, 'mobile');
      // The card is one display's: its CTR is that display's, like the impressions and clicks it shows, and is
      // coloured by that CTR's rank against the network's thresholds (so colour and figure never disagree).
      const here = device === 'desktop' ? desktop : mobile;
      const hereCounts = { impressions: Number(here?.impressions ?? 0), clicks: Number(here?.clicks ?? 0) };
      const card = adCardShare(device, share);
      return {
        ad: {
          id: ad.id,
          type: ad.type,
          filesize: fileSizes.get(ad.id) ?? 0,
          image: mediaUrl(ad.image),
          mp4: mediaUrl(ad.mp4),
          poster: mediaUrl(ad.poster),
          link: ad.link,
        },
        campaign: { is_filler: index.campaigns.get(ad.campaignId)?.isFiller ?? false },
        desktop_impressions: Number(desktop?.impressions ?? 0),
        desktop_clicks: Number(desktop?.clicks ?? 0),
        mobile_impressions: Number(mobile?.impressions ?? 0),
        mobile_clicks: Number(mobile?.clicks ?? 0),
        current_ctr: Math.round(ctrOf(hereCounts.impressions, hereCounts.clicks) * 10_000) / 100,
        share_pct: card.sharePct,
        is_faded: card.isFaded,
        desktopRank: device === 'desktop' ? rank : null,
        mobileRank: device === 'mobile' ? rank : null,
        ctrRankStr: ctrRank(hereCounts, ctrThresholds, index.settings.minImpressionsForCtrRank),
        format_id: ad.formatId,
      };
    };
    type Group = {
      /** Groups are per advertiser (two advertisers may share a brand); the answer names the brand only. */
      advertiserId: number;
      advertiserBrand: string;
      totalSharePct: number;
      isAutoPilot: boolean;
      shows: Array<ReturnType<typeof showOf>>;
    };
    /**
     * With the toggle, the ads this publisher approved that the display does not serve now (switched off,
     * ejected, out of credits, format) are added with a 0 share, under their advertiser.
     */
    const withInactiveAds = (publisherId: number, device: Device, groups: Group[]): Group[] => {
      if (!body.showCompleteCampaignsOrInactiveAds) return groups;
      const shown = new Set(groups.flatMap((group) => group.shows.map((show) => show.ad.id)));
      for (const ad of index.adsByPublisher.get(publisherId) ?? []) {
        if (shown.has(ad.id) || ad.isOwlOnly || ad.formatId === 2 || (device === 'mobile' && ad.formatId === 1))
          continue;
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

    const list = [...index.publishers.values()]
      .filter((publisher) => publisher.isWeb)
      // By id: the screen lists the sections (and their anchor links) in the order answered.
      .sort((a, b) => a.id - b.id)
      .map((publisher) => {
        const plans = (['desktop', 'mobile'] as const).map((device) => ({
          device,
          plan: engine.displayPlan(publisher.id, device),
        }));
        const displayData = plans.map(({ device, plan }) => {
          const weights = plan.advertisers.flatMap((advertiser) =>
            advertiser.ads.map((entry) => ({ id: entry.ad.id, weight: advertiser.share * entry.share })),
          );
          const ranks = weightRanks(weights.map((entry) => entry.weight));
          const rankOf = new Map(weights.map((entry, position) => [entry.id, ranks[position] ?? null]));
          return {
            display: device,
            thisDisplayTotalSharePct: plan.advertisers.length > 0 ? 100 : 0,
            byAdvertiserShowData: withInactiveAds(
              publisher.id,
              device,
              plan.advertisers.map((advertiser) => ({
                advertiserId: advertiser.advertiserId,
                advertiserBrand: advertiser.brand,
                totalSharePct: sharePct(advertiser.share, 1),
                isAutoPilot: advertiser.ads.every(({ ad }) => index.campaigns.get(ad.campaignId)?.isAutoPilot ?? false),
                shows: advertiser.ads.map(({ ad, share }) =>
                  showOf(publisher.id, ad, share, rankOf.get(ad.id) ?? null, device),
                ),
              })),
            ).map(({ advertiserId: _advertiserId, ...group }) => group),
          };
        });
        const desktop = plans[0]!.plan;
        const mobile = plans[1]!.plan;
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
      });
    return { campaigns: [], publishers: list };
  });
}
