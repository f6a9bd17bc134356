/**
 * Campaign activity figures (specification 02, sections 2.1, 3, 5; specification 01, sections 2 and 9):
 * the metric line every screen shows, budget choices, AutoFlow days, days-to-empty colours and fading.
 * Pure functions; money in micro-euros in, euros out.
 */
import { isPublisherApproved, type PublisherValidation } from './delivery/eligibility.ts';
import { MICROS_PER_EURO } from './money.ts';

export interface Counts {
  impressions: number;
  clicks: number;
  leads: number;
  /** Micro-euros. */
  cost: number;
}

export interface MetricLine {
  impressions: number;
  clicks: number;
  /** Percent. */
  ctr: number;
  /** Euros. */
  cpc: number;
  cpm: number;
  costs: number;
  /** null = N/A (the campaign reports no leads). */
  leads: number | null;
  lr: number | null;
  cpl: number | null;
}

export const NO_COUNTS: Counts = { impressions: 0, clicks: 0, leads: 0, cost: 0 };

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    impressions: a.impressions + b.impressions,
    clicks: a.clicks + b.clicks,
    leads: a.leads + b.leads,
    cost: a.cost + b.cost,
  };
}

/**
 * impressions, clicks, CTR = clicks / impressions, CPC = cost / clicks, CPM = cost / impressions x 1000,
 * LR = leads / clicks, CPL = cost / leads. `tracksLeads` false gives N/A for leads, LR and CPL; LR and CPL
 * are also N/A when their divisor is 0.
 */
export function metricLine(counts: Counts, tracksLeads: boolean): MetricLine {
  const costs = counts.cost / MICROS_PER_EURO;
  return {
    impressions: counts.impressions,
    clicks: counts.clicks,
    ctr: counts.impressions > 0 ? (counts.clicks / counts.impressions) * 100 : 0,
    cpc: counts.clicks > 0 ? costs / counts.clicks : 0,
    cpm: counts.impressions > 0 ? (costs / counts.impressions) * 1000 : 0,
    costs,
    leads: tracksLeads ? counts.leads : null,
    lr: tracksLeads && counts.clicks > 0 ? (counts.leads / counts.clicks) * 100 : null,
    cpl: tracksLeads && counts.leads > 0 ? costs / counts.leads : null,
  };
}

/** Remaining share in percent: remaining / (remaining + delivered) x 100; 0 when both are 0. */
export function remainingPct(remaining: number, delivered: number): number {
  const total = remaining + delivered;
  return total > 0 ? (Math.max(0, remaining) / total) * 100 : 0;
}

/** A campaign is finished when its remaining impressions (or clicks, when click-priced) reach 0. */
export function isCampaignFinished(campaign: {
  isCpc: boolean;
  remainingImpressions: number;
  remainingClicks: number;
}): boolean {
  return campaign.isCpc ? campaign.remainingClicks <= 0 : campaign.remainingImpressions <= 0;
}

/** What the remaining credits are worth, in euros: clicks x CPC or impressions x CPM / 1000. */
export function remainingCreditsEuros(campaign: {
  isCpc: boolean;
  remainingImpressions: number;
  remainingClicks: number;
  cpm: number;
  cpc: number;
}): number {
  const micros = campaign.isCpc
    ? campaign.remainingClicks * campaign.cpc
    : (campaign.remainingImpressions * campaign.cpm) / 1000;
  return Math.max(0, micros) / MICROS_PER_EURO;
}

/** What decides whether an ad is showing: its own switch and, per publisher, approval and switch. */
export interface AdSwitchFacts {
  /** The ad's switch (all publishers). */
  isShowing: boolean;
  /** The publishers whose validation lets the ad show now (`isPublisherApproved`). */
  approvedPublisherIds: readonly number[];
  /** The publishers the advertiser switched the ad off for. */
  switchedOff: ReadonlySet<number>;
}

/** The publishers whose validation lets an ad show at `now` (epoch ms), from its validations by publisher. */
export function approvedPublisherIds(
  validations: Iterable<readonly [publisherId: number, validation: PublisherValidation]>,
  now: number,
): number[] {
  return [...validations].filter(([, validation]) => isPublisherApproved(validation, now)).map(([id]) => id);
}

