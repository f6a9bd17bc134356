import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZIdSchema as ZId, ZStatusResponseSchema } from './common.ts';
import { ZValidationStateSchema } from './ads.ts';

/* Ad validation: the admin's calls (specification 01, section 7) and the publisher's answer through the mailed link. */

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
  /** The thumbnail's picture (as ZAdMediaSchema's `preview`); null until made. */
  preview: z.string().nullable(),
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

export const getAdValidationsCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-ad-validations',
  access: 'admin',
  request: ZGetAdValidationsRequestSchema,
  response: ZGetAdValidationsResponseSchema,
});

export const validateAdByAdminsCall = defineCall({
  method: 'POST',
  path: '/api/admin/validate-ad-by-admins',
  access: 'admin',
  request: ZValidateAdByAdminsRequestSchema,
  response: ZStatusResponseSchema,
});

export const requestPublishersToValidateAdCall = defineCall({
  method: 'POST',
  path: '/api/admin/request-publishers-to-validate-ad-or-force-validation',
  access: 'admin',
  request: ZRequestPublishersRequestSchema,
  response: ZStatusResponseSchema,
});

/** Public: the mailed hash id is the credential (it names one ad and one publisher). */
export const getAdValidationCall = defineCall({
  method: 'POST',
  path: '/api/publisher/get-ad-validation',
  access: 'public',
  request: ZGetAdValidationRequestSchema,
  response: ZGetAdValidationResponseSchema,
});

export const updateAdValidationCall = defineCall({
  method: 'POST',
  path: '/api/publisher/update-ad-validation',
  access: 'public',
  request: ZUpdateAdValidationRequestSchema,
  response: ZStatusResponseSchema,
});
