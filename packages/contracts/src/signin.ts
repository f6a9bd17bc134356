import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZUserTypeSchema } from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

/** POST /api/common/signin: step 1 sends the e-mail; step 2 the code (and the agreement when asked). */
export const ZSignInRequestSchema = z.object({
  step: z.union([z.literal(1), z.literal(2)]),
  email: z.string().trim().toLowerCase().email().max(TEXT_LIMITS.email),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code has 6 digits')
    .optional(),
  hasUserAgreed: z.boolean().optional(),
  /** The page a signed-out user asked for (a mail's link): step 3's `redirectTo` when it is one of this product's. */
  next: z.string().max(TEXT_LIMITS.link).optional(),
});
export type TSignInRequest = z.infer<typeof ZSignInRequestSchema>;

export const SIGN_IN_STATUSES = [
  'ok',
  'wrongCredentialsWrongUser',
  'wrongCredentialsWrongToken',
  'expiredCode',
  'agreementRequired',
] as const;
export const ZSignInStatusSchema = z.enum(SIGN_IN_STATUSES);
export type TSignInStatus = z.infer<typeof ZSignInStatusSchema>;

export const ZSignInResponseSchema = z.object({
  status: ZSignInStatusSchema,
  step: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** False when the user is a publisher or advertiser who must tick the terms at step 2. */
  hasUserAgreed: z.boolean(),
  userType: ZUserTypeSchema.nullable(),
  redirectTo: z.string().nullable(),
});
export type TSignInResponse = z.infer<typeof ZSignInResponseSchema>;

/** Passwordless sign-in: step 1 mails a code, step 2 checks it and starts the session. */
export const signInCall = defineCall({
  method: 'POST',
  path: '/api/common/signin',
  access: 'public',
  request: ZSignInRequestSchema,
  response: ZSignInResponseSchema,
});
