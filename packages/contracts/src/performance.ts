import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZDayStringSchema } from './common.ts';

/*
 * The publisher's performance calls (specification 02, sections 2.7, 3 'Realtime' and 'History', and 7).
 * Both take an empty body and answer for the publisher account in use; docs/server-behaviour.md, section
 * 'Publisher performance', says what each figure counts.
 */

/** How often the screen asks for the realtime figures (specification 02, section 9). */
export const REALTIME_PERFORMANCE_POLL_MS = 10_000;

/** Below this share of pageviews with a validated impression, the missing share is shown red (section 9). */
export const MIN_VALIDATED_SHARE_PCT = 60;

/** How many UTC days the history covers. */
export const PERFORMANCE_HISTORY_DAYS = 30;

const ZCount = z.number().int().nonnegative();
/** A dial's scale: the largest per-minute count of the last 24 hours, at least 1. */
const ZDialMax = z.number().int().positive();

export const ZGetRealtimePerformanceResponseSchema = z.object({
  /** Counts of the latest complete UTC minute. */
  pageviewsDesktopPerMinute: ZCount,
  pageviewsMobilePerMinute: ZCount,
  impressionsDesktopPerMinute: ZCount,
  impressionsMobilePerMinute: ZCount,
  pageviewsDesktopPerMinuteMax: ZDialMax,
  pageviewsMobilePerMinuteMax: ZDialMax,
  impressionsDesktopPerMinuteMax: ZDialMax,
  impressionsMobilePerMinuteMax: ZDialMax,
  /** Validated impressions of today (UTC), desktop plus mobile. */
  publisherCurrentImpressionsToday: ZCount,
});
export type TGetRealtimePerformanceResponse = z.infer<typeof ZGetRealtimePerformanceResponseSchema>;

export const ZPerformanceHistoryRowSchema = z.object({
  /** The day's number (days since 1970-01-01): a stable key. */
  id: z.number().int(),
  /** The UTC day, YYYY-MM-DD. */
  day: ZDayStringSchema,
  perfs_pageviews_desktop: ZCount,
  perfs_pageviews_mobile: ZCount,
  perfs_validated_impressions_desktop: ZCount,
  perfs_validated_impressions_mobile: ZCount,
});
export type TPerformanceHistoryRow = z.infer<typeof ZPerformanceHistoryRowSchema>;

export const ZGetPerformanceHistoryResponseSchema = z.object({
  isAnyPerformanceHistory: z.boolean(),
  /** One row per day with data, newest first. */
  publisherPerformanceHistory: z.array(ZPerformanceHistoryRowSchema),
  /** The largest daily pageviews (desktop or mobile) among the rows; 0 without rows. */
  publisherDailyPageviewsMax: ZCount,
  /** The publisher's hash id (as in its public links). */
  hash: z.string(),
  publisherIsInstalled: z.boolean(),
});
export type TGetPerformanceHistoryResponse = z.infer<typeof ZGetPerformanceHistoryResponseSchema>;

export const getRealtimePerformanceCall = defineCall({
  method: 'POST',
  path: '/api/publisher/get-realtime-performance',
  access: 'publisher',
  token: 'read',
  request: null,
  response: ZGetRealtimePerformanceResponseSchema,
});

export const getPerformanceHistoryCall = defineCall({
  method: 'POST',
  path: '/api/publisher/get-performance-history',
  access: 'publisher',
  token: 'read',
  request: null,
  response: ZGetPerformanceHistoryResponseSchema,
});
