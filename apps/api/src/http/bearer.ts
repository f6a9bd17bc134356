import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Call } from '@helium/contracts';
import { MINUTE_MS } from '@helium/domain';
import { findLiveApiToken, recordApiTokenUse } from '../features/api-tokens/api-tokens.ts';
import type { RateLimit } from '../infra/rate-limiter.ts';
import { HttpError } from './errors.ts';

/** Calls one token may make in a minute, by default (BuildAppOptions.apiTokenLimit). */
export const API_TOKEN_RATE_LIMIT: RateLimit = { limit: 120, windowMs: MINUTE_MS };

/** The caller a personal API token names: its user, as the gate reads a session's. */
export interface ApiTokenCaller {
  id: number;
  userId: number;
  /** The account the token reads (the one in use when it was made), or null: the user's account in use. */
  account: { type: number; id: number | null } | null;
}

/**
 * `Authorization: Bearer hat_...`: a personal API token (docs/security.md "API tokens") in place of the session
 * cookie and the anti-forgery token, for the calls whose contract says `token: 'read'` (route.ts puts it in the
 * route's config). In order: an unknown or revoked token answers 401; past its rate limit 429; any call not marked
 * readable 403, with nothing done; else the token's use is recorded and the request goes on as its user, whose
 * account in use the gate resolves as for a session (so a token reaches exactly what the session would).
 *
 * Registered before csrf.ts and session.ts in the API scope (app.ts): both skip a request a token let in. A request
 * without an Authorization header costs one property read here. A browser never sends this header to the API on
 * another site's behalf (it is not a simple header: no CORS is allowed), which is why no anti-forgery token is asked.
 */
export default fp(async function bearer(app: FastifyInstance, options: { limit: RateLimit }) {
  const { db, clock, limiter } = app.ctx;
  const perToken = limiter.rule(options.limit);
  app.decorateRequest('apiToken', null);

  async function authenticate(request: FastifyRequest, reply: FastifyReply, header: string): Promise<void> {
    const token = bearerValue(header);
    // Another scheme (Basic, ...) is not ours: the request goes on as any other.
    if (token === undefined) return;
    // A route that is no call of the API (the reference, its page, a static file, a path that does not exist) reads
    // no identity: a client that sends its token with every request still gets it, or its 404.
    const config = request.routeOptions.config as { call?: string; token?: Call['token'] } | undefined;
    if (!config?.call) return;
    const found = token ? await findLiveApiToken(db, token) : null;
    if (!found) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
      throw new HttpError(401, 'invalidApiToken', 'This API token is unknown or was revoked.');
    }
    if (!(await perToken.allow(request, `apitoken:${found.id}`))) {
      reply.header('retry-after', String(Math.ceil(options.limit.windowMs / 1000)));
      throw new HttpError(429, 'tooManyRequests', 'Too many calls with this API token. Wait a minute, then try again.');
    }
    if (config.token !== 'read') {
      throw new HttpError(
        403,
        'apiTokenReadOnly',
        'API tokens are read-only: this call needs a signed-in session in the web app.',
      );
    }
    await recordApiTokenUse(db, found, clock.now());
    request.apiToken = { id: found.id, userId: found.userId, account: found.account };
  }

  app.addHook('onRequest', (request, reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined) return done();
    authenticate(request, reply, header).then(() => done(), done);
  });
});

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 9110), '' for a Bearer header
 * with no token, undefined for another scheme.
 */
export function bearerValue(header: string): string | undefined {
  const match = /^bearer(?:\s+(.*))?$/i.exec(header.trim());
  if (!match) return undefined;
  return (match[1] ?? '').trim();
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The personal API token this request came with (bearer.ts), or null. */
    apiToken: ApiTokenCaller | null;
  }
}
