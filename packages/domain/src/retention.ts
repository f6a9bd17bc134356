import { shiftDay } from './activity.ts';
import { CLICK_TOKEN_MS, LEAD_WINDOW_MS } from './delivery/billing.ts';
import { DAY_MS } from './time.ts';

/**
 * How long raw event rows are kept (docs/configuration.md, "Retention"). The daily summaries, the ledgers and the
 * sales are kept forever: every figure a screen shows comes from them, so deleting raw rows changes none.
 */

/** RAW_EVENT_DAYS when unset: the UTC days of raw events kept, today included. */
export const DEFAULT_RAW_EVENT_DAYS = 90;

/**
 * The fewest RAW_EVENT_DAYS allowed. A lead is counted up to LEAD_WINDOW_MS after its click, and reads back the
 * click and the click's decision, which may be CLICK_TOKEN_MS older: their age in days, plus the day being
 * deleted (32 with 30 days and 1).
 */
export const MIN_RAW_EVENT_DAYS = Math.ceil((LEAD_WINDOW_MS + CLICK_TOKEN_MS) / DAY_MS) + 1;

/** The admin's invalid-traffic screen reads up to this many UTC days, today included: its rows are kept as long. */
export const INVALID_TRAFFIC_MAX_DAYS = 90;

/** The performance dials read the last 24 hours of per-minute counters: two UTC days are kept, today included. */
export const REALTIME_COUNTER_DAYS = 2;

/** The first UTC day kept by each retention, given today's: rows created (or counted) before it are deleted. */
export interface RetentionCutoffs {
  /** pageviews, ad_decisions, ad_impressions, ad_clicks, ad_leads. */
  events: string;
  invalidTraffic: string;
  realtimeCounters: string;
}

/** `days` UTC days kept, today included: the first day kept. */
function firstDayKept(today: string, days: number): string {
  return shiftDay(today, -(days - 1));
}

export function retentionCutoffs(today: string, rawEventDays: number): RetentionCutoffs {
  const days = Math.max(rawEventDays, MIN_RAW_EVENT_DAYS);
  return {
    events: firstDayKept(today, days),
    invalidTraffic: firstDayKept(today, Math.max(days, INVALID_TRAFFIC_MAX_DAYS)),
    realtimeCounters: firstDayKept(today, REALTIME_COUNTER_DAYS),
  };
}
