import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { adPublisherValidations, ads, campaigns, dailyAdStats, dailyUrlStats, publishers } from '../schema/index.ts';

/**
 * The campaign activity screens' demo step: 14 days of daily figures (UTC days up to yesterday) for every
 * validated ad on the publishers that approved it, per device, with a few page URLs, so that the advertiser's
 * Activity screen and the admin's activity views have history on a fresh install. Figures are made by a
 * seeded generator: the same every time. Rows already present (the delivery engine's) are kept.
 */
export const ACTIVITY_HISTORY_DAYS = 14;

function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PAGES = ['/', '/blog/hiking-gear', '/blog/winter-camping', '/recettes/tarte', '/guides/alpes'];

export async function seedActivityHistory(db: Database, now: Date = new Date()): Promise<{ rows: number }> {
  const random = generator(20_260_901);
  const campaignRows = await db.select().from(campaigns);
  const campaignById = new Map(campaignRows.map((row) => [row.id, row]));
  const publisherRows = await db.select().from(publishers);
  const publisherById = new Map(publisherRows.map((row) => [row.id, row]));
  const approved = await db
    .select({ adId: ads.id, publisherId: adPublisherValidations.publisherId, ad: ads })
    .from(ads)
    .innerJoin(adPublisherValidations, eq(adPublisherValidations.adId, ads.id))
    .where(and(eq(ads.adminValidation, 1), eq(adPublisherValidations.state, 1), isNull(ads.deletedAt)));

  const adRows: Array<typeof dailyAdStats.$inferInsert> = [];
  const urlRows: Array<typeof dailyUrlStats.$inferInsert> = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const { ad, publisherId } of approved) {
    const campaign = campaignById.get(ad.campaignId);
    const publisher = publisherById.get(publisherId);
    if (!campaign || !publisher) continue;
    const owl = ad.isOwlOnly || ad.formatId === 2;
    if (owl ? !publisher.isOwl : !publisher.isWeb) continue;
    const quality = 0.002 + random() * 0.012;
    for (let back = ACTIVITY_HISTORY_DAYS; back >= 1; back--) {
      const day = new Date(today - back * 86_400_000).toISOString().slice(0, 10);
      for (const device of ['desktop', 'mobile'] as const) {
        if (device === 'mobile' && ad.formatId === 1) continue;
        const impressions = Math.round((device === 'desktop' ? 300 : 200) * (0.5 + random()));
        const clicks = Math.round(impressions * quality * (0.6 + random() * 0.8));
        const leads = Math.round(clicks * 0.08 * random());
        const cost = campaign.isCpc ? clicks * campaign.cpc : Math.round((impressions * campaign.cpm) / 1000);
        const publisherRevenue = Math.round(cost * 0.7);
        adRows.push({
          day,
          adId: ad.id,
          publisherId,
          device,
          campaignId: campaign.id,
          advertiserId: ad.advertiserId,
          channel: owl ? 'owl' : 'web',
          served: Math.round(impressions * 1.15),
          impressions,
          clicks,
          allClicks: clicks + Math.round(random() * 2),
          leads,
          cost,
          publisherRevenue,
          companyRevenue: cost - publisherRevenue,
          trialCost: campaign.isTrial ? cost : 0,
        });
        if (owl) continue;
        // Split the day's figures over two of the pages of this publisher.
        const first = PAGES[Math.floor(random() * PAGES.length)] as string;
        const second = PAGES.find((page) => page !== first) as string;
        const host = publisher.domain ?? 'localhost';
        const part = Math.round(impressions * 0.6);
        const clickPart = Math.round(clicks * 0.6);
        const leadPart = Math.round(leads * 0.6);
        const costPart = Math.round(cost * 0.6);
        for (const [path, share] of [
          [first, { impressions: part, clicks: clickPart, leads: leadPart, cost: costPart }],
          [
            second,
            {
              impressions: impressions - part,
              clicks: clicks - clickPart,
              leads: leads - leadPart,
              cost: cost - costPart,
            },
          ],
        ] as const) {
          urlRows.push({
            day,
            publisherId,
            url: `https://${host}${path}`,
            device,
            adId: ad.id,
            campaignId: campaign.id,
            pageviews: 0,
            ...share,
          });
        }
      }
    }
  }
  for (let index = 0; index < adRows.length; index += 500) {
    await db
      .insert(dailyAdStats)
      .values(adRows.slice(index, index + 500))
      .onConflictDoNothing();
  }
  for (let index = 0; index < urlRows.length; index += 500) {
    await db
      .insert(dailyUrlStats)
      .values(urlRows.slice(index, index + 500))
      .onConflictDoNothing();
  }
  return { rows: adRows.length };
}
