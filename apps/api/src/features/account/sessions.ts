import { and, eq, exists, gt, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { sessions, users, type Database } from '@helium/db';
import { DAY_MS, MINUTE_MS } from '@helium/domain';
import { hashToken, randomToken } from '../../infra/tokens.ts';

/** How long a session lasts without signing in again. */
export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * DAY_MS;
/** How long an admin acts as a user at most before the browser falls back to the admin (docs/security.md). */
export const ACTING_MINUTES = 60;

export interface SessionInfo {
  id: string;
  userId: number;
  /** The admin acting as the user (a session opened by "Sign In ->"), else null. */
  impersonatorId: number | null;
  /** The admin's own session an acting session came from: live as long as the acting one is. */
  actingFromSessionId: string | null;
  expiresAt: Date;
}

/** The admin's own session, seen from the acting session that came from it. */
const origin = alias(sessions, 'origin');

/**
 * Server-side sessions: the httpOnly cookie holds a random token, the table holds its hash, so a session
 * can be revoked (sign-out) and a stolen database row signs no one in.
 */
export class SessionStore {
  constructor(private readonly db: Database) {}

  /**
   * The live session of a cookie's token (unexpired, not revoked, its user still there; an acting session only
   * while the admin's own session it came from is live too), or null.
   */
  async find(token: string, now: Date): Promise<SessionInfo | null> {
    const originLive = this.db
      .select({ one: sql`1` })
      .from(origin)
      .where(and(eq(origin.id, sessions.actingFromSessionId), isNull(origin.revokedAt), gt(origin.expiresAt, now)));
    const [row] = await this.db
      .select({
        id: sessions.id,
        userId: sessions.userId,
        impersonatorId: sessions.impersonatorId,
        actingFromSessionId: sessions.actingFromSessionId,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, hashToken(token)),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          or(isNull(sessions.actingFromSessionId), exists(originLive)),
        ),
      )
      .limit(1);
    return row ?? null;
  }

  /** A new session; answers the token for the cookie and when it expires. */
  async start(session: {
    userId: number;
    impersonatorId: number | null;
    ip: string;
    userAgent: string | null;
    now: Date;
  }): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken();
    const expiresAt = new Date(session.now.getTime() + SESSION_MS);
    await this.db.insert(sessions).values({
      id: hashToken(token),
      userId: session.userId,
      impersonatorId: session.impersonatorId,
      ip: session.ip,
      userAgent: session.userAgent,
      createdAt: session.now,
      lastSeenAt: session.now,
      expiresAt,
    });
    return { token, expiresAt };
  }

  /**
   * A session of `userId` for the admin `adminId` acting as them, from the admin's own live session `from`
   * (which is left as it is): it ends after ACTING_MINUTES, or with the admin's session if that ends first.
   */
  async startActing(acting: {
    userId: number;
    adminId: number;
    from: SessionInfo;
    ip: string;
    userAgent: string | null;
    now: Date;
  }): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken();
    const bounded = acting.now.getTime() + ACTING_MINUTES * MINUTE_MS;
    const expiresAt = new Date(Math.min(bounded, acting.from.expiresAt.getTime()));
    await this.db.insert(sessions).values({
      id: hashToken(token),
      userId: acting.userId,
      impersonatorId: acting.adminId,
      actingFromSessionId: acting.from.id,
      ip: acting.ip,
      userAgent: acting.userAgent,
      createdAt: acting.now,
      lastSeenAt: acting.now,
      expiresAt,
    });
    return { token, expiresAt };
  }

  async revoke(sessionId: string, now: Date): Promise<void> {
    await this.db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
  }
}

/**
 * Whether the user signed in from this address since `since` (the session may have ended since): the
 * sign-in limits trust such an address more than an unknown one (features/signin/signin-limits.ts).
 */
export async function hasSignedInFrom(db: Database, userId: number, ip: string, since: Date): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        eq(sessions.ip, ip),
        gt(sessions.createdAt, since),
        // An admin's impersonation is not the user signing in.
        isNull(sessions.impersonatorId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
