import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { advertisers, campaigns, dailyAdStats, publishers, type Database } from '@helium/db';
import {
  CREDIT_PACE_DAYS,
  creditDaysLeft,
  creditUnitsLeft,
  remainingCreditsEuros,
  shiftDay,
} from '@helium/domain/activity';
import { payoutBlocker } from '@helium/domain/payouts';
import { isoDay } from '@helium/domain/format';
import { buildCampaignEx, type ActivityHashIds, type CampaignRow } from '../campaign-activity/campaign-activity.ts';
import { payoutFacts, payoutSetup, publisherBalance, type SettingsRow } from '../payouts/accounting.ts';
import { publisherStatsDays } from '../publisher-stats/publisher-stats.ts';
import { DAY_CLOSE_GRACE_MS } from '../revenue-ledger/daily-ledger.ts';
import type { CampaignCredits, CampaignWeek, PublisherWeek, ReportWeek } from './report-mails.ts';

/*
 * The figures of the reports, read by the queries the screens use: a campaign's week is the Activity screen's
 * campaign figures (buildCampaignEx) over that week; a publisher's week is its Stats screen's closed days
 * (publisherStatsDays) of that week; its balance and payout are Accounting's (publisherBalance, payoutBlocker).
 */

/** The first UTC day not yet closed (days before it are final): as the daily ledger and the Stats screen have it. */
export const firstOpenDay = (now: Date): string => isoDay(new Date(now.getTime() - DAY_CLOSE_GRACE_MS));

export type Delivered = { impressions: number; clicks: number };

/**
 * What each campaign delivered over the CREDIT_PACE_DAYS closed days before `now` (validated impressions and
 * clicks of all its ads, deleted ones too: they spent credits): its recent pace.
 */
export async function recentDelivery(db: Database, now: Date, campaignIds?: number[]): Promise<Map<number, Delivered>> {
  if (campaignIds?.length === 0) return new Map();
  const today = firstOpenDay(now);
  const rows = await db
    .select({
      campaignId: dailyAdStats.campaignId,
      impressions: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${dailyAdStats.clicks}), 0)::int`,
    })
    .from(dailyAdStats)
    .where(
      and(
        gte(dailyAdStats.day, shiftDay(today, -CREDIT_PACE_DAYS)),
        lte(dailyAdStats.day, shiftDay(today, -1)),
        campaignIds ? inArray(dailyAdStats.campaignId, campaignIds) : undefined,
      ),
    )
    .groupBy(dailyAdStats.campaignId);
  return new Map(
    rows.map((row) => [row.campaignId, { impressions: Number(row.impressions), clicks: Number(row.clicks) }]),
  );
}

/** A campaign's credits left, their worth, and the days they last at its recent pace. */
export function campaignCredits(campaign: CampaignRow, delivered: Delivered | undefined): CampaignCredits {
  return {
    units: creditUnitsLeft(campaign),
    euros: remainingCreditsEuros(campaign),
    daysLeft: creditDaysLeft(campaign, delivered ?? { impressions: 0, clicks: 0 }),
  };
}

/** The advertiser accounts a user holds, each with its campaigns (oldest first). */
export async function heldAdvertiserCampaigns(db: Database, userId: number) {
  const held = await db
    .select({ id: advertisers.id, brand: advertisers.brand })
    .from(advertisers)
    .where(eq(advertisers.userId, userId))
    .orderBy(asc(advertisers.id));
  const rows = held.length
    ? await db
        .select()
        .from(campaigns)
        .where(
          inArray(
            campaigns.advertiserId,
            held.map((advertiser) => advertiser.id),
          ),
        )
        .orderBy(asc(campaigns.id))
    : [];
  return held.map((advertiser) => ({
    ...advertiser,
    campaigns: rows.filter((campaign) => campaign.advertiserId === advertiser.id),
  }));
}

/**
 * The user's campaigns over the week: the Activity screen's figures with the week as its date range, the credits
 * left and the days they last. A campaign with no credits and nothing delivered that week is left out.
 */
export async function advertiserWeek(
  db: Database,
  userId: number,
  options: { week: ReportWeek; now: Date; hashIds: ActivityHashIds },
): Promise<{ campaigns: CampaignWeek[]; brandsWithoutCampaign: string[] }> {
  const held = await heldAdvertiserCampaigns(db, userId);
  const all = held.flatMap((advertiser) => advertiser.campaigns.map((campaign) => ({ advertiser, campaign })));
  const delivery = await recentDelivery(
    db,
    options.now,
    all.map(({ campaign }) => campaign.id),
  );
  const weeks: CampaignWeek[] = [];
  for (const { advertiser, campaign } of all) {
    const ex = await buildCampaignEx(
      db,
      { ...campaign, statsDateFrom: options.week.monday, statsDateTo: options.week.sunday },
      {
        doByPublisher: false,
        doIncludeRealTimeHits: true,
        doByUrl: false,
        locale: 'en',
        now: options.now,
        hashIds: options.hashIds,
      },
    );
    const total = ex.stats.total;
    const credits = campaignCredits(campaign, delivery.get(campaign.id));
    if (credits.units <= 0 && total.impressions === 0 && total.clicks === 0) continue;
    weeks.push({
      id: campaign.id,
      brand: advertiser.brand,
      isCpc: campaign.isCpc,
      impressions: total.impressions,
      clicks: total.clicks,
      ctr: total.ctr,
      leads: total.leads,
      costs: total.costs,
      credits,
    });
  }
  return {
    campaigns: weeks,
    brandsWithoutCampaign: held.filter((advertiser) => advertiser.campaigns.length === 0).map((a) => a.brand),
  };
}

/** The user's publishers over the week (the Stats screen's closed days), with balance and payout (Accounting's). */
export async function publisherWeek(
  db: Database,
  userId: number,
  options: { week: ReportWeek; now: Date; settings: SettingsRow },
): Promise<PublisherWeek[]> {
  const held = await db.select().from(publishers).where(eq(publishers.userId, userId)).orderBy(asc(publishers.id));
  const weeks: PublisherWeek[] = [];
  for (const publisher of held) {
    const days = (await publisherStatsDays(db, publisher.id, options.now)).filter(
      (day) => day.day >= options.week.monday && day.day <= options.week.sunday,
    );
    const balance = await publisherBalance(db, publisher.id);
    const setup = await payoutSetup(db, publisher, options.settings);
    weeks.push({
      brand: publisher.brand,
      impressions: days.reduce((sum, day) => sum + day.impressions, 0),
      revenueMicros: days.reduce((sum, day) => sum + day.publisherRevenue, 0),
      balanceMicros: balance,
      minBalanceForPayoutMicros: setup.minBalanceForPayout,
      blocker: payoutBlocker(payoutFacts(setup, balance)),
    });
  }
  return weeks;
}
