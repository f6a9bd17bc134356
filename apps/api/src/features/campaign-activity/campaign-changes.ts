import { eq } from 'drizzle-orm';
import { adPublisherActivations, adPublisherValidations, ads, campaigns, publishers, type Database } from '@helium/db';
import { eurosToMicros, isPublisherApproved, microsToEuros } from '@helium/domain';
import { approvedPublisherIds, type AdSwitchFacts } from '@helium/domain/activity';
import {
  activationRefusal,
  adBudgetRefusal,
  autoFlowRefusal,
  autoPilotRefusal,
  ejectionRefusal,
  statsRange,
  statsRangeRefusal,
  type CampaignChangeReason,
  type CampaignChangeRefusal,
  type PublisherSwitchChange,
} from '@helium/domain/campaign-changes';
import { isoDay } from '@helium/domain/format';
import type {
  TUpdateCampaignAdActivationRequest,
  TUpdateCampaignAdBudgetRequest,
  TUpdateCampaignAdEjectionRequest,
  TUpdateCampaignAutoPilotRequest,
  TUpdateCampaignPauseRequest,
  TUpdateStatsExRequest,
} from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import {
  adSpentMicros,
  findAdvertiserCampaign,
  findCampaignAd,
  findPublisherValidation,
  publisherValidation,
  switchedOffPublishers,
  type AdRow,
} from './campaign-reads.ts';

/*
 * The advertiser's changes on the Activity screen (specification 02, section 7). Each one finds the campaign
 * and the ad of the advertiser in use (403, nothing changed), asks its rule (packages/domain/src/campaign-changes.ts),
 * answers the rule's refusal (409, or 422 over a maximum) and writes the change. The routes announce delivery
 * changes so that serving applies them at once.
 */

/** Each refusal's HTTP code and message; `{max}` is the limit the advertiser went over. */
const REFUSALS: Record<CampaignChangeReason, readonly [status: number, message: string]> = {
  campaignFinished: [409, 'This campaign has no credits left: its ads cannot be changed.'],
  autoFlowNotForClicks: [409, 'AutoFlow caps impression-priced campaigns only.'],
  autoFlowAboveMaximum: [422, 'The daily cap cannot exceed {max} impressions.'],
  budgetNotAvailable: [409, 'Budgets are not available here.'],
  budgetAboveMaximum: [422, 'The budget cannot exceed {max} euros.'],
  adAlreadyEjected: [409, 'This ad is already in the drawer.'],
  adShowing: [409, 'Switch the ad off before ejecting it.'],
  adNotEjected: [409, 'This ad is not in the drawer.'],
  adLocked: [409, 'This ad is locked and cannot be re-injected.'],
  adEjected: [409, 'Re-inject the ad before switching it on or off.'],
  byPublisherNotAvailable: [409, 'Per-publisher switches are not available here.'],
  isAdPublisherActiveMissing: [422, 'isAdPublisherActive is required with a publisher.'],
  publisherNotFound: [404, 'This publisher does not exist.'],
  publisherNotInstalled: [409, 'This publisher has not installed the script.'],
  publisherNotAuthorized: [409, 'This publisher has not approved this ad.'],
  autoPilotNotAvailable: [409, 'AutoPilot cannot be switched for this campaign.'],
  dateInFuture: [422, 'The date range cannot go beyond today.'],
};

/** Throws the HTTP answer of a rule's refusal; nothing when the rule lets the change go ahead. */
function refuse(refusal: CampaignChangeRefusal | null): void {
  if (!refusal) return;
  const [status, message] = REFUSALS[refusal.reason];
  // An unknown publisher is answered like any missing record.
  const key = refusal.reason === 'publisherNotFound' ? 'notFound' : refusal.reason;
  throw new HttpError(status, key, 'max' in refusal ? message.replace('{max}', String(refusal.max)) : message);
}

/** The advertiser's campaign and its ad (403 when either is someone else's, 404 when missing). */
async function findCampaignAndAd(db: Database, advertiserId: number, campaignId: number, adId: number) {
  const campaign = await findAdvertiserCampaign(db, advertiserId, campaignId);
  return { campaign, ad: await findCampaignAd(db, campaign, adId) };
}

/** POST update-campaign-pause: the AutoFlow daily cap, 0 (off) up to the lesser of 50,000 and the impressions left. */
export async function updateCampaignPause(db: Database, advertiserId: number, body: TUpdateCampaignPauseRequest) {
  const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
  refuse(autoFlowRefusal(campaign, body.pauseDailyImpressions));
  await db
    .update(campaigns)
    .set({ pauseDailyImpressions: body.pauseDailyImpressions })
    .where(eq(campaigns.id, campaign.id));
}

/**
 * POST update-campaign-ad-budget: an ad's spending cap in euros (multiples of 100, 0 = none), at most what it
 * could still spend. What it has spent is what the engine counts against the budget: cost plus trial cost.
 */
