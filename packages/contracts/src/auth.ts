import { z } from 'zod';
import { ZCurrencySchema, ZLocaleSchema, ZUserTypeSchema } from './common.ts';

/** POST /api/common/signin: step 1 sends the e-mail; step 2 the code (and the agreement when asked). */
export const ZSignInRequestSchema = z.object({
  step: z.union([z.literal(1), z.literal(2)]),
  email: z.string().trim().toLowerCase().email().max(254),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code has 6 digits')
    .optional(),
  hasUserAgreed: z.boolean().optional(),
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

export const ZAccountSchema = z.object({ id: z.number().int(), brand: z.string() });
export type TAccount = z.infer<typeof ZAccountSchema>;

/** POST /api/common/user: the signed-in user, with the account currently in use. */
export const ZUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** The type of the account in use: 0 admin, 1 publisher, 2 advertiser. */
  type: ZUserTypeSchema,
  /** The publisher or advertiser account in use; null for the admin entry. */
  accountId: z.number().int().nullable(),
  accountBrand: z.string().nullable(),
  isAdmin: z.boolean(),
  locale: ZLocaleSchema,
  currency: ZCurrencySchema,
  usd_to_eur: z.number(),
  btc_to_eur: z.number(),
  ratesDate: z.string(),
  business_id: z.string().nullable(),
  publishers: z.array(ZAccountSchema),
  advertisers: z.array(ZAccountSchema),
  publisher_ids: z.array(z.number().int()),
  advertiser_ids: z.array(z.number().int()),
  isMultiType: z.boolean(),
  cannot_add_ads: z.boolean(),
  agreedAt: z.string().nullable(),
  signinUrl: z.string().nullable(),
});
export type TUser = z.infer<typeof ZUserSchema>;

/** POST /api/common/update-user: switch account (`type` with `type,id`), language or currency. */
export const ZUpdateUserRequestSchema = z.discriminatedUnion('key', [
  z.object({ key: z.literal('type'), value: z.string().regex(/^[012](,\d{1,10})?$/, 'Expected type,id') }),
  z.object({ key: z.literal('locale'), value: ZLocaleSchema }),
  z.object({ key: z.literal('currency'), value: ZCurrencySchema }),
]);
export type TUpdateUserRequest = z.infer<typeof ZUpdateUserRequestSchema>;
