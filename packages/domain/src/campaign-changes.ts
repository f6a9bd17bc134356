/**
 * What the advertiser may change on the Activity screen (specification 02, sections 5, 7 and 9): the AutoFlow
 * cap, an ad's budget, ejection, the activation switches, AutoPilot and the stats date range. Each rule answers
 * why the campaign's or the ad's state refuses the change, or null when it may go ahead; the API turns a
 * refusal into its HTTP answer. Pure functions; budgets in euros.
 */
import {
  adBudgetMaxEuros,
  autoFlowMax,
  isAdShowing,
  isCampaignFinished,
  normaliseRange,
  remainingCreditsEuros,
  AD_BUDGET_STEP_EUROS,
  type AdSwitchFacts,
} from './activity.ts';

/** Why a change is refused; the two maxima carry the limit the advertiser went over. */
export type CampaignChangeRefusal =
  | {
      reason:
        | 'campaignFinished'
        | 'autoFlowNotForClicks'
        | 'budgetNotAvailable'
        | 'adAlreadyEjected'
        | 'adShowing'
        | 'adNotEjected'
        | 'adLocked'
        | 'adEjected'
        | 'byPublisherNotAvailable'
        | 'isAdPublisherActiveMissing'
        | 'publisherNotFound'
        | 'publisherNotInstalled'
        | 'publisherNotAuthorized'
        | 'autoPilotNotAvailable'
        | 'dateInFuture';
    }
  | { reason: 'autoFlowAboveMaximum' | 'budgetAboveMaximum'; max: number };

export type CampaignChangeReason = CampaignChangeRefusal['reason'];

/** What the rules need of a campaign's credits. */
export interface CampaignCredits {
  isCpc: boolean;
  remainingImpressions: number;
  remainingClicks: number;
}

const refusal = (reason: Exclude<CampaignChangeReason, 'autoFlowAboveMaximum' | 'budgetAboveMaximum'>) => ({
  reason,
});

/** The AutoFlow daily cap (0 = off): impression-priced campaigns only, up to `autoFlowMax`. */
export function autoFlowRefusal(campaign: CampaignCredits, dailyCap: number): CampaignChangeRefusal | null {
  if (campaign.isCpc && dailyCap > 0) return refusal('autoFlowNotForClicks');
  const max = autoFlowMax(campaign.remainingImpressions);
  return dailyCap > max ? { reason: 'autoFlowAboveMaximum', max } : null;
}

/**
 * An ad's budget in euros (0 = no cap), where the campaign offers budgets: at most what the ad has spent plus
 * the campaign's remaining credits, rounded up to the budget step (`adBudgetMaxEuros`), and one step always.
 */
export function adBudgetRefusal(
  campaign: CampaignCredits & { canBudget: boolean; cpm: number; cpc: number },
  budgetEuros: number,
  spentEuros: number,
): CampaignChangeRefusal | null {
  if (!campaign.canBudget) return refusal('budgetNotAvailable');
  if (budgetEuros <= 0) return null;
  const max = adBudgetMaxEuros(spentEuros, remainingCreditsEuros(campaign));
  return budgetEuros > Math.max(max, AD_BUDGET_STEP_EUROS) ? { reason: 'budgetAboveMaximum', max } : null;
}

/**
 * Into the drawer (ejected) or back out, while the campaign has credits: only an ad not showing goes in (the
 * advertiser switches it off first), and a locked ad never comes back out.
 */
export function ejectionRefusal(
  campaign: CampaignCredits,
  ad: AdSwitchFacts & { isEjected: boolean; isLocked: boolean },
  doEject: boolean,
): CampaignChangeRefusal | null {
  if (isCampaignFinished(campaign)) return refusal('campaignFinished');
  if (doEject) {
    if (ad.isEjected) return refusal('adAlreadyEjected');
    if (isAdShowing(ad)) return refusal('adShowing');
    return null;
  }
  if (!ad.isEjected) return refusal('adNotEjected');
  if (ad.isLocked) return refusal('adLocked');
  return null;
}

/** A per-publisher switch as asked, with what is known of the publisher. */
export interface PublisherSwitchChange {
  /** The switch asked for; undefined when the request left it out. */
  isAdPublisherActive: boolean | undefined;
  /** null: no such publisher. */
  publisher: { isInstalled: boolean; hasApprovedAd: boolean } | null;
}

/**
 * The activation switch of a whole ad (`onPublisher` null) or of the ad on one publisher, while the campaign
 * has credits and the ad is out of the drawer. A per-publisher switch needs the campaign to offer them, and a
 * publisher that installed the script and approved the ad.
 */
export function activationRefusal(
  campaign: CampaignCredits & { canActivateAdsByPublisher: boolean },
  ad: { isEjected: boolean },
  onPublisher: PublisherSwitchChange | null,
): CampaignChangeRefusal | null {
  if (isCampaignFinished(campaign)) return refusal('campaignFinished');
  if (ad.isEjected) return refusal('adEjected');
  if (onPublisher === null) return null;
  if (!campaign.canActivateAdsByPublisher) return refusal('byPublisherNotAvailable');
  if (onPublisher.isAdPublisherActive === undefined) return refusal('isAdPublisherActiveMissing');
  if (!onPublisher.publisher) return refusal('publisherNotFound');
  if (!onPublisher.publisher.isInstalled) return refusal('publisherNotInstalled');
  if (!onPublisher.publisher.hasApprovedAd) return refusal('publisherNotAuthorized');
  return null;
}

/** AutoPilot can be switched only where the campaign shows its switch. */
export function autoPilotRefusal(campaign: { isAutoPilotVisible: boolean }): CampaignChangeRefusal | null {
  return campaign.isAutoPilotVisible ? null : refusal('autoPilotNotAvailable');
}

/** A stats date range as asked: null (all dates), one day, or two days in any order (`YYYY-MM-DD`). */
export type StatsDates = null | string | readonly string[];

function daysOf(dates: StatsDates): readonly string[] {
  if (dates === null) return [];
  return typeof dates === 'string' ? [dates] : dates;
}

/** The stats date range never goes beyond today (a UTC day `YYYY-MM-DD`). */
export function statsRangeRefusal(dates: StatsDates, today: string): CampaignChangeRefusal | null {
  return daysOf(dates).some((day) => day > today) ? refusal('dateInFuture') : null;
}

/** The range as stored: first and last day, ordered (the same day twice for one day); null for all dates. */
export function statsRange(dates: StatsDates): { from: string; to: string } | null {
  return normaliseRange(daysOf(dates));
}
