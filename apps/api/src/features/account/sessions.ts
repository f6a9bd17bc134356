import { and, eq, gt, isNull } from 'drizzle-orm';
import { sessions, users, type Database } from '@helium/db';
import { DAY_MS } from '@helium/domain';
import { hashToken, randomToken } from '../../infra/tokens.ts';

/** How long a session lasts without signing in again. */
export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * DAY_MS;

export interface SessionInfo {
  id: string;
  userId: number;
  impersonatorId: number | null;
}

/**
 * Server-side sessions: the httpOnly cookie holds a random token, the table holds its hash, so a session
 * can be revoked (sign-out) and a stolen database row signs no one in.
 */
export class SessionStore {
  constructor(private readonly db: Database) {}

  /** The live session of a cookie's token (unexpired, not revoked, its user still there), or null. */
  async find(token: string, now: Date): Promise<SessionInfo | null> {
    const [row] = await this.db
      .select({ id: sessions.id, userId: sessions.userId, impersonatorId: sessions.impersonatorId })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, hashToken(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
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
