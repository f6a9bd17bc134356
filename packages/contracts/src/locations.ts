import { z } from 'zod';
import { LOCATION_SEARCH_MAX_CHARS, LOCATION_SEARCH_MIN_CHARS, MAX_CAMPAIGN_LOCATIONS } from '@helium/domain/locations';
import { defineCall } from './call.ts';
import { ZIdSchema, ZStatusResponseSchema } from './common.ts';

/*
 * The places a campaign may target (specification 01, sections 2, 3 and 7; docs/targeting.md). Ids are those of
 * campaigns' geotargeting: `FR`, `FR/IDF`, `FR/IDF/Paris`. Without `country` the answer lists the countries only
 * (the whole tree is several megabytes); with it, that country, its regions and its cities.
 */

/** An ISO 3166-1 alpha-2 country code. */
const ZCountryCodeSchema = z.string().regex(/^[A-Z]{2}$/, 'Expected a country code such as FR');

export const ZLocationsRequestSchema = z.object({ country: ZCountryCodeSchema.optional() }).optional();
export type TLocationsRequest = z.infer<typeof ZLocationsRequestSchema>;

/** The query of `GET /api/locations?country=FR`. */
export const ZLocationsQuerySchema = z.object({ country: ZCountryCodeSchema.optional() });

/** A place, named in the caller's language: a country, a region (with `region`) or a city (with `region` and `city`). */
export const ZLocationSchema = z.object({
  id: z.string(),
  country: z.string(),
  region: z.string().optional(),
  city: z.string().optional(),
  /** On a country listed without its regions: it has some, and asking with `country` lists them. */
  hasRegions: z.boolean().optional(),
});
export type TLocation = z.infer<typeof ZLocationSchema>;

export const ZLocationsResponseSchema = z.object({ locations: z.array(ZLocationSchema) });
export type TLocationsResponse = z.infer<typeof ZLocationsResponseSchema>;

export const locationsCall = defineCall({
  method: 'POST',
  path: '/api/locations',
  access: 'advertiserOrAdmin',
  request: ZLocationsRequestSchema,
  response: ZLocationsResponseSchema,
});

/**
 * POST /api/common/search-locations: the countries, regions and cities whose name holds the query, accents and case
 * aside (`sao paulo` finds São Paulo), best matches first, at most LOCATION_SEARCH_LIMIT; named as the list names
 * them (a city with its region and country). Any signed-in user may ask: place names are no one's data.
 */
export const ZSearchLocationsRequestSchema = z.object({
  query: z.string().trim().min(LOCATION_SEARCH_MIN_CHARS).max(LOCATION_SEARCH_MAX_CHARS),
});
export type TSearchLocationsRequest = z.infer<typeof ZSearchLocationsRequestSchema>;

export const searchLocationsCall = defineCall({
  method: 'POST',
  path: '/api/common/search-locations',
  access: 'signedIn',
  request: ZSearchLocationsRequestSchema,
  response: ZLocationsResponseSchema,
});

/** A campaign's geotargeting: location ids, none for everywhere. */
export const ZGeolocationSchema = z.array(z.string().min(1).max(200)).max(MAX_CAMPAIGN_LOCATIONS);

export const ZUpdateCampaignGeolocationRequestSchema = z.object({
  campaignId: ZIdSchema,
  geolocation: ZGeolocationSchema,
});
export type TUpdateCampaignGeolocationRequest = z.infer<typeof ZUpdateCampaignGeolocationRequestSchema>;

export const updateCampaignGeolocationCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-campaign-geolocation',
  access: 'advertiser',
  request: ZUpdateCampaignGeolocationRequestSchema,
  response: ZStatusResponseSchema,
});

export const LOCATIONS_CALLS = [locationsCall, searchLocationsCall, updateCampaignGeolocationCall] as const;
