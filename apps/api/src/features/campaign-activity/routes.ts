import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { adPublisherActivations, adPublisherValidations, ads, campaigns, publishers } from '@helium/db';
import { isPublisherApproved } from '@helium/domain';
import { autoFlowMax, isCampaignFinished, remainingCreditsEuros, AD_BUDGET_STEP_EUROS } from '@helium/domain/activity';
import { isoDay } from '@helium/domain/format';
import {
  getCampaignExCall,
  updateCampaignAdActivationCall,
  updateCampaignAdBudgetCall,
  updateCampaignAdEjectionCall,
  updateCampaignAutoPilotCall,
  updateCampaignPauseCall,
  updateStatsExCall,
} from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import {
  adSpentMicros,
  buildCampaignEx,
  findAdvertiserCampaign,
  findCampaignAd,
  isAdShowing,
  switchedOffPublishers,
  type ActivityHashIds,
} from './campaign-activity.ts';

const finishedError = () =>
  new HttpError(409, 'campaignFinished', 'This campaign has no credits left: its ads cannot be changed.');

/**
 * The advertiser's Activity screen calls (specification 02, section 7). Each one checks that the campaign
 * and the ad belong to the advertiser in use (403, nothing changed), refuses what the state forbids (409)
 * and announces delivery changes so that serving applies them at once.
 */
