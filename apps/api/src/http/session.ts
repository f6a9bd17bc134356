import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SessionStore, type SessionInfo } from '../features/account/sessions.ts';
import { endActingFrom, type ActingEndReason } from '../features/account/acting.ts';
import { hashToken, safeEqual } from '../infra/tokens.ts';
import { unauthorized } from './errors.ts';

export type { SessionInfo };
export const SESSION_COOKIE = 'helium_session';
/**
 * While an admin acts as a user, the admin's own session token (httpOnly, like the session's): what "Back to my
 * account" puts back. It counts only as the session the acting one came from (`actingFromSessionId`).
 */
export const ACTING_RETURN_COOKIE = 'helium_acting_return';

/**
 * The session cookie: looked up for every route of the scope it is registered in (the API calls, app.ts),
 * set at sign-in, cleared at sign-out (sessions.ts stores them). Each start and end issues a fresh
 * anti-forgery token bound to what comes next (csrf.ts, registered before it).
 *
 * Acting as a user (docs/security.md): the cookie is the browser's, shared by its tabs, so while an admin acts
 * every tab is the user's (and shows it); the admin's own session stays live, its token kept aside in
 * ACTING_RETURN_COOKIE until the admin goes back, signs out, or the acting session's time is up.
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

  /** The browser's session from now on: its cookie and an anti-forgery token bound to it. */
  const useSession = (reply: FastifyReply, token: string, expiresAt: Date) => {
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
    app.issueXsrfCookie(reply, { sessionToken: token });
  };

  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    // A request a personal API token let in (bearer.ts) acts as the token's user only, whatever cookie it carries.
    if (request.apiToken) return;
    if (token) request.session = await store.find(token, clock.now());
    const returnToken = request.cookies[ACTING_RETURN_COOKIE];
    if (request.session || !returnToken) return;
    // An acting session that is over (its time was up): the browser falls back to the admin's own session, if
    // it is still live. This request is answered as signed out; the web app's next look finds the admin.
    const now = clock.now();
    const own = await store.find(returnToken, now);
    if (own && own.impersonatorId === null) {
      await endActingFrom(db, { fromSessionId: own.id, reason: 'expired', ip: request.ip, now });
      useSession(reply, returnToken, own.expiresAt);
    }
    reply.clearCookie(ACTING_RETURN_COOKIE, cookieOptions);
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
      useSession(reply, token, expiresAt);
      if (request.cookies[ACTING_RETURN_COOKIE]) reply.clearCookie(ACTING_RETURN_COOKIE, cookieOptions);
    },
  );

  app.decorate('startActing', async (request: FastifyRequest, reply: FastifyReply, userId: number, adminId: number) => {
    const from = request.session;
    const ownToken = request.cookies[SESSION_COOKIE];
    if (!from || from.userId !== adminId || from.impersonatorId !== null || !ownToken) throw unauthorized();
    const { token } = await store.startActing({
      userId,
      adminId,
      from,
      ip: request.ip,
      userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
      now: clock.now(),
    });
    // Both cookies last as long as the admin's session: the acting one's end is the server's to tell.
    useSession(reply, token, from.expiresAt);
    reply.setCookie(ACTING_RETURN_COOKIE, ownToken, { ...cookieOptions, expires: from.expiresAt });
  });

  app.decorate('stopActing', async (request: FastifyRequest, reply: FastifyReply, reason: ActingEndReason) => {
    const acting = request.session;
    if (!acting?.actingFromSessionId) return 'notActing' as const;
    const now = clock.now();
    await endActingFrom(db, { fromSessionId: acting.actingFromSessionId, reason, ip: request.ip, now });
    request.session = null;
    reply.clearCookie(ACTING_RETURN_COOKIE, cookieOptions);
    const ownToken = request.cookies[ACTING_RETURN_COOKIE];
    const own = ownToken && safeEqual(hashToken(ownToken), acting.actingFromSessionId) ? ownToken : null;
    const ownSession = own ? await store.find(own, now) : null;
    if (own && ownSession) {
      useSession(reply, own, ownSession.expiresAt);
      request.session = ownSession;
      return 'restored' as const;
    }
    // Without the admin's token (a browser that lost its cookie) there is no way back: signed out.
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    app.issueXsrfCookie(reply, { browserId: app.ensureBrowserId(request, reply) });
    return 'signedOut' as const;
  });

  app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
    const current = request.session;
    if (current) {
      const now = clock.now();
      // Signing out while acting signs the browser out: the acting session and the admin's own.
      if (current.actingFromSessionId) {
        await endActingFrom(db, { fromSessionId: current.actingFromSessionId, reason: 'signOut', ip: request.ip, now });
        await store.revoke(current.actingFromSessionId, now);
      }
      await store.revoke(current.id, now);
      request.session = null;
    }
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    if (request.cookies[ACTING_RETURN_COOKIE]) reply.clearCookie(ACTING_RETURN_COOKIE, cookieOptions);
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
    /** The browser's session becomes `userId`'s, for the admin of its live own session acting as them. */
    startActing(request: FastifyRequest, reply: FastifyReply, userId: number, adminId: number): Promise<void>;
    /**
     * Ends the acting session of the request (audited): the admin's own session is the browser's again
     * (`restored`), or, without its token, the browser is signed out; `notActing` changes nothing.
     */
    stopActing(
      request: FastifyRequest,
      reply: FastifyReply,
      reason: ActingEndReason,
    ): Promise<'restored' | 'signedOut' | 'notActing'>;
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}
