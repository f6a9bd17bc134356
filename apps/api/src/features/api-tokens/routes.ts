import type { FastifyInstance } from 'fastify';
import { createApiTokenCall, getApiTokensCall, revokeApiTokenCall } from '@helium/contracts';
import { forbidden } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.ts';

/**
 * A user's personal API tokens (issue 35, point 3): create (the token answered once), list, revoke. Every user
 * type has them; each sees and revokes only their own (another user's id: 404).
 */
export default async function apiTokensRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;

  route(app, createApiTokenCall, async ({ actor, body, request }) => {
    // A token outlives the session: an admin acting as someone does not get a lasting key to their data.
    if (request.session?.impersonatorId != null) {
      throw forbidden('An admin signed in as this user cannot create API tokens for them.');
    }
    return createApiToken(db, { userId: actor.userId, ip: request.ip, now: clock.now() }, body.name);
  });

  route(app, getApiTokensCall, async ({ actor }) => listApiTokens(db, actor.userId));

  route(app, revokeApiTokenCall, async ({ actor, body, request }) => {
    await revokeApiToken(db, { userId: actor.userId, ip: request.ip, now: clock.now() }, body.id);
    return { status: 'ok' };
  });
}