/**
 * An ad counts as showing when its switch is on and it is shown on at least one publisher that approved
 * it (specification 02, section 4); with no approving publisher, its switch alone decides.
 */
export function isAdShowing(ad: AdSwitchFacts): boolean {
  if (!ad.isShowing) return false;
  if (ad.approvedPublisherIds.length === 0) return true;
  return ad.approvedPublisherIds.some((id) => !ad.switchedOff.has(id));
}

export const AD_BUDGET_STEP_EUROS = 100;
/** The most choices the budget selector offers. */
export const AD_BUDGET_MAX_CHOICES = 200;

/**
 * The ad budget selector's choices (euros, multiples of 100): from the first multiple of 100 above what
 * the ad has cost up to what it could cost at most (its cost plus the campaign's remaining credits), plus
 * the current budget if it is not among them. The "no budget" choice (-1, sent as 0) is the caller's.
 */
export function budgetChoices(costsEuros: number, remainingMaxBudgetEuros: number, current = 0): number[] {
  const step = AD_BUDGET_STEP_EUROS;
  const first = Math.max(step, Math.floor(costsEuros / step) * step + step);
  const last = adBudgetMaxEuros(costsEuros, remainingMaxBudgetEuros);
  const choices: number[] = [];
  for (let value = first; value <= last && choices.length < AD_BUDGET_MAX_CHOICES; value += step) choices.push(value);
  if (current > 0 && !choices.includes(current)) choices.push(current);
  return choices.sort((a, b) => a - b);
}

/**
 * The most an ad's budget can be, in euros: what the ad has spent plus what the campaign's remaining credits
 * are worth, rounded up to the budget step (100 euros).
 */
export function adBudgetMaxEuros(spentEuros: number, remainingCreditsEuros: number): number {
  return Math.ceil((spentEuros + remainingCreditsEuros) / AD_BUDGET_STEP_EUROS) * AD_BUDGET_STEP_EUROS;
}

/** The budget value as sent: the "no budget" choice -1 is sent as 0. */
export function budgetToSend(choice: number): number {
  return choice < 0 ? 0 : choice;
}

export const AUTOFLOW_MAX_DAILY = 50_000;
export const AUTOFLOW_STEP = 100;

/** The AutoFlow slider's maximum: the lesser of 50,000 and the remaining impressions. */
export function autoFlowMax(remainingImpressions: number): number {
  return Math.max(0, Math.min(AUTOFLOW_MAX_DAILY, remainingImpressions));
}

/** Days over which AutoFlow spreads delivery: remaining impressions / daily cap, rounded up; null when off. */
export function autoFlowDays(remainingImpressions: number, pauseDailyImpressions: number): number | null {
  if (pauseDailyImpressions <= 0) return null;
  return Math.ceil(Math.max(0, remainingImpressions) / pauseDailyImpressions);
}

/** Days until the remaining impressions run out at yesterday's pace; null without impressions yesterday. */
export function daysToEmpty(remainingImpressions: number, yesterdayImpressions: number): number | null {
  if (yesterdayImpressions <= 0) return null;
  return Math.max(0, remainingImpressions) / yesterdayImpressions;
}

export type AlertColour = 'red' | 'orange' | 'green';

/** Days-to-empty colour: under LOW_CREDIT_DAYS (7) red, 7 to 15 orange, over 15 green (no traffic yesterday: green). */
export function daysToEmptyColour(days: number | null): AlertColour {
  if (days === null) return 'green';
  if (days < LOW_CREDIT_DAYS) return 'red';
  if (days <= 15) return 'orange';
  return 'green';
}

/** CTR rank colours: high green, medium orange, low red. */
export function ctrRankColour(rank: 'high' | 'medium' | 'low'): AlertColour {
  return rank === 'high' ? 'green' : rank === 'medium' ? 'orange' : 'red';
}

