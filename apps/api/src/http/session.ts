import fp from 'fastify-plugin';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sessions, users } from '@helium/db';
import { hashToken, randomToken } from '../infra/tokens.ts';
import { unauthorized } from './errors.ts';

export const SESSION_COOKIE = 'helium_session';
const SESSION_DAYS = 30;

export interface SessionInfo {
  id: string;
  userId: number;
  impersonatorId: number | null;
}

/**
 * Server-side sessions: the httpOnly cookie holds a random token, the table holds its hash, so a session
 * can be revoked (sign-out) and a stolen database row signs no one in.
 */
export default fp(async function session(app: FastifyInstance) {
  const { db, clock, config } = app.ctx;
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.appUrl.startsWith('https:'),
    signed: false,
  };

  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const [row] = await db
      .select({ id: sessions.id, userId: sessions.userId, impersonatorId: sessions.impersonatorId })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, hashToken(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now())))
      .limit(1);
    request.session = row ?? null;
  });

  app.decorate(
    'startSession',
    async (request: FastifyRequest, reply: FastifyReply, userId: number, impersonatorId: number | null = null) => {
      const token = randomToken();
      const expiresAt = new Date(clock.now().getTime() + SESSION_DAYS * 86_400_000);
      await db.insert(sessions).values({
        id: hashToken(token),
        userId,
        impersonatorId,
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        createdAt: clock.now(),
        lastSeenAt: clock.now(),
        expiresAt,
      });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
    },
  );

  app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.session) {
      await db.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.id, request.session.id));
      request.session = null;
    }
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
  });
});

/** The signed-in session, or a 401. */
export function requireSession(request: FastifyRequest): SessionInfo {
  if (!request.session) throw unauthorized();
  return request.session;
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