export async function updateCampaignAdBudget(db: Database, advertiserId: number, body: TUpdateCampaignAdBudgetRequest) {
  const { campaign, ad } = await findCampaignAndAd(db, advertiserId, body.campaignId, body.ad.id);
  refuse(adBudgetRefusal(campaign, body.ad.budget, microsToEuros(await adSpentMicros(db, ad.id))));
  await db
    .update(ads)
    .set({ budget: eurosToMicros(body.ad.budget) })
    .where(eq(ads.id, ad.id));
}

/** POST update-campaign-ad-ejection: into the drawer (an ad not showing) or back out (unless locked). */
export async function updateCampaignAdEjection(
  db: Database,
  advertiserId: number,
  body: TUpdateCampaignAdEjectionRequest,
  now: Date,
) {
  const { campaign, ad } = await findCampaignAndAd(db, advertiserId, body.campaignId, body.adId);
  refuse(ejectionRefusal(campaign, { ...ad, ...(await adSwitchFacts(db, ad, now)) }, body.doEject));
  await db.update(ads).set({ isEjected: body.doEject }).where(eq(ads.id, ad.id));
}

/** Where an ad shows now: its switch, the publishers that approved it and those it is switched off on. */
async function adSwitchFacts(db: Database, ad: AdRow, now: Date): Promise<AdSwitchFacts> {
  const validations = await db.select().from(adPublisherValidations).where(eq(adPublisherValidations.adId, ad.id));
  return {
    isShowing: ad.isShowing,
    approvedPublisherIds: approvedPublisherIds(
      validations.map((row) => [row.publisherId, publisherValidation(row)] as const),
      now.getTime(),
    ),
    switchedOff: (await switchedOffPublishers(db, [ad.id])).get(ad.id) ?? new Set<number>(),
  };
}

/** POST update-campaign-ad-activation: the switch of the whole ad (publisherId null) or of the ad on one publisher. */
export async function updateCampaignAdActivation(
  db: Database,
  advertiserId: number,
  body: TUpdateCampaignAdActivationRequest,
  now: Date,
) {
  const { campaign, ad } = await findCampaignAndAd(db, advertiserId, body.campaignId, body.adId);
  if (body.ad && body.ad.id !== body.adId) throw new HttpError(422, 'adMismatch', 'ad.id and adId differ.');
  const onPublisher: PublisherSwitchChange | null =
    body.publisherId === null
      ? null
      : {
          isAdPublisherActive: body.isAdPublisherActive,
          publisher: await publisherFacts(db, ad.id, body.publisherId, now),
        };
  refuse(activationRefusal(campaign, ad, onPublisher));
  if (body.publisherId === null) await switchAd(db, ad, body.isAdActive, now);
  else await switchAdOnPublisher(db, ad, body.publisherId, body.isAdPublisherActive === true, now);
}

/** A publisher as a per-publisher switch needs it: installed, and whether it approved the ad; null when missing. */
async function publisherFacts(
  db: Database,
  adId: number,
  publisherId: number,
  now: Date,
): Promise<PublisherSwitchChange['publisher']> {
  const [publisher] = await db.select().from(publishers).where(eq(publishers.id, publisherId)).limit(1);
  if (!publisher) return null;
  const validation = await findPublisherValidation(db, adId, publisherId);
  return { isInstalled: publisher.isInstalled, hasApprovedAd: isPublisherApproved(validation, now.getTime()) };
}

/** The whole ad's switch; switching it on shows it again everywhere it is approved. */
async function switchAd(db: Database, ad: AdRow, isActive: boolean, now: Date) {
  await db.update(ads).set({ isShowing: isActive }).where(eq(ads.id, ad.id));
  if (isActive) {
    await db
      .update(adPublisherActivations)
      .set({ doShow: true, updatedAt: now })
      .where(eq(adPublisherActivations.adId, ad.id));
  }
}

/** The ad's switch on one publisher; switching it on there makes the ad count as showing again. */
async function switchAdOnPublisher(db: Database, ad: AdRow, publisherId: number, doShow: boolean, now: Date) {
  await db
    .insert(adPublisherActivations)
    .values({ adId: ad.id, publisherId, doShow, updatedAt: now })
    .onConflictDoUpdate({
      target: [adPublisherActivations.adId, adPublisherActivations.publisherId],
      set: { doShow, updatedAt: now },
    });
  if (doShow && !ad.isShowing) await db.update(ads).set({ isShowing: true }).where(eq(ads.id, ad.id));
}

/** POST update-campaign-autopilot */
export async function updateCampaignAutoPilot(
  db: Database,
  advertiserId: number,
  body: TUpdateCampaignAutoPilotRequest,
) {
  const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
  refuse(autoPilotRefusal(campaign));
  await db.update(campaigns).set({ isAutoPilot: body.isAutoPilot }).where(eq(campaigns.id, campaign.id));
}

/** POST update-stats-ex: the stored date range: one day, two days (ordered), or null for all dates. */
export async function updateStatsEx(db: Database, advertiserId: number, body: TUpdateStatsExRequest, now: Date) {
  const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
  refuse(statsRangeRefusal(body.statsExDates, isoDay(now)));
  const range = statsRange(body.statsExDates);
  await db
    .update(campaigns)
    .set({ statsDateFrom: range?.from ?? null, statsDateTo: range?.to ?? null })
    .where(eq(campaigns.id, campaign.id));
}
