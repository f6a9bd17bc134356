import { z } from 'zod';
import { defineCall } from './call.ts';
import { singleLineText, ZIdSchema, ZStatusResponseSchema, ZUserTypeSchema } from './common.ts';

/* Personal API tokens (issue 35, point 3; docs/security.md "API tokens"): read-only keys for a user's own tools. */

/** What every token starts with, so that one pasted in the wrong place is recognised (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'hat_';
/** Longest name of a token. */
export const API_TOKEN_NAME_MAX = 80;
/** Live (not revoked) tokens a user may hold at once. */
export const API_TOKENS_PER_USER = 20;

/** POST /api/common/create-api-token: a name to recognise the token by (one line). */
export const ZCreateApiTokenRequestSchema = z.object({
  name: singleLineText().trim().min(1, 'Give the token a name').max(API_TOKEN_NAME_MAX),
});
export type TCreateApiTokenRequest = z.infer<typeof ZCreateApiTokenRequestSchema>;

/** The new token: shown once, never again (only its hash is stored). */
export const ZCreatedApiTokenSchema = z.object({ id: z.number().int(), token: z.string() });
export type TCreatedApiToken = z.infer<typeof ZCreatedApiTokenSchema>;

export const ZApiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** ISO date and time. */
  createdAt: z.string(),
  /** ISO date and time of the last call made with it (to the minute), or null when never used. */
  lastUsedAt: z.string().nullable(),
  /**
   * The account it reads, the one in use when it was made (0 admin, 1 publisher, 2 advertiser, with the
   * publisher's or advertiser's brand); null for a token made before tokens kept theirs: it reads the account in use.
   */
  account: z.object({ type: ZUserTypeSchema, brand: z.string().nullable() }).nullable(),
});
export type TApiToken = z.infer<typeof ZApiTokenSchema>;

/** POST /api/common/get-api-tokens: the user's live tokens, newest first; never the tokens themselves. */
export const ZApiTokensSchema = z.object({ tokens: z.array(ZApiTokenSchema) });
export type TApiTokens = z.infer<typeof ZApiTokensSchema>;

/** POST /api/common/revoke-api-token */
export const ZRevokeApiTokenRequestSchema = z.object({ id: ZIdSchema });
export type TRevokeApiTokenRequest = z.infer<typeof ZRevokeApiTokenRequestSchema>;

export const createApiTokenCall = defineCall({
  method: 'POST',
  path: '/api/common/create-api-token',
  access: 'signedIn',
  request: ZCreateApiTokenRequestSchema,
  response: ZCreatedApiTokenSchema,
});

export const getApiTokensCall = defineCall({
  method: 'POST',
  path: '/api/common/get-api-tokens',
  access: 'signedIn',
  request: null,
  response: ZApiTokensSchema,
});

export const revokeApiTokenCall = defineCall({
  method: 'POST',
  path: '/api/common/revoke-api-token',
  access: 'signedIn',
  request: ZRevokeApiTokenRequestSchema,
  response: ZStatusResponseSchema,
});

/** Calls of this feature, listed in calls.ts. */
export const API_TOKENS_CALLS = [createApiTokenCall, getApiTokensCall, revokeApiTokenCall] as const;
