import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZDayStringSchema, ZIdSchema } from './common.ts';

/*
 * The advertiser's figures by visitor country (issue 25, item 4; docs/targeting.md "Figures by country"): counted
 * per campaign, UTC day and country with the campaign's other daily figures, so that they add up to its totals.
 */

/** One country's figures; cost in euros, CTR in percent. `country` is ISO 3166-1 alpha-2, `ZZ` = unknown. */
export const ZCountryStatLineSchema = z.object({
  country: z.string(),
  /** The country's name in the user's language. */
  name: z.string(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  ctr: z.number(),
  cost: z.number(),
});
export type TCountryStatLine = z.infer<typeof ZCountryStatLineSchema>;

/** POST /api/advertiser/get-campaign-countries: from and to are UTC days, inclusive; both absent = every day. */
export const ZGetCampaignCountriesRequestSchema = z
  .object({
    campaignId: ZIdSchema,
    from: ZDayStringSchema.optional(),
    to: ZDayStringSchema.optional(),
  })
  .strict()
  .refine((body) => (body.from === undefined) === (body.to === undefined), 'Send both from and to, or neither')
  .refine((body) => !body.from || !body.to || body.from <= body.to, 'from must not be after to');
export type TGetCampaignCountriesRequest = z.infer<typeof ZGetCampaignCountriesRequestSchema>;

export const ZGetCampaignCountriesResponseSchema = z.object({
  /** Most impressions first. */
  countries: z.array(ZCountryStatLineSchema),
  total: ZCountryStatLineSchema.omit({ country: true, name: true }),
});
export type TGetCampaignCountriesResponse = z.infer<typeof ZGetCampaignCountriesResponseSchema>;

export const getCampaignCountriesCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/get-campaign-countries',
  access: 'advertiser',
  token: 'read',
  request: ZGetCampaignCountriesRequestSchema,
  response: ZGetCampaignCountriesResponseSchema,
});

export const CAMPAIGN_COUNTRIES_CALLS = [getCampaignCountriesCall] as const;
