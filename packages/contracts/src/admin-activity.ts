import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZCtrRankSchema } from './campaign-activity.ts';

/* The admin's Activity screens (specification 01, sections 3 and 7). Money is in euros (numbers). */

export const ZAdminActivityRequestSchema = z.object({
  sortBy: z.enum(['advertiser', 'publisher']).default('publisher'),
  showCompleteCampaignsOrInactiveAds: z.boolean().default(false),
});
export type TAdminActivityRequest = z.input<typeof ZAdminActivityRequestSchema>;

export const ZAdminActivityCampaignSchema = z.object({
  id: z.number().int(),
  ex: z.object({
    advertiser: z.object({ brand: z.string() }),
    is_cpc: z.boolean(),
    is_owl: z.boolean(),
    cpc: z.number(),
    cpm: z.number(),
    isShowing: z.boolean(),
    stats: z.object({
      total: z.object({
        impressions: z.number().int(),
        clicks: z.number().int(),
        ctr: z.number(),
        cpm: z.number(),
        cpc: z.number(),
        remainingClicks: z.number().int(),
        remainingClicksPct: z.number(),
        remainingImpressions: z.number().int(),
        remainingImpressionsPct: z.number(),
      }),
    }),
    inventory: z.object({
      yesterdayThisCpmCampaignImpressions: z.number().int(),
      /** Days until the remaining impressions run out at yesterday's pace; null without traffic yesterday. */
      daysToEmptyImpressions: z.number().nullable(),
    }),
  }),
});
export type TAdminActivityCampaign = z.infer<typeof ZAdminActivityCampaignSchema>;

export const ZAdminActivityShowSchema = z.object({
  ad: z.object({
    id: z.number().int(),
    type: z.enum(['image', 'video']),
    image: z.string().nullable(),
    mp4: z.string().nullable(),
    poster: z.string().nullable(),
    /** The thumbnail's picture (as ZAdMediaSchema's `preview`); null until made. */
    preview: z.string().nullable(),
    link: z.string().nullable(),
    filesize: z.number().int(),
  }),
  campaign: z.object({ is_filler: z.boolean() }),
  desktop_impressions: z.number().int(),
  desktop_clicks: z.number().int(),
  mobile_impressions: z.number().int(),
  mobile_clicks: z.number().int(),
  /** CTR (percent) on this display over the last 7 days. */
  current_ctr: z.number(),
  /** The ad's share (percent, 2 decimals) of its advertiser's traffic on this display. */
  share_pct: z.number(),
  /** The card is faded: its unrounded share is under 0.01 percent on desktop, under 0.1 percent on mobile. */
  is_faded: z.boolean(),
  desktopRank: z.number().int().nullable(),
  mobileRank: z.number().int().nullable(),
  ctrRankStr: ZCtrRankSchema.nullable(),
  format_id: z.number().int(),
});
export type TAdminActivityShow = z.infer<typeof ZAdminActivityShowSchema>;

export const ZAdminActivityPublisherSchema = z.object({
  id: z.number().int(),
  brand: z.string(),
  isDesktopAutoPilot: z.boolean(),
  isMobileAutoPilot: z.boolean(),
  desktopTodayImpressions: z.number().int(),
  mobileTodayImpressions: z.number().int(),
  desktopMinImpressionsToAutoPilot: z.number().int(),
  mobileMinImpressionsToAutoPilot: z.number().int(),
  displayData: z.array(
    z.object({
      display: z.enum(['desktop', 'mobile']),
      thisDisplayTotalSharePct: z.number(),
      byAdvertiserShowData: z.array(
        z.object({
          advertiserBrand: z.string(),
          totalSharePct: z.number(),
          /** AutoPilot share of the advertiser's own traffic is per ad; this is the advertiser's share. */
          isAutoPilot: z.boolean(),
          shows: z.array(ZAdminActivityShowSchema),
        }),
      ),
    }),
  ),
});
export type TAdminActivityPublisher = z.infer<typeof ZAdminActivityPublisherSchema>;

/** POST /api/admin/get-activity: whichever list matches sortBy is filled, the other is empty. */
export const ZAdminActivityResponseSchema = z.object({
  campaigns: z.array(ZAdminActivityCampaignSchema),
  publishers: z.array(ZAdminActivityPublisherSchema),
});
export type TAdminActivityResponse = z.infer<typeof ZAdminActivityResponseSchema>;

export const getActivityCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-activity',
  access: 'admin',
  token: 'read',
  request: ZAdminActivityRequestSchema,
  response: ZAdminActivityResponseSchema,
});
