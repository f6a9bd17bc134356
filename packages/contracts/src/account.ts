import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZCurrencySchema, ZLocaleSchema, ZStatusResponseSchema, ZUserTypeSchema } from './common.ts';

export const ZAccountSchema = z.object({ id: z.number().int(), brand: z.string() });
export type TAccount = z.infer<typeof ZAccountSchema>;

/**
 * The admin acting as the user in this session ("Sign In ->", docs/security.md): the web app shows a bar on every
 * screen meanwhile, with "Back to my account" (stop-acting-as). `until`: when the browser falls back to the admin.
 */
/** Who acts as the user: the admin, whose language the "Acting as" bar speaks, and until when. */
export const ZActingAsSchema = z.object({
  adminName: z.string(),
  adminEmail: z.string(),
  adminLocale: ZLocaleSchema,
  until: z.string(),
});
export type TActingAs = z.infer<typeof ZActingAsSchema>;

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
  /** Where home sends this user (a web publisher still to install its script starts on Installation). */
  homePath: z.string(),
  /** Null in the user's own session; the admin when an admin is acting as the user. */
  actingAs: ZActingAsSchema.nullable(),
});
export type TUser = z.infer<typeof ZUserSchema>;

/** POST /api/common/update-user: switch account (`type` with `type,id`), language or currency. */
export const ZUpdateUserRequestSchema = z.discriminatedUnion('key', [
  z.object({ key: z.literal('type'), value: z.string().regex(/^[012](,\d{1,10})?$/, 'Expected type,id') }),
  z.object({ key: z.literal('locale'), value: ZLocaleSchema }),
  z.object({ key: z.literal('currency'), value: ZCurrencySchema }),
]);
export type TUpdateUserRequest = z.infer<typeof ZUpdateUserRequestSchema>;

export const userCall = defineCall({
  method: 'POST',
  path: '/api/common/user',
  access: 'signedIn',
  request: null,
  response: ZUserSchema,
});

/**
 * Who is signed in, for the web app's probe on every first load: `user` is null when nobody is. The sign-in page
 * loads it too, so it answers 200 either way (a 401 would be logged as an error in the browser's console); the
 * specification's /api/common/user keeps its 401.
 */
export const sessionUserCall = defineCall({
  method: 'POST',
  path: '/api/common/session',
  access: 'public',
  request: null,
  response: z.object({ user: ZUserSchema.nullable() }),
});

export const updateUserCall = defineCall({
  method: 'POST',
  path: '/api/common/update-user',
  access: 'signedIn',
  request: ZUpdateUserRequestSchema,
  response: ZStatusResponseSchema,
});

/**
 * "Back to my account": ends the acting session (audited) and makes the admin's own session, kept live meanwhile,
 * the browser's again, without a new code: `restored`; `signedOut` when the browser no longer holds it. 409 outside
 * an acting session.
 */
export const stopActingAsCall = defineCall({
  method: 'POST',
  path: '/api/common/stop-acting-as',
  access: 'signedIn',
  request: null,
  response: z.object({ status: z.enum(['restored', 'signedOut']) }),
});

/** Revokes the session (answers ok when there is none); the specification calls it at both paths. */
export const signOutCall = defineCall({
  method: 'POST',
  path: '/api/signout',
  access: 'public',
  request: null,
  response: ZStatusResponseSchema,
});
export const commonSignOutCall = defineCall({ ...signOutCall, path: '/api/common/signout' });