/** Fade thresholds of the admin's ad cards: share under 0.01 percent on desktop, under 0.1 percent on mobile. */
export const FADE_SHARE_PCT = { desktop: 0.01, mobile: 0.1 } as const;

/**
 * Whether an admin ad card is faded: its share in percent, unrounded, below the display's threshold. Decide it
 * before rounding: rounded to one decimal, 0.04% would read 0 (faded on desktop) and 0.06% 0.1 (not faded on
 * mobile).
 */
export function isShareFaded(display: 'desktop' | 'mobile', sharePct: number): boolean {
  return sharePct < FADE_SHARE_PCT[display];
}

/** Decimals of the share an admin ad card shows. */
export const AD_CARD_SHARE_DECIMALS = 2;

/**
 * What an admin ad card shows of its share (a fraction 0..1 of its advertiser's traffic on the display): the
 * percentage with the card's 2 decimals, and whether the card is faded, decided on the unrounded share.
 */
export function adCardShare(display: 'desktop' | 'mobile', share: number): { sharePct: number; isFaded: boolean } {
  const exact = Math.max(0, share) * 100;
  const scale = 10 ** AD_CARD_SHARE_DECIMALS;
  return { sharePct: Math.round(exact * scale) / scale, isFaded: isShareFaded(display, exact) };
}

/** File size in KB as the admin cards show it: bytes / 1024, rounded. */
export function fileSizeKb(bytes: number): number {
  return Math.round(bytes / 1024);
}

/** UTC day `YYYY-MM-DD` shifted by a number of days. */
export function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Normalises a stored or requested range: [] all dates, [d] one day, [from, to] ordered. */
export function normaliseRange(dates: readonly string[]): { from: string; to: string } | null {
  if (dates.length === 0) return null;
  const [a, b = a] = dates as [string, string?];
  return a <= (b as string) ? { from: a, to: b as string } : { from: b as string, to: a };
}

/**
 * A campaign is low on credits when they will last fewer days than this at its recent pace: the low-credit alert
 * by e-mail (docs/emails.md), and the red of the days-to-empty colour.
 */
export const LOW_CREDIT_DAYS = 7;
/** The recent pace of a campaign: what it delivered over this many closed UTC days, averaged per day. */
export const CREDIT_PACE_DAYS = 7;

/** The credits a campaign has left, in what it buys: clicks when click-priced, impressions otherwise. */
export function creditUnitsLeft(campaign: {
  isCpc: boolean;
  remainingImpressions: number;
  remainingClicks: number;
}): number {
  return Math.max(0, campaign.isCpc ? campaign.remainingClicks : campaign.remainingImpressions);
}

/**
 * Days until a campaign's credits run out at its recent pace: the credits left (impressions, or clicks when
 * click-priced) over the average per day of what it delivered in the last `paceDays` closed days. Null when it
 * delivered nothing then (no pace: it is not running out).
 */
export function creditDaysLeft(
  campaign: { isCpc: boolean; remainingImpressions: number; remainingClicks: number },
  delivered: { impressions: number; clicks: number },
  paceDays = CREDIT_PACE_DAYS,
): number | null {
  if (paceDays <= 0) return null;
  const perDay = (campaign.isCpc ? delivered.clicks : delivered.impressions) / paceDays;
  return daysToEmpty(creditUnitsLeft(campaign), perDay);
}

/** Whether the credits will last fewer than LOW_CREDIT_DAYS at the recent pace (already empty included). */
export function isLowOnCredits(daysLeft: number | null): boolean {
  return daysLeft !== null && daysLeft < LOW_CREDIT_DAYS;
}

/** The Monday (UTC) of the week a day `YYYY-MM-DD` falls in: weeks run Monday to Sunday, as ISO 8601 has them. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return shiftDay(day, -((weekday + 6) % 7));
}

/**
 * The last full Monday-to-Sunday week before the week of `today` (the first day not yet closed): what the weekly
 * reports sent that week are about.
 */
export function lastFullWeek(today: string): { monday: string; sunday: string } {
  const monday = shiftDay(mondayOf(today), -7);
  return { monday, sunday: shiftDay(monday, 6) };
}
