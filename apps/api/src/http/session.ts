import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SessionStore, type SessionInfo } from '../features/account/sessions.ts';
import { unauthorized } from './errors.ts';

export type { SessionInfo };
export const SESSION_COOKIE = 'helium_session';

/**
 * The session cookie: looked up for every route of the scope it is registered in (the API calls, app.ts),
 * set at sign-in, cleared at sign-out (sessions.ts stores them). Each start and end issues a fresh
 * anti-forgery token bound to what comes next (csrf.ts, registered before it).
 */
export default fp(async function session(app: FastifyInstance) {
  if (!app.hasDecorator('issueXsrfCookie')) throw new Error('Register http/csrf.ts before http/session.ts');
  const { db, clock, config } = app.ctx;
  const store = new SessionStore(db);
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.appUrl.startsWith('https:'),
    signed: false,
  };

  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    // A request a personal API token let in (bearer.ts) acts as the token's user only, whatever cookie it carries.
    if (!token || request.apiToken) return;
    request.session = await store.find(token, clock.now());
  });

  app.decorate(
    'startSession',
    async (request: FastifyRequest, reply: FastifyReply, userId: number, impersonatorId: number | null = null) => {
      const { token, expiresAt } = await store.start({
        userId,
        impersonatorId,
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        now: clock.now(),
      });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
      app.issueXsrfCookie(reply, { sessionToken: token });
    },
  );

  app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.session) {
      await store.revoke(request.session.id, clock.now());
      request.session = null;
    }
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    app.issueXsrfCookie(reply, { browserId: app.ensureBrowserId(request, reply) });
  });
});

/** The user making the call: the session's, or a personal API token's (http/bearer.ts); else a 401. */
export function requireCaller(request: FastifyRequest): { userId: number } {
  const caller = request.session ?? request.apiToken;
  if (!caller) throw unauthorized();
  return caller;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionInfo | null;
  }
  interface FastifyInstance {
    startSession(
      request: FastifyRequest,
      reply: FastifyReply,
      userId: number,
      impersonatorId?: number | null,
    ): Promise<void>;
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}
