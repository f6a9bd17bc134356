import { z } from 'zod';
import { AD_BUDGET_STEP_EUROS, AUTOFLOW_MAX_DAILY } from '@helium/domain/activity';
import { defineCall } from './call.ts';
import { ZDayStringSchema, ZIdSchema, ZStatusResponseSchema } from './common.ts';
import { ZAdMediaSchema } from './ads.ts';

/*
 * The advertiser's campaign activity calls (specification 02, sections 3, 5 and 7). Money is in euros (numbers)
 * in these views; the web app formats every figure with the one formatting module. The AutoFlow and budget
 * limits are the domain's (packages/domain/src/activity.ts).
 */

const id = ZIdSchema;

/** impressions, clicks, CTR (percent), CPC, CPM, cost (euros), leads, LR (percent), CPL; null = N/A. */
export const ZMetricsSchema = z.object({
  impressions: z.number().int(),
  clicks: z.number().int(),
  ctr: z.number(),
  cpc: z.number(),
  cpm: z.number(),
  costs: z.number(),
  leads: z.number().int().nullable(),
  lr: z.number().nullable(),
  cpl: z.number().nullable(),
});
export type TMetrics = z.infer<typeof ZMetricsSchema>;

export const ZCtrRankSchema = z.enum(['high', 'medium', 'low']);
export type TCtrRank = z.infer<typeof ZCtrRankSchema>;

/** One publisher's line under an ad in by-publisher mode. */
export const ZPublisherStatLineSchema = ZMetricsSchema.extend({
  id: z.number().int(),
  brand: z.string(),
  sampleUrl: z.string().nullable(),
  doShow: z.boolean(),
  isPublisherWeb: z.boolean(),
  isPublisherInstalled: z.boolean(),
  isPublisherAuthorized: z.boolean(),
});
export type TPublisherStatLine = z.infer<typeof ZPublisherStatLineSchema>;

export const ZCampaignAdSchema = ZAdMediaSchema.extend({
  validation: z.number().int(),
  expiresAtStr: z.string().nullable(),
  /** A page of a participating site where the ad can be seen (hcid and haid added by the screen). */
  liveUrl: z.string().nullable(),
  isShowing: z.boolean(),
  isEjected: z.boolean(),
  isLocked: z.boolean(),
  isWebOnly: z.boolean(),
  isOwlOnly: z.boolean(),
  /** Share (percent, 1 decimal) of the advertiser's traffic currently given to the ad; null = not computed. */
  sharePct: z.number().nullable(),
  /** Spending cap in euros; 0 = none. */
  budget: z.number(),
  stats: z.object({
    total: ZMetricsSchema.extend({
      ctrRankStr: ZCtrRankSchema.nullable(),
      /** The most this ad could still spend, in euros (the campaign's remaining credits). */
      remainingMaxBudget: z.number(),
    }),
    byPublisher: z.array(ZPublisherStatLineSchema).nullable(),
  }),
});
export type TCampaignAd = z.infer<typeof ZCampaignAdSchema>;

export const ZUrlStatLineSchema = ZMetricsSchema.extend({ url: z.string() });
export type TUrlStatLine = z.infer<typeof ZUrlStatLineSchema>;

