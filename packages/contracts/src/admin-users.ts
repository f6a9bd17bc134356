import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZIdSchema } from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

/*
 * Admin: Users (specification 01, sections 2 and 7; issue 24; docs/admin.md). The list is searched and paged on the
 * server; "Sign In ->" asks for a one-time link (create-signin-link) when it is clicked, so listing mints nothing.
 */

/** Users per page of the list unless the call asks for another size. */
export const ADMIN_USERS_PAGE_SIZE = 50;

export const ZAdminUserRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  publisher_ids: z.array(z.number().int()),
  advertiser_ids: z.array(z.number().int()),
  /**
   * The web app's address that opens this user's session in a new tab (`/admin/users/<id>/signin`): it asks for a
   * one-time link at that moment. Null for admins, whom nobody signs in as.
   */
  signinUrl: z.string().nullable(),
});
export type TAdminUserRow = z.infer<typeof ZAdminUserRowSchema>;

/**
 * POST /api/admin/get-users: every field optional, so the spec's call without a body (or with `sortBy`) still
 * answers the first page. `search` matches a name or an e-mail, case-insensitive, anywhere in it.
 */
export const ZGetUsersRequestSchema = z.object({
  search: z.string().trim().max(TEXT_LIMITS.search).optional(),
  page: z.number().int().min(1).max(100_000).optional(),
  pageSize: z.number().int().min(1).max(200).optional(),
  sortBy: z.string().max(40).optional(),
});
export type TGetUsersRequest = z.input<typeof ZGetUsersRequestSchema>;

export const ZAdminUsersResponseSchema = z.object({
  users: z.array(ZAdminUserRowSchema),
  /** How many users match the search (all pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TAdminUsersResponse = z.infer<typeof ZAdminUsersResponseSchema>;

export const getUsersCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-users',
  access: 'admin',
  request: ZGetUsersRequestSchema,
  response: ZAdminUsersResponseSchema,
});

/** POST /api/admin/create-signin-link: a one-time link, valid a few minutes, to sign in as this user. */
export const ZCreateSigninLinkRequestSchema = z.object({ userId: ZIdSchema });
export const ZCreateSigninLinkResponseSchema = z.object({
  /** A path of the API (`/signin-as/<token>`): open it in the same browser. */
  url: z.string(),
  expiresAt: z.string(),
});
export type TCreateSigninLinkResponse = z.infer<typeof ZCreateSigninLinkResponseSchema>;

export const createSigninLinkCall = defineCall({
  method: 'POST',
  path: '/api/admin/create-signin-link',
  access: 'admin',
  request: ZCreateSigninLinkRequestSchema,
  response: ZCreateSigninLinkResponseSchema,
});

/** Calls of this feature, listed in calls.ts. */
export const ADMIN_USERS_CALLS = [getUsersCall, createSigninLinkCall] as const;
