import { and, eq, isNull } from 'drizzle-orm';
import {
  DAY_MS,
  MINUTE_MS,
  DEFAULT_PUBLISHER_SHARE_BP,
  isMobileCompatible,
  isNewsletterFormat,
  adCtr,
  clickCost,
  dailyVolumeFactor,
  DEFAULT_TRAFFIC_MODEL,
  drawCount,
  drawDailyAdFigures,
  impressionCost,
  minuteShare,
  mixSeed,
  placementsFor,
  seededRandom,
  splitInteger,
  splitRevenue,
  type DailyAdFigures,
  type Device,
  type Placement,
  type TrafficModel,
} from '@helium/domain';
import type { Database } from '../client.ts';
import {
  adPublisherValidations,
  ads,
  advertisers,
  campaigns,
  dailyAdStats,
  dailyCountryStats,
  dailyPublisherStats,
  dailyUrlStats,
  networkSettings,
  publisherPlacements,
  publishers,
  realtimeCounters,
} from '../schema/index.ts';

/**
 * The demo's traffic history: 30 full UTC days up to yesterday for the demo publishers and every validated ad
 * they approved, drawn from the same traffic model as the simulator (packages/domain/src/delivery/
 * traffic-model.ts: device mix, bots, viewability, a CTR spread per ad, leads, a weekday curve with growth).
 * Each pageview fills the publisher's placements for its device (the default placement when none is stored)
 * with ads of the formats they accept. It writes what the engine itself would have written for that traffic:
 * daily summaries per publisher and device, per ad (with the money), per page URL (pages' pageviews and
 * ads' figures), per campaign and visitor country (COUNTRIES), the realtime per-minute counters of the last day, and the campaigns' remaining credits
 * less what was delivered (never below 0). Seeded: the same figures every time for the same day. Today is
 * left to the live engine.
 */
export const HISTORY_DAYS = 30;

const SEED = 20_260_901;
const BATCH = 1000;
/** A newsletter issue's opens are counted on the desktop display (as the engine does). */
const OWL_DEVICE: Device = 'desktop';

/** Where the demo's visitors come from, and their share ('ZZ': an address of no known location). */
const COUNTRIES: Array<[string, number]> = [
  ['FR', 0.58],
  ['BE', 0.14],
  ['CH', 0.11],
  ['CA', 0.09],
  ['ZZ', 0.08],
];

/**
 * A campaign's day per visitor country, as the engine counts them (daily_country_stats): its ads' figures of the
 * day split by the countries' shares, so that they add up exactly to daily_ad_stats.
 */
function countryRows(adRows: ReadonlyArray<typeof dailyAdStats.$inferInsert>) {
  const byCampaignDay = new Map<
    string,
    { campaignId: number; day: string; impressions: number; clicks: number; cost: number }
  >();
  for (const row of adRows) {
    const key = `${row.campaignId}|${row.day}`;
    const sum = byCampaignDay.get(key) ?? {
      campaignId: row.campaignId,
      day: row.day,
      impressions: 0,
      clicks: 0,
      cost: 0,
    };
    sum.impressions += row.impressions ?? 0;
    sum.clicks += row.clicks ?? 0;
    sum.cost += row.cost ?? 0;
    byCampaignDay.set(key, sum);
  }
  const weights = COUNTRIES.map(([, share]) => share);
  return [...byCampaignDay.values()].flatMap((sum) => {
    const impressions = splitInteger(sum.impressions, weights);
    const clicks = splitInteger(sum.clicks, weights);
    const cost = splitInteger(sum.cost, weights);
    return COUNTRIES.map(([country], index) => ({
      campaignId: sum.campaignId,
      day: sum.day,
      country,
      impressions: impressions[index] ?? 0,
      clicks: clicks[index] ?? 0,
      cost: cost[index] ?? 0,
    })).filter((row) => row.impressions + row.clicks + row.cost > 0);
  });
}

/** The pages of a publisher's site and their share of its pageviews. */
const PAGES: Array<[string, number]> = [
  ['/', 0.34],
  ['/blog/hiking-gear', 0.22],
  ['/guides/alpes', 0.17],
  ['/recettes/tarte-aux-pommes', 0.15],
  ['/blog/winter-camping', 0.12],
];

type AdRow = typeof ads.$inferSelect;
type CampaignRow = typeof campaigns.$inferSelect;