export default async function campaignActivityRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;
  const hashIds: ActivityHashIds = app.ctx.hashIds;

  route(app, getCampaignExCall, async ({ actor, body }) => {
    const advertiserId = actor.accountId;
    const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
    return buildCampaignEx(db, campaign, {
      doByPublisher: body.doByPublisher,
      doIncludeRealTimeHits: body.doIncludeRealTimeHits,
      doByUrl: body.doByUrl,
      locale: actor.locale,
      now: clock.now(),
      hashIds,
    });
  });

  /** The AutoFlow daily cap: 0 (off) up to the lesser of 50,000 and the remaining impressions. */
  route(app, updateCampaignPauseCall, async ({ actor, body }) => {
    const advertiserId = actor.accountId;
    const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
    if (campaign.isCpc && body.pauseDailyImpressions > 0) {
      throw new HttpError(409, 'autoFlowNotForClicks', 'AutoFlow caps impression-priced campaigns only.');
    }
    const max = autoFlowMax(campaign.remainingImpressions);
    if (body.pauseDailyImpressions > max) {
      throw new HttpError(422, 'autoFlowAboveMaximum', `The daily cap cannot exceed ${max} impressions.`);
    }
    await db
      .update(campaigns)
      .set({ pauseDailyImpressions: body.pauseDailyImpressions })
      .where(eq(campaigns.id, campaign.id));
    await app.delivery.refresh();
    return { status: 'ok' };
  });

  /** An ad's spending cap in euros (multiples of 100, 0 = none), at most what it could still spend. */
  route(app, updateCampaignAdBudgetCall, async ({ actor, body }) => {
    const advertiserId = actor.accountId;
    const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
    const ad = await findCampaignAd(db, campaign, body.ad.id);
    if (!campaign.canBudget) throw new HttpError(409, 'budgetNotAvailable', 'Budgets are not available here.');
    if (body.ad.budget > 0) {
      // What the engine counts against the budget: cost plus trial cost (a trial campaign spends trial cost).
      const spentEuros = (await adSpentMicros(db, ad.id)) / 1_000_000;
      const max =
        Math.ceil((spentEuros + remainingCreditsEuros(campaign)) / AD_BUDGET_STEP_EUROS) * AD_BUDGET_STEP_EUROS;
      if (body.ad.budget > Math.max(max, AD_BUDGET_STEP_EUROS)) {
        throw new HttpError(422, 'budgetAboveMaximum', `The budget cannot exceed ${max} euros.`);
      }
    }
    await db
      .update(ads)
      .set({ budget: body.ad.budget * 1_000_000 })
      .where(eq(ads.id, ad.id));
    await app.delivery.refresh();
    return { status: 'ok' };
  });

  /** Into the drawer (only a non-showing ad of a running campaign) or back out (unless locked). */
  route(app, updateCampaignAdEjectionCall, async ({ actor, body }) => {
    const advertiserId = actor.accountId;
    const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
    const ad = await findCampaignAd(db, campaign, body.adId);
    if (isCampaignFinished(campaign)) throw finishedError();
    if (body.doEject) {
      if (ad.isEjected) throw new HttpError(409, 'adAlreadyEjected', 'This ad is already in the drawer.');
      if (await isShowingNow(ad)) {
        throw new HttpError(409, 'adShowing', 'Switch the ad off before ejecting it.');
      }
      await db.update(ads).set({ isEjected: true }).where(eq(ads.id, ad.id));
    } else {
      if (!ad.isEjected) throw new HttpError(409, 'adNotEjected', 'This ad is not in the drawer.');
      if (ad.isLocked) throw new HttpError(409, 'adLocked', 'This ad is locked and cannot be re-injected.');
      await db.update(ads).set({ isEjected: false }).where(eq(ads.id, ad.id));
    }
    await app.delivery.refresh();
    return { status: 'ok' };
  });

  async function isShowingNow(ad: typeof ads.$inferSelect): Promise<boolean> {
    const now = clock.now().getTime();
    const validations = await db.select().from(adPublisherValidations).where(eq(adPublisherValidations.adId, ad.id));
    const approved = validations
      .filter((row) => isPublisherApproved({ state: row.state, expiresAt: row.expiresAt?.getTime() ?? null }, now))
      .map((row) => row.publisherId);
    const off = (await switchedOffPublishers(db, [ad.id])).get(ad.id) ?? new Set<number>();
    return isAdShowing(ad, { approvedPublisherIds: approved, switchedOff: off });
  }

  /** The activation switch of the whole ad (publisherId null) or of the ad on one publisher (doShow). */
  route(app, updateCampaignAdActivationCall, async ({ actor, body }) => {
    const advertiserId = actor.accountId;
    const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
    const ad = await findCampaignAd(db, campaign, body.adId);
    if (body.ad && body.ad.id !== body.adId) throw new HttpError(422, 'adMismatch', 'ad.id and adId differ.');
    if (isCampaignFinished(campaign)) throw finishedError();
    if (ad.isEjected) throw new HttpError(409, 'adEjected', 'Re-inject the ad before switching it on or off.');
    if (body.publisherId === null) {
      await db.update(ads).set({ isShowing: body.isAdActive }).where(eq(ads.id, ad.id));
      if (body.isAdActive) {
        // Switching the whole ad on shows it everywhere it is approved again.
        await db
          .update(adPublisherActivations)
          .set({ doShow: true, updatedAt: clock.now() })
          .where(eq(adPublisherActivations.adId, ad.id));
      }
    } else {
      if (!campaign.canActivateAdsByPublisher) {
        throw new HttpError(409, 'byPublisherNotAvailable', 'Per-publisher switches are not available here.');
      }
      if (body.isAdPublisherActive === undefined) {
        throw new HttpError(422, 'isAdPublisherActiveMissing', 'isAdPublisherActive is required with a publisher.');
      }
      const [publisher] = await db.select().from(publishers).where(eq(publishers.id, body.publisherId)).limit(1);
      if (!publisher) throw new HttpError(404, 'notFound', 'This publisher does not exist.');
      const [validation] = await db
        .select()
        .from(adPublisherValidations)
        .where(and(eq(adPublisherValidations.adId, ad.id), eq(adPublisherValidations.publisherId, publisher.id)))
        .limit(1);
      const authorised =
        validation !== undefined &&
        isPublisherApproved(
          { state: validation.state, expiresAt: validation.expiresAt?.getTime() ?? null },
          clock.now().getTime(),
        );
      if (!publisher.isInstalled) {
        throw new HttpError(409, 'publisherNotInstalled', 'This publisher has not installed the script.');
      }
      if (!authorised) {
        throw new HttpError(409, 'publisherNotAuthorized', 'This publisher has not approved this ad.');
      }
      await db
        .insert(adPublisherActivations)
        .values({ adId: ad.id, publisherId: publisher.id, doShow: body.isAdPublisherActive, updatedAt: clock.now() })
        .onConflictDoUpdate({
          target: [adPublisherActivations.adId, adPublisherActivations.publisherId],
          set: { doShow: body.isAdPublisherActive, updatedAt: clock.now() },
        });
      // A publisher switched on makes the ad count as showing again.
      if (body.isAdPublisherActive && !ad.isShowing) {
        await db.update(ads).set({ isShowing: true }).where(eq(ads.id, ad.id));
      }
    }
    await app.delivery.refresh();
    return { status: 'ok' };
  });

  route(app, updateCampaignAutoPilotCall, async ({ actor, body }) => {
    const advertiserId = actor.accountId;
    const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
    if (!campaign.isAutoPilotVisible) {
      throw new HttpError(409, 'autoPilotNotAvailable', 'AutoPilot cannot be switched for this campaign.');
    }
    await db.update(campaigns).set({ isAutoPilot: body.isAutoPilot }).where(eq(campaigns.id, campaign.id));
    await app.delivery.refresh();
    return { status: 'ok' };
  });

  /** The stored date range: one day, two days (ordered), or null for all dates; never after today. */
  route(app, updateStatsExCall, async ({ actor, body }) => {
    const advertiserId = actor.accountId;
    const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
    const days =
      body.statsExDates === null
        ? []
        : typeof body.statsExDates === 'string'
          ? [body.statsExDates]
          : [...body.statsExDates];
    const today = isoDay(clock.now());
    if (days.some((day) => day > today)) {
      throw new HttpError(422, 'dateInFuture', 'The date range cannot go beyond today.');
    }
    const sorted = [...days].sort();
    await db
      .update(campaigns)
      .set({ statsDateFrom: sorted[0] ?? null, statsDateTo: sorted[sorted.length - 1] ?? null })
      .where(eq(campaigns.id, campaign.id));
    return { status: 'ok' };
  });
}
