import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZAdMediaSchema } from './ads.ts';

/*
 * Admin Stats, the admin's home (specification 01, sections 2, 3, 7 and 9; issue 24). Money in euros (numbers
 * rounded to the cent); every figure but `revenue.yesterday` and `revenues` is a daily average over the last
 * `BACK_DAYS_TO_ANALYZE` closed UTC days (yesterday and the days before it).
 */

/** The company (h, trial costs subtracted), publishers (p), sales reps (s) and total: h + p + s = total. */
export const ZRevenuePartsSchema = z.object({ h: z.number(), p: z.number(), s: z.number(), total: z.number() });
export type TRevenueParts = z.infer<typeof ZRevenuePartsSchema>;

/** One closed day of the window: what advertisers were charged and how it was shared. */
export const ZAdminStatsDaySchema = z.object({
  day: z.string(),
  dayStr: z.string(),
  /** What advertisers were charged that day (= parts.total = h + p + s). */
  charged: z.number(),
  parts: ZRevenuePartsSchema,
  trialCosts: z.number(),
});

export const ZFrequentUrlSchema = z.object({
  href: z.string(),
  pageviews_count: z.number().int(),
  impressions_count: z.number().int(),
  difference: z.number().int(),
});

export const ZAdminStatsPerformanceSchema = z.object({
  perfs_pageviews_desktop: z.number().int(),
  perfs_pageviews_mobile: z.number().int(),
  perfs_validated_impressions_desktop: z.number().int(),
  perfs_validated_impressions_mobile: z.number().int(),
  perfs_clicks_desktop: z.number().int(),
  perfs_clicks_mobile: z.number().int(),
  validatedDesktopPct: z.number(),
  validatedMobilePct: z.number(),
  /** Below the 60 % rule: what is missing (shown red); 0 when the rule is met. */
  missingValidatedDesktopPct: z.number(),
  missingValidatedMobilePct: z.number(),
  /** Only when asked for (`withUrls`), else empty. */
  mostFrequentUrlsDesktop: z.array(ZFrequentUrlSchema),
  mostFrequentUrlsMobile: z.array(ZFrequentUrlSchema),
});

export const ZAdminStatsPublisherSchema = z.object({
  id: z.number().int(),
  brand: z.string(),
  is_web: z.boolean(),
  is_owl: z.boolean(),
  is_installed: z.boolean(),
  allValidatedImpressions: z.number().int(),
  clicks: z.number().int(),
  ctrStr: z.string(),
  /** Daily average of the publisher's revenue, and x 30. */
  revenues: z.number(),
  projectedMonthlyRevenues: z.number(),
  balance: z.number(),
  min_balance_for_payout: z.number(),
  balanceStr: z.string(),
  minBalanceForPayoutStr: z.string(),
  /** The balance exceeds the minimum for payout: the row is red. */
  isBalanceOverMinimum: z.boolean(),
  averageOwlSummariesUs: z.object({
    impressions: z.number().int(),
    clicks: z.number().int(),
    ctr: z.string(),
    revenues: z.number(),
  }),
  performance: ZAdminStatsPerformanceSchema,
});
export type TAdminStatsPublisher = z.infer<typeof ZAdminStatsPublisherSchema>;

/** Newsletter figures of one ad ("key"), one line per publisher. */
export const ZOwlAdStatsSchema = z.object({
  key: z.string(),
  ad: ZAdMediaSchema,
  lines: z.array(
    z.object({
      publisherBrand: z.string(),
      bannerIndex: z.number().int().nullable(),
      impressions: z.number().int(),
      clicks: z.number().int(),
      ctrStr: z.string(),
      /** This ad's share of the publisher's newsletter impressions (percent). */
      sharePct: z.number(),
      publisherRevenue: z.number(),
      /** What the network kept: charged minus the publisher's revenue. */
      providerRevenue: z.number(),
    }),
  ),
});

export const ZAdminStatsSchema = z.object({
  /** Issue 24: yesterday's split, the projection (daily average x 30) and the window's daily trial costs. */
  revenue: z.object({
    yesterday: ZRevenuePartsSchema,
    projectedMonthly: ZRevenuePartsSchema,
    trialCosts: z.number(),
  }),
  buyCpmStr: z.string(),
  buyCpcStr: z.string(),
  ctrTotalStr: z.string(),
  ctrLowerStr: z.string(),
  ctrHigherStr: z.string(),
  /** Daily averages, euros. */
  trialCosts: z.number(),
  totalRev: z.number(),
  heliumRev: z.number(),
  publishersRev: z.number(),
  salesRepsRev: z.number(),
  publishers: z.array(ZAdminStatsPublisherSchema),
  inventory: z.object({
    pageviewsDesktop: z.number().int(),
    pageviewsMobile: z.number().int(),
    impressionsDesktop: z.number().int(),
    impressionsMobile: z.number().int(),
  }),
  owlStats: z.array(ZOwlAdStatsSchema),
  /** Each day of the window, oldest first. */
  revenues: z.array(ZAdminStatsDaySchema),
  allPublishersMaxMobileImpressions: z.number().int(),
  allPublishersImpressions: z.number().int(),
  allPublishersClicks: z.number().int(),
  allPublishersCtrStr: z.string(),
  allOwlPublishersImpressionsStr: z.string(),
  allOwlPublishersClicksStr: z.string(),
  allOwlPublishersCtrStr: z.string(),
  allPublishersPageviews: z.number().int(),
  /** Pageviews that did not become validated impressions. */
  allPublishersFailedImpressions: z.number().int(),
  /** Sums of the web publishers' table. */
  totals: z.object({
    pageviewsDesktop: z.number().int(),
    pageviewsMobile: z.number().int(),
    impressionsDesktop: z.number().int(),
    impressionsMobile: z.number().int(),
    clicksDesktop: z.number().int(),
    clicksMobile: z.number().int(),
    revenues: z.number(),
    projectedMonthlyRevenues: z.number(),
    balance: z.number(),
  }),
  BACK_DAYS_TO_ANALYZE: z.number().int(),
});
export type TAdminStats = z.infer<typeof ZAdminStatsSchema>;

export const ZGetAdminStatsRequestSchema = z.object({
  sortBy: z.string().max(40).optional(),
  /** The most-frequent-URLs checkbox: the URLs are read only when asked for. */
  withUrls: z.boolean().optional(),
});
export type TGetAdminStatsRequest = z.infer<typeof ZGetAdminStatsRequestSchema>;

export const getAdminStatsCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-stats',
  access: 'admin',
  token: 'read',
  request: ZGetAdminStatsRequestSchema,
  response: ZAdminStatsSchema,
});

/** Calls of this feature, listed in calls.ts (issue 24). */
export const ADMIN_STATS_CALLS = [getAdminStatsCall] as const;