export const ZDayStatLineSchema = z.object({
  day: z.string(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  ctr: z.number(),
});
export type TDayStatLine = z.infer<typeof ZDayStatLineSchema>;

/** statsDateRange: empty (all dates), one day, or two days (inclusive). */
export const ZStatsDateRangeSchema = z.union([
  z.tuple([]),
  z.tuple([ZDayStringSchema]),
  z.tuple([ZDayStringSchema, ZDayStringSchema]),
]);

/** POST /api/advertiser/get-campaignex: the campaignEx. */
export const ZCampaignExSchema = z.object({
  id: z.number().int(),
  /**
   * The advertiser's campaigns, newest first, to choose the one shown (not in specification 02: an admin may give
   * an advertiser a second campaign).
   */
  campaigns: z.array(z.object({ id: z.number().int(), is_cpc: z.boolean() })),
  hashId: z.string(),
  is_cpc: z.boolean(),
  isTrial: z.boolean(),
  trialStr: z.string().nullable(),
  couponStr: z.string().nullable(),
  isPaused: z.boolean(),
  isFinished: z.boolean(),
  isAutoPilot: z.boolean(),
  isAutoPilotVisible: z.boolean(),
  pauseDailyImpressions: z.number().int(),
  canActivateAdsByPublisher: z.boolean(),
  canBuyInBtc: z.boolean(),
  canBillToPay: z.boolean(),
  billToPayMinOrder: z.number(),
  canBudget: z.boolean(),
  do_not_discount: z.boolean(),
  geolocation: z.array(z.string()),
  /** The geotargeting in one line in the user's language ("France, Belgium: Brussels"); empty = everywhere. */
  geolocationStr: z.string(),
  cpm: z.number(),
  cpc: z.number(),
  statsDateRange: ZStatsDateRangeSchema,
  statsDateRangeStr: z.string().nullable(),
  ads: z.array(ZCampaignAdSchema),
  stats: z.object({
    total: ZMetricsSchema.extend({
      remainingImpressions: z.number().int(),
      remainingClicks: z.number().int(),
      remainingImpressionsPct: z.number(),
      remainingClicksPct: z.number(),
    }),
    byUrl: z.array(ZUrlStatLineSchema).nullable(),
    byDay: z.array(ZDayStatLineSchema),
  }),
});
export type TCampaignEx = z.infer<typeof ZCampaignExSchema>;

export const ZGetCampaignExRequestSchema = z.object({
  /** The advertiser's campaign; its newest (where new uploads go) when absent. */
  campaignId: id.optional(),
  doByPublisher: z.boolean().default(false),
  doIncludeRealTimeHits: z.boolean().default(true),
  doByUrl: z.boolean().default(false),
});
export type TGetCampaignExRequest = z.input<typeof ZGetCampaignExRequestSchema>;

/** POST /api/advertiser/update-campaign-pause: the AutoFlow daily cap, 0 = off. */
export const ZUpdateCampaignPauseRequestSchema = z.object({
  campaignId: id,
  pauseDailyImpressions: z.number().int().min(0).max(AUTOFLOW_MAX_DAILY),
});
export type TUpdateCampaignPauseRequest = z.infer<typeof ZUpdateCampaignPauseRequestSchema>;

/** POST /api/advertiser/update-campaign-ad-budget: a multiple of 100 euros, 0 = no cap. */
export const ZUpdateCampaignAdBudgetRequestSchema = z.object({
  campaignId: id,
  ad: z.object({
    id,
    budget: z
      .number()
      .int()
      .min(0)
      .refine((value) => value % AD_BUDGET_STEP_EUROS === 0, `Expected a multiple of ${AD_BUDGET_STEP_EUROS}`),
  }),
});
export type TUpdateCampaignAdBudgetRequest = z.infer<typeof ZUpdateCampaignAdBudgetRequestSchema>;

/** POST /api/advertiser/update-campaign-ad-ejection */
export const ZUpdateCampaignAdEjectionRequestSchema = z.object({ campaignId: id, adId: id, doEject: z.boolean() });
export type TUpdateCampaignAdEjectionRequest = z.infer<typeof ZUpdateCampaignAdEjectionRequestSchema>;

/** POST /api/advertiser/update-campaign-ad-activation: the whole ad (publisherId null) or one publisher. */
export const ZUpdateCampaignAdActivationRequestSchema = z.object({
  campaignId: id,
  ad: z.object({ id }).passthrough().optional(),
  adId: id,
  publisherId: id.nullable(),
  isAdActive: z.boolean(),
  isAdPublisherActive: z.boolean().optional(),
});
export type TUpdateCampaignAdActivationRequest = z.infer<typeof ZUpdateCampaignAdActivationRequestSchema>;

/** POST /api/advertiser/update-campaign-autopilot */
export const ZUpdateCampaignAutoPilotRequestSchema = z.object({ campaignId: id, isAutoPilot: z.boolean() });
export type TUpdateCampaignAutoPilotRequest = z.infer<typeof ZUpdateCampaignAutoPilotRequestSchema>;

/** POST /api/advertiser/update-stats-ex: a day, two days, or null to clear. */
export const ZUpdateStatsExRequestSchema = z.object({
  campaignId: id,
  statsExDates: z.union([
    z.null(),
    ZDayStringSchema,
    z.tuple([ZDayStringSchema]),
    z.tuple([ZDayStringSchema, ZDayStringSchema]),
  ]),
});
export type TUpdateStatsExRequest = z.infer<typeof ZUpdateStatsExRequestSchema>;

export const getCampaignExCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/get-campaignex',
  access: 'advertiser',
  token: 'read',
  request: ZGetCampaignExRequestSchema,
  response: ZCampaignExSchema,
});

export const updateCampaignPauseCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-campaign-pause',
  access: 'advertiser',
  request: ZUpdateCampaignPauseRequestSchema,
  response: ZStatusResponseSchema,
});

export const updateCampaignAdBudgetCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-campaign-ad-budget',
  access: 'advertiser',
  request: ZUpdateCampaignAdBudgetRequestSchema,
  response: ZStatusResponseSchema,
});

export const updateCampaignAdEjectionCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-campaign-ad-ejection',
  access: 'advertiser',
  request: ZUpdateCampaignAdEjectionRequestSchema,
  response: ZStatusResponseSchema,
});

export const updateCampaignAdActivationCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-campaign-ad-activation',
  access: 'advertiser',
  request: ZUpdateCampaignAdActivationRequestSchema,
  response: ZStatusResponseSchema,
});

export const updateCampaignAutoPilotCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-campaign-autopilot',
  access: 'advertiser',
  request: ZUpdateCampaignAutoPilotRequestSchema,
  response: ZStatusResponseSchema,
});

export const updateStatsExCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-stats-ex',
  access: 'advertiser',
  request: ZUpdateStatsExRequestSchema,
  response: ZStatusResponseSchema,
});