interface Credits {
  campaign: CampaignRow;
  impressions: number;
  clicks: number;
}

function isOwlAd(ad: AdRow): boolean {
  return ad.isOwlOnly || isNewsletterFormat(ad.formatId);
}

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let index = 0; index < rows.length; index += BATCH) await insert(rows.slice(index, index + BATCH));
}

export async function seedTrafficHistory(
  db: Database,
  now: Date = new Date(),
  model: TrafficModel = DEFAULT_TRAFFIC_MODEL,
): Promise<{ adRows: number; urlRows: number; publisherRows: number; realtimeRows: number }> {
  const [settings] = await db.select().from(networkSettings).limit(1);
  const publisherShareDefault = settings?.publisherRevenueShareBp ?? DEFAULT_PUBLISHER_SHARE_BP;
  const salesRepShareBp = settings?.salesRepRevenueShareBp ?? 1000;
  const publisherRows = (await db.select().from(publishers)).sort((a, b) => a.id - b.id);
  const advertiserRep = new Map((await db.select().from(advertisers)).map((row) => [row.id, row.salesRepUserId]));
  const credits = new Map<number, Credits>(
    (await db.select().from(campaigns)).map((campaign) => [
      campaign.id,
      { campaign, impressions: campaign.remainingImpressions, clicks: campaign.remainingClicks },
    ]),
  );
  const approved = await db
    .select({ ad: ads, publisherId: adPublisherValidations.publisherId })
    .from(ads)
    .innerJoin(adPublisherValidations, eq(adPublisherValidations.adId, ads.id))
    .where(and(eq(ads.adminValidation, 1), eq(adPublisherValidations.state, 1), isNull(ads.deletedAt)));
  const placementsOf = new Map<number, Placement[]>();
  for (const row of (await db.select().from(publisherPlacements)).sort((a, b) => a.id - b.id)) {
    placementsOf.set(row.publisherId, [...(placementsOf.get(row.publisherId) ?? []), row]);
  }
  const adsOf = new Map<number, AdRow[]>();
  for (const { ad, publisherId } of approved.sort((a, b) => a.ad.id - b.ad.id)) {
    adsOf.set(publisherId, [...(adsOf.get(publisherId) ?? []), ad]);
  }

  const adRows: Array<typeof dailyAdStats.$inferInsert> = [];
  const urlRows: Array<typeof dailyUrlStats.$inferInsert> = [];
  const dayRows: Array<typeof dailyPublisherStats.$inferInsert> = [];
  const minuteRows: Array<typeof realtimeCounters.$inferInsert> = [];
  const random = seededRandom(SEED);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

  /** Caps a day's figures at the campaign's credits left and spends them. */
  const spend = (credit: Credits, figures: DailyAdFigures): DailyAdFigures => {
    const result = { ...figures };
    if (credit.campaign.isCpc) {
      result.clicks = Math.min(result.clicks, credit.clicks);
      credit.clicks -= result.clicks;
    } else {
      result.impressions = Math.min(result.impressions, credit.impressions);
      result.clicks = Math.min(result.clicks, result.impressions);
      credit.impressions -= result.impressions;
    }
    result.allClicks = Math.max(result.clicks, Math.min(result.allClicks, result.clicks * 2));
    result.leads = Math.min(result.leads, result.clicks);
    return result;
  };

  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const dayStart = new Date(today - back * DAY_MS);
    const day = dayStart.toISOString().slice(0, 10);
    for (const publisher of publisherRows) {
      const publisherAds = adsOf.get(publisher.id) ?? [];
      const base = 600 + Math.round(seededRandom(mixSeed(SEED, publisher.id))() * 1800);
      const volume = Math.round(base * dailyVolumeFactor(dayStart, back, publisher.id, model));
      const perDevice = new Map<
        Device,
        { pageviews: number; invalid: number; served: number; impressions: number; clicks: number }
      >();
      const urlPageviews: Array<typeof dailyUrlStats.$inferInsert> = [];
      const host = publisher.domain ?? 'localhost';
      const origin = host === 'localhost' ? 'http://localhost' : `https://${host}`;
      let displays: Array<{ device: Device; slots: Array<{ served: number; ads: AdRow[] }> }>;
      if (publisher.isWeb) {
        const invalid = drawCount(random, volume, model.botShare);
        const valid = volume - invalid;
        const mobile = drawCount(random, valid, model.mobileShare);
        const invalidMobile = drawCount(random, invalid, model.mobileShare);
        displays = (['desktop', 'mobile'] as const).map((device) => {
          const pageviews = device === 'mobile' ? mobile : valid - mobile;
          perDevice.set(device, {
            pageviews,
            invalid: device === 'mobile' ? invalidMobile : invalid - invalidMobile,
            served: 0,
            impressions: 0,
            clicks: 0,
          });
          const pages = splitInteger(
            pageviews,
            PAGES.map(([, share]) => share),
          );
          PAGES.forEach(([path], index) => {
            if ((pages[index] ?? 0) > 0) {
              urlPageviews.push({
                day,
                publisherId: publisher.id,
                url: `${origin}${path}`,
                device,
                pageviews: pages[index],
              });
            }
          });
          // One slot per placement that applies to the device (the default placement when none is stored),
          // served on every pageview when an ad of an accepted format is eligible.
          const slots = placementsFor(placementsOf.get(publisher.id) ?? [], device).map((placement) => ({
            served: pageviews,
            ads: publisherAds.filter(
              (ad) =>
                !isOwlAd(ad) &&
                !(device === 'mobile' && !isMobileCompatible(ad.formatId)) &&
                (placement.formatIds.length === 0 || placement.formatIds.includes(ad.formatId)),
            ),
          }));
          return { device, slots };
        });
      } else if (publisher.isOwl) {
        // Newsletter opens: every open shows (and counts) the banner ad.
        const opens = Math.round(volume * 0.35);
        perDevice.set(OWL_DEVICE, { pageviews: 0, invalid: 0, served: 0, impressions: 0, clicks: 0 });
        displays = [
          {
            device: OWL_DEVICE,
            slots: [{ served: opens, ads: publisherAds.filter((ad) => isOwlAd(ad) && !ad.isWebOnly) }],
          },
        ];
      } else {
        continue;
      }

      for (const display of displays) {
        const totals = perDevice.get(display.device);
        if (!totals) continue;
        const servedByAd = new Map<AdRow, number>();
        for (const slot of display.slots) {
          const live = slot.ads.filter((ad) => {
            const credit = credits.get(ad.campaignId);
            return credit && (credit.campaign.isCpc ? credit.clicks > 0 : credit.impressions > 0);
          });
          // Balancer: advertisers share equally; inside one, AutoPilot favours the ads with the better CTR.
          const advertiserCount = new Set(live.map((ad) => ad.advertiserId)).size;
          const weights = live.map((ad) => {
            const sameAdvertiser = live.filter((other) => other.advertiserId === ad.advertiserId);
            const appeal = Math.sqrt(adCtr(ad.id, display.device, model));
            const total = sameAdvertiser.reduce(
              (sum, other) => sum + Math.sqrt(adCtr(other.id, display.device, model)),
              0,
            );
            return appeal / total / advertiserCount;
          });
          splitInteger(slot.served, weights).forEach((served, index) => {
            const ad = live[index];
            if (ad) servedByAd.set(ad, (servedByAd.get(ad) ?? 0) + served);
          });
        }
        [...servedByAd].forEach(([ad, served]) => {
          const credit = credits.get(ad.campaignId);
          if (!credit || served === 0) return;
          const owl = !publisher.isWeb;
          const drawn = owl
            ? (() => {
                const clicks = drawCount(random, served, adCtr(ad.id, display.device, model));
                return {
                  served,
                  impressions: served,
                  clicks,
                  allClicks: clicks + drawCount(random, clicks, model.repeatClickRate),
                  leads: drawCount(random, clicks, model.leadRate),
                };
              })()
            : drawDailyAdFigures(random, ad.id, display.device, served, model);
          const figures = spend(credit, drawn);
          const { campaign } = credit;
          const units = campaign.isCpc ? figures.clicks : figures.impressions;
          const reps = new Set(
            [publisher.salesRepUserId, advertiserRep.get(ad.advertiserId) ?? null].filter((id) => id !== null),
          ).size;
          const unit = splitRevenue({
            cost: campaign.isCpc ? clickCost(campaign.cpc) : impressionCost(campaign.cpm),
            publisherShareBp: publisher.revenueShareBp ?? publisherShareDefault,
            salesRepShareBp: salesRepShareBp,
            salesReps: reps,
            isTrial: campaign.isTrial,
          });
          adRows.push({
            day,
            adId: ad.id,
            publisherId: publisher.id,
            device: display.device,
            campaignId: campaign.id,
            advertiserId: ad.advertiserId,
            channel: owl ? 'owl' : 'web',
            ...figures,
            cost: unit.advertiserCost * units,
            publisherRevenue: unit.publisher * units,
            salesRepRevenue: unit.salesRep * units,
            companyRevenue: unit.company * units,
            trialCost: unit.trialCost * units,
          });
          totals.served += figures.served;
          totals.impressions += figures.impressions;
          totals.clicks += figures.clicks;
          if (owl) return;
          // The ad's figures on each page, in the proportions of the pages' pageviews.
          const shares = PAGES.map(([, share]) => share);
          const split = {
            impressions: splitInteger(figures.impressions, shares),
            clicks: splitInteger(figures.clicks, shares),
            leads: splitInteger(figures.leads, shares),
            cost: splitInteger(unit.advertiserCost * units, shares),
          };
          PAGES.forEach(([path], page) => {
            const impressions = split.impressions[page] ?? 0;
            const clicks = split.clicks[page] ?? 0;
            if (impressions === 0 && clicks === 0) return;
            urlRows.push({
              day,
              publisherId: publisher.id,
              url: `${origin}${path}`,
              device: display.device,
              adId: ad.id,
              campaignId: campaign.id,
              pageviews: 0,
              impressions,
              clicks,
              leads: split.leads[page] ?? 0,
              cost: split.cost[page] ?? 0,
            });
          });
        });
      }

      urlRows.push(...urlPageviews);
      for (const [device, totals] of perDevice) {
        dayRows.push({
          day,
          publisherId: publisher.id,
          device,
          pageviews: totals.pageviews,
          invalidPageviews: totals.invalid,
          served: totals.served,
          impressions: totals.impressions,
          clicks: totals.clicks,
        });
      }

      // The realtime counters of the last full day: its figures spread over its minutes.
      if (back === 1) {
        const minutes = Array.from(
          { length: DAY_MS / MINUTE_MS },
          (_, index) => new Date(dayStart.getTime() + index * MINUTE_MS),
        );
        const weights = minutes.map((minute) => minuteShare(minute, model) * (0.7 + 0.6 * random()));
        const spread = (value: number | undefined) => splitInteger(value ?? 0, weights);
        const desktop = perDevice.get('desktop');
        const mobile = perDevice.get('mobile');
        const columns = {
          pageviewsDesktop: spread(desktop?.pageviews),
          pageviewsMobile: spread(mobile?.pageviews),
          impressionsDesktop: spread(desktop?.impressions),
          impressionsMobile: spread(mobile?.impressions),
        };
        minutes.forEach((minute, index) => {
          const row = {
            publisherId: publisher.id,
            minute,
            pageviewsDesktop: columns.pageviewsDesktop[index] ?? 0,
            pageviewsMobile: columns.pageviewsMobile[index] ?? 0,
            impressionsDesktop: columns.impressionsDesktop[index] ?? 0,
            impressionsMobile: columns.impressionsMobile[index] ?? 0,
          };
          if (row.pageviewsDesktop + row.pageviewsMobile + row.impressionsDesktop + row.impressionsMobile > 0) {
            minuteRows.push(row);
          }
        });
      }
    }
  }

  await insertInBatches(adRows, (batch) => db.insert(dailyAdStats).values(batch).onConflictDoNothing());
  await insertInBatches(urlRows, (batch) => db.insert(dailyUrlStats).values(batch).onConflictDoNothing());
  await insertInBatches(countryRows(adRows), (batch) =>
    db.insert(dailyCountryStats).values(batch).onConflictDoNothing(),
  );
  await insertInBatches(dayRows, (batch) => db.insert(dailyPublisherStats).values(batch).onConflictDoNothing());
  await insertInBatches(minuteRows, (batch) => db.insert(realtimeCounters).values(batch).onConflictDoNothing());
  for (const credit of credits.values()) {
    const { campaign } = credit;
    if (credit.impressions === campaign.remainingImpressions && credit.clicks === campaign.remainingClicks) continue;
    await db
      .update(campaigns)
      .set({ remainingImpressions: credit.impressions, remainingClicks: credit.clicks })
      .where(eq(campaigns.id, campaign.id));
  }
  return {
    adRows: adRows.length,
    urlRows: urlRows.length,
    publisherRows: dayRows.length,
    realtimeRows: minuteRows.length,
  };
}
