import type { z } from 'zod';

/**
 * Who may make a call. The API's one route helper turns it into the gate, so no route can forget one:
 * `public` (no session: sign-in, the mailed hash links), `signedIn` (any type), one account type, or
 * `advertiserOrAdmin` (the places a campaign may target: read by advertisers and by admins editing campaigns).
 */
export type CallAccess = 'public' | 'signedIn' | 'admin' | 'publisher' | 'advertiser' | 'advertiserOrAdmin';

/**
 * One call of the API: everything the server and the web app need to agree on. The API registers its route
 * from it (`apps/api/src/http/route.ts`) and the web app's client sends it (`apps/web/src/api/client.ts`).
 * `request` is null for a call whose body is ignored (or, for the upload, sent as multipart form data).
 */
export interface Call<
  Path extends string = string,
  Request extends z.ZodType | null = z.ZodType | null,
  Response extends z.ZodType = z.ZodType,
  Access extends CallAccess = CallAccess,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: 'POST';
  path: Path;
  access: Access;
  request: Request;
  /** Query parameters the call takes (the card checkout's, as the specification has them). */
  query?: Query;
  /**
   * Sent by a provider's server, not a browser: no session and no anti-forgery token; the route checks the
   * provider's signature instead.
   */
  signedBy?: 'stripe';
  /**
   * `read`: a personal API token (`Authorization: Bearer hat_...`, docs/security.md "API tokens") may make this call,
   * with no session cookie and no anti-forgery token, as its user's session would (the same gate). Only calls that
   * change nothing are marked; any other call made with a token answers 403.
   */
  token?: 'read';
  /**
   * Refused (403 `notWhileActing`) in a session where an admin acts as the user: what only the user may decide,
   * such as where their money goes (docs/security.md, "Acting as a user").
   */
  refusedWhileActing?: true;
  response: Response;
}

/** Declares a call; its path and access stay literal types (the route's actor is typed from the access). */
export function defineCall<
  const Path extends string,
  Request extends z.ZodType | null,
  Response extends z.ZodType,
  const Access extends CallAccess,
  Query extends z.ZodType | undefined = undefined,
>(call: Call<Path, Request, Response, Access, Query>): Call<Path, Request, Response, Access, Query> {
  return call;
}

/** What the browser sends (before the schema's transforms): nothing for a call without a body. */
export type CallInput<C extends Call> = C['request'] extends z.ZodType ? z.input<C['request']> : void;
/** The query parameters a call takes, as the browser gives them. */
export type CallQuery<C extends Call> =
  Exclude<C['query'], undefined> extends z.ZodType ? z.input<Exclude<C['query'], undefined>> : void;
/** The body as the route sees it, parsed and transformed by the schema. */
export type CallBody<C extends Call> = C['request'] extends z.ZodType ? z.output<C['request']> : undefined;
/** What the route answers (checked against the schema before it is sent). */
export type CallResponse<C extends Call> = z.output<C['response']>;
