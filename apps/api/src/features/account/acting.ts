import { and, eq, isNull } from 'drizzle-orm';
import { auditLog, sessions, users, type Database } from '@helium/db';
import type { TActingAs } from '@helium/contracts';
import { MINUTE_MS } from '@helium/domain';
import type { SessionInfo } from './sessions.ts';

/**
 * Acting as a user (docs/security.md, "Acting as a user"): an admin's "Sign In ->" opens a session of the user's
 * that remembers the admin and the admin's own session (sessions.ts); it is entered with the audit row
 * `user.signinAs` (admin-users/signin-links.ts) and left with `user.signinAsEnded`, written here.
 */

/** Why an acting session ended, as the audit row says: "Back to my account", its time was up, or a sign-out. */
export type ActingEndReason = 'back' | 'expired' | 'signOut';

export const ACTING_ENDED_ACTION = 'user.signinAsEnded';

/** Who is acting in this session (the admin's name, e-mail and language, until when), or null for the user's own. */
export async function actingAsOf(db: Database, session: SessionInfo | null): Promise<TActingAs | null> {
  if (!session || session.impersonatorId === null) return null;
  const [admin] = await db
    .select({ name: users.name, email: users.email, locale: users.locale })
    .from(users)
    .where(eq(users.id, session.impersonatorId));
  if (!admin) return null;
  return {
    adminName: admin.name,
    adminEmail: admin.email,
    adminLocale: admin.locale,
    until: session.expiresAt.toISOString(),
  };
}

/**
 * Ends the acting sessions that came from the admin's session `fromSessionId` (at most one is live) and writes
 * `user.signinAsEnded` for each, with the admin as actor, in one transaction. A session already ended is left
 * alone, so of two concurrent ends one writes the row. One whose time was up is ended as `expired`.
 */
export async function endActingFrom(
  db: Database,
  end: { fromSessionId: string; reason: ActingEndReason; ip: string; now: Date },
): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: end.now })
      .where(and(eq(sessions.actingFromSessionId, end.fromSessionId), isNull(sessions.revokedAt)))
      .returning({
        userId: sessions.userId,
        adminId: sessions.impersonatorId,
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
      });
    for (const session of ended) {
      const reason = session.expiresAt <= end.now ? 'expired' : end.reason;
      const endedAt = reason === 'expired' ? session.expiresAt : end.now;
      await tx.insert(auditLog).values({
        actorUserId: session.adminId,
        action: ACTING_ENDED_ACTION,
        targetType: 'user',
        targetId: session.userId,
        details: { reason, minutes: Math.round((endedAt.getTime() - session.createdAt.getTime()) / MINUTE_MS) },
        ip: end.ip,
        createdAt: end.now,
      });
    }
    return ended.length;
  });
}
