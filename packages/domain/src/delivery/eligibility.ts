/** Where an ad is shown: on a publisher's web pages or in its newsletter (owl). */
export type Channel = 'web' | 'owl';
export type Device = 'desktop' | 'mobile';

import { isMobileCompatible, isNewsletterFormat, VALIDATION } from '../ads.ts';

export interface PublisherValidation {
  state: number;
  /** A pending request not answered by then counts as approved (epoch ms). */
  expiresAt: number | null;
}

/** An ad is shown as a video when it is one and has its video file (else as its image, or a plain creative). */
export function isShownAsVideo(ad: { type: string; mp4: string | null }): boolean {
  return ad.type === 'video' && Boolean(ad.mp4);
}

/** What eligibility needs to know about an ad. */
export interface EligibleAdFacts {
  formatId: number;
  isWebOnly: boolean;
  isOwlOnly: boolean;
  /** Shown as a video: never in a newsletter, whose banner is an image e-mail clients show (no video). */
  isVideo: boolean;
  adminValidation: number;
  publisherValidation: PublisherValidation | null;
  isShowing: boolean;
  isEjected: boolean;
  /** False when the advertiser switched the ad off for this publisher. */
  isShownOnPublisher: boolean;
  /** Per-ad spending cap in micro-euros (0 = none) and what it has cost so far. */
  budget: number;
  spent: number;
}

/** What eligibility needs to know about the ad's campaign, as the server holds it in memory. */
export interface EligibleCampaignFacts {
  isCpc: boolean;
  remainingImpressions: number;
  remainingClicks: number;
  /** Impressions promised to served ads that have not been viewed yet. */
  reservedImpressions: number;
  /** AutoFlow daily cap of validated impressions; 0 = no cap. */
  pauseDailyImpressions: number;
  todayImpressions: number;
  /** Geotargeting: location codes "FR", "FR/ARA", "FR/ARA/Lyon"; empty = everywhere. */
  geoTargets: readonly string[];
}

export interface VisitorLocation {
  country: string;
  region?: string;
  city?: string;
}

export interface SlotFacts {
  channel: Channel;
  device: Device;
  /** Formats the placement (or the newsletter banner) accepts; null = any format of the channel. */
  formatIds: readonly number[] | null;
  location: VisitorLocation | null;
  /** Epoch ms. */
  now: number;
}

export type IneligibleReason =
  | 'notValidatedByAdmin'
  | 'notValidatedByPublisher'
  | 'ejected'
  | 'notShowing'
  | 'switchedOffForPublisher'
  | 'noCredits'
  | 'dailyCapReached'
  | 'budgetSpent'
  | 'formatNotOnMobile'
  | 'formatNotInPlacement'
  | 'wrongChannel'
  | 'outsideGeotargeting';

/** Whether a publisher's validation lets the ad show: approved, or a request left unanswered past its expiry. */
export function isPublisherApproved(validation: PublisherValidation | null, now: number): boolean {
  if (!validation) return false;
  if (validation.state === VALIDATION.approved) return true;
  return validation.state === VALIDATION.pending && validation.expiresAt !== null && validation.expiresAt <= now;
}

/** Credits a campaign can still promise: impressions not yet reserved (CPM) or clicks left (CPC). */
export function availableCredits(campaign: EligibleCampaignFacts): number {
  if (campaign.isCpc) return campaign.remainingClicks;
  return campaign.remainingImpressions - campaign.reservedImpressions;
}

export function matchesGeotargeting(targets: readonly string[], location: VisitorLocation | null): boolean {
  if (targets.length === 0) return true;
  if (!location) return false;
  const places = [
    location.country,
    location.region ? `${location.country}/${location.region}` : null,
    location.region && location.city ? `${location.country}/${location.region}/${location.city}` : null,
  ];
  return targets.some((target) => places.includes(target));
}

/** Why an ad cannot fill a slot, or null when it can (docs/decisions.md section 5). */
export function ineligibility(
  ad: EligibleAdFacts,
  campaign: EligibleCampaignFacts,
  slot: SlotFacts,
): IneligibleReason | null {
  if (ad.adminValidation !== VALIDATION.approved) return 'notValidatedByAdmin';
  if (!isPublisherApproved(ad.publisherValidation, slot.now)) return 'notValidatedByPublisher';
  if (ad.isEjected) return 'ejected';
  if (!ad.isShowing) return 'notShowing';
  if (!ad.isShownOnPublisher) return 'switchedOffForPublisher';
  if (availableCredits(campaign) <= 0) return 'noCredits';
  // Served ads not yet viewed may still be counted today: with them the cap is never exceeded.
  if (
    campaign.pauseDailyImpressions > 0 &&
    campaign.todayImpressions + campaign.reservedImpressions >= campaign.pauseDailyImpressions
  ) {
    return 'dailyCapReached';
  }
  if (ad.budget > 0 && ad.spent >= ad.budget) return 'budgetSpent';
  if (slot.channel === 'web') {
    if (ad.isOwlOnly || isNewsletterFormat(ad.formatId)) return 'wrongChannel';
    if (slot.device === 'mobile' && !isMobileCompatible(ad.formatId)) return 'formatNotOnMobile';
    if (slot.formatIds && !slot.formatIds.includes(ad.formatId)) return 'formatNotInPlacement';
  } else {
    if (ad.isWebOnly || ad.isVideo) return 'wrongChannel';
    if (slot.formatIds && !slot.formatIds.includes(ad.formatId)) return 'formatNotInPlacement';
  }
  if (!matchesGeotargeting(campaign.geoTargets, slot.location)) return 'outsideGeotargeting';
  return null;
}

export function isEligible(ad: EligibleAdFacts, campaign: EligibleCampaignFacts, slot: SlotFacts): boolean {
  return ineligibility(ad, campaign, slot) === null;
}
