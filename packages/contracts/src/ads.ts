import { z } from 'zod';
import { ZSafeUrlSchema } from './common.ts';

const ZId = z.number().int().positive().max(2_147_483_647);
export const ZValidationStateSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

// ---------------------------------------------------------------- advertiser (spec 02, section 7)

/** What every view of an ad shows of it: identity, media URLs (/media/<key>) or null, link and format. */
export const ZAdMediaSchema = z.object({
  id: z.number().int(),
  hashId: z.string(),
  type: z.enum(['image', 'video']),
  image: z.string().nullable(),
  mp4: z.string().nullable(),
  poster: z.string().nullable(),
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

// ---------------------------------------------------------------- admin (spec 01, section 7)

export const ZAdPublisherRowSchema = z.object({
  id: z.number().int(),
  brand: z.string(),
  isInstalled: z.boolean(),
  adValidation: ZValidationStateSchema,
  /** For a pending request: when it expires (then it counts as approved); else null. */
  expiresAtStr: z.string().nullable(),
});

export const ZAdminAdSchema = z.object({
  id: z.number().int(),
  hashId: z.string(),
  advertiser_id: z.number().int(),
  advertiser: z.object({ brand: z.string() }),
  type: z.enum(['image', 'video']),
  image: z.string().nullable(),
  mp4: z.string().nullable(),
  poster: z.string().nullable(),
  link: z.string().nullable(),
  screenshot: z.string().nullable(),
  filesize: z.number().int(),
  is_owl: z.boolean(),
  format_id: z.number().int(),
  is_video_thumbnail_ready: z.boolean(),
  adminsValidation: ZValidationStateSchema,
  is_emailed_as_validated: z.boolean(),
  publishers: z.array(ZAdPublisherRowSchema),
});
export type TAdminAd = z.infer<typeof ZAdminAdSchema>;

/** POST /api/admin/get-ad-validations: advertiserId 0 (or absent) = the 20 most recent ads of all. */
export const ZGetAdValidationsRequestSchema = z.object({
  sortBy: z.string().max(40).optional(),
  advertiserId: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type TGetAdValidationsRequest = z.infer<typeof ZGetAdValidationsRequestSchema>;

export const ZGetAdValidationsResponseSchema = z.object({
  ads: z.array(ZAdminAdSchema),
  advertisers: z.array(z.object({ id: z.number().int(), brand: z.string() })),
});
export type TGetAdValidationsResponse = z.infer<typeof ZGetAdValidationsResponseSchema>;

/** POST /api/admin/validate-ad-by-admins */
export const ZValidateAdByAdminsRequestSchema = z.object({ adId: ZId, isAccepted: z.boolean() });
export type TValidateAdByAdminsRequest = z.infer<typeof ZValidateAdByAdminsRequestSchema>;

/** POST /api/admin/request-publishers-to-validate-ad-or-force-validation: 1 force-approve, 2 force-decline, 3 e-mail. */
export const ZRequestPublishersRequestSchema = z.object({
  adId: ZId,
  publisherIds: z.array(ZId).min(1).max(500),
  acceptance: z.union([z.literal(1), z.literal(2), z.literal(3)]),
});
export type TRequestPublishersRequest = z.infer<typeof ZRequestPublishersRequestSchema>;

// ---------------------------------------------------------------- publisher link (public)

const ZHashId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9]+$/, 'Not a valid link');

/** POST /api/publisher/get-ad-validation */
export const ZGetAdValidationRequestSchema = z.object({ hashId: ZHashId });
export type TGetAdValidationRequest = z.infer<typeof ZGetAdValidationRequestSchema>;

export const ZGetAdValidationResponseSchema = z.object({
  ad: z.object({
    type: z.enum(['image', 'video']),
    image: z.string().nullable(),
    mp4: z.string().nullable(),
    poster: z.string().nullable(),
    link: z.string().nullable(),
    format_id: z.number().int(),
  }),
  advertiser: z.object({ brand: z.string() }),
  publisher: z.object({ brand: z.string() }),
  /** The publisher's current answer: 1 accepted, 2 declined, 3 not yet answered. */
  acceptance: ZValidationStateSchema,
  canValidate: z.boolean(),
});
export type TGetAdValidationResponse = z.infer<typeof ZGetAdValidationResponseSchema>;

/** POST /api/publisher/update-ad-validation */
export const ZUpdateAdValidationRequestSchema = z.object({
  hashId: ZHashId,
  acceptance: z.union([z.literal(1), z.literal(2)]),
});
export type TUpdateAdValidationRequest = z.infer<typeof ZUpdateAdValidationRequestSchema>;
