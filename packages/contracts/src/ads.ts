import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZIdSchema as ZId, ZSafeUrlSchema, ZStatusResponseSchema } from './common.ts';

export const ZValidationStateSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

/* The advertiser's Ads screen calls (specification 02, sections 2.3 and 7). */

/** What every view of an ad shows of it: identity, media URLs (/media/<key>) or null, link and format. */
export const ZAdMediaSchema = z.object({
  id: z.number().int(),
  hashId: z.string(),
  type: z.enum(['image', 'video']),
  image: z.string().nullable(),
  mp4: z.string().nullable(),
  poster: z.string().nullable(),
  /** A small JPEG of the image or of the video's poster, for thumbnails; null until made (show the full media). */
  preview: z.string().nullable(),
  link: z.string().nullable(),
  format_id: z.number().int(),
});

/** An ad as the advertiser sees it on the Ads screen. */
export const ZAdvertiserAdSchema = ZAdMediaSchema.extend({
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  filesize: z.number().int(),
  is_video_thumbnail_ready: z.boolean(),
  /** The admin state: 0 not validated, 1 validated, 2 declined, 3 pending. */
  validation: ZValidationStateSchema,
  /** When pending: the date the review is due (submission + 24 h), in the user's language; else null. */
  expiresAtStr: z.string().nullable(),
  createdAtStr: z.string(),
  isShowing: z.boolean(),
  isEjected: z.boolean(),
  isLocked: z.boolean(),
  isWebOnly: z.boolean(),
  isOwlOnly: z.boolean(),
});
export type TAdvertiserAd = z.infer<typeof ZAdvertiserAdSchema>;

/** POST /api/advertiser/get-ads */
export const ZGetAdsResponseSchema = z.object({ ads: z.array(ZAdvertiserAdSchema) });
export type TGetAdsResponse = z.infer<typeof ZGetAdsResponseSchema>;

/** A link as typed in the field: an http(s) URL, or empty to clear it. */
export const ZAdLinkSchema = z.union([z.literal('').transform(() => null), ZSafeUrlSchema, z.null()]);

/** POST /api/advertiser/update-or-delete-ad: the ad (its id, and for update its link) and the action. */
export const ZUpdateOrDeleteAdRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('update'), ad: z.object({ id: ZId, link: ZAdLinkSchema }) }),
  z.object({ action: z.literal('delete'), ad: z.object({ id: ZId }) }),
]);
export type TUpdateOrDeleteAdRequest = z.input<typeof ZUpdateOrDeleteAdRequestSchema>;

/** POST /api/advertiser/request-to-validate-ad */
export const ZRequestToValidateAdRequestSchema = z.object({ adId: ZId });
export type TRequestToValidateAdRequest = z.infer<typeof ZRequestToValidateAdRequestSchema>;

/**
 * POST /api/advertiser/upload-file (multipart, field `file`). `errors` refuse the file (nothing stored,
 * HTTP 422, adId null); `tips` are advice on a stored file. Both are texts in the user's language.
 */
export const ZUploadFileResponseSchema = z.object({
  status: z.string(),
  errors: z.array(z.string()),
  tips: z.array(z.string()),
  adId: z.number().int().nullable(),
});
export type TUploadFileResponse = z.infer<typeof ZUploadFileResponseSchema>;

export const getAdsCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/get-ads',
  access: 'advertiser',
  token: 'read',
  request: null,
  response: ZGetAdsResponseSchema,
});

export const updateOrDeleteAdCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-or-delete-ad',
  access: 'advertiser',
  request: ZUpdateOrDeleteAdRequestSchema,
  response: ZStatusResponseSchema,
});

export const requestToValidateAdCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/request-to-validate-ad',
  access: 'advertiser',
  request: ZRequestToValidateAdRequestSchema,
  response: ZStatusResponseSchema,
});

/** The file goes as multipart form data (field `file`), so the contract has no body schema. */
export const uploadFileCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/upload-file',
  access: 'advertiser',
  request: null,
  response: ZUploadFileResponseSchema,
});
