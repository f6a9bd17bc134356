import { DAY_MS, MINUTE_MS } from '../time.ts';
import type { Channel } from './eligibility.ts';
import { UNIQUE_CLICK_MS } from './viewability.ts';

/** A view token is good this long after its decision. */
export const VIEW_TOKEN_MS = 30 * MINUTE_MS;
/** A click token is good this long after its decision. */
export const CLICK_TOKEN_MS = DAY_MS;
/** A lead counts within this time of its click. */
export const LEAD_WINDOW_MS = 30 * DAY_MS;

/** Why one more billed event of an ad cannot be billed: the campaign's or the ad's limit is reached. */
export type BillingLimit = 'noCredits' | 'dailyCapReached' | 'budgetSpent';

/** What a campaign and its ad have left, as the server knows it when an event is counted. */
export interface BillingFacts {
  isCpc: boolean;
  remainingImpressions: number;
  remainingClicks: number;
  /** AutoFlow daily cap of validated impressions; 0 = no cap. Click-priced campaigns have none. */
  pauseDailyImpressions: number;
  todayImpressions: number;
  /** The ad's spending cap in micro-euros (0 = none) and what it has cost so far. */
  budget: number;
  spent: number;
}

/**
 * The limit that keeps a campaign from being billed one more impression (CPM) or click (CPC) of this ad, or null:
 * no credits left, its AutoFlow daily cap reached (CPM), or the ad's budget spent. Selection stops serving before
 * (reservations included), but a view or click may come after others reached the limit.
 */
export function billingLimit(facts: BillingFacts): BillingLimit | null {
  if (facts.isCpc ? facts.remainingClicks <= 0 : facts.remainingImpressions <= 0) return 'noCredits';
  if (!facts.isCpc && facts.pauseDailyImpressions > 0 && facts.todayImpressions >= facts.pauseDailyImpressions) {
    return 'dailyCapReached';
  }
  if (facts.budget > 0 && facts.spent >= facts.budget) return 'budgetSpent';
  return null;
}

/** One way a click is recognised as a repeat: a key and how long a unique click under it lasts. */
export interface ClickKey {
  key: string;
  windowMs: number;
}

/**
 * The keys under which a click is unique (docs/decisions.md section 4): once per UNIQUE_CLICK_MS per visitor and ad,
 * and once per decision for its click token's whole life (CLICK_TOKEN_MS), so that one page's ad link fetched again
 * each hour, from new addresses, bills once. Not per decision for a newsletter: its banner's one link is every
 * reader's, who each bill once an hour. `own` are the keys a unique click marks; `checked` adds the visitor under
 * yesterday's salt just after midnight (the same person, whose hash changed with the day), which is only read.
 */
export function uniqueClickKeys(click: {
  adId: number;
  visitor: string;
  decisionId: string;
  channel: Channel;
  /** The visitor's hash an hour ago, when that was another UTC day (another salt); else null. */
  visitorAnHourAgo: string | null;
}): { own: ClickKey[]; checked: ClickKey[] } {
  const own: ClickKey[] = [{ key: `${click.adId}|${click.visitor}`, windowMs: UNIQUE_CLICK_MS }];
  if (click.channel !== 'owl') own.push({ key: `decision|${click.decisionId}`, windowMs: CLICK_TOKEN_MS });
  const checked = click.visitorAnHourAgo
    ? [...own, { key: `${click.adId}|${click.visitorAnHourAgo}`, windowMs: UNIQUE_CLICK_MS }]
    : own;
  return { own, checked };
}

/** The window of a key made by uniqueClickKeys (a decision's token life, else a visitor's hour). */
export function uniqueClickWindow(key: string): number {
  return key.startsWith('decision|') ? CLICK_TOKEN_MS : UNIQUE_CLICK_MS;
}

/** Whether a click at `nowMs` is unique: no key had a unique click within its window. */
export function isUniqueClick(keys: readonly ClickKey[], lastUniqueAt: readonly (number | undefined)[], nowMs: number) {
  return keys.every((key, index) => nowMs - (lastUniqueAt[index] ?? -Infinity) >= key.windowMs);
}
