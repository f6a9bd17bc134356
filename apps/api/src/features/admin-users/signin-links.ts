import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { auditLog, signinLinks, users, type Database } from '@helium/db';
import { DAY_MS, MINUTE_MS } from '@helium/domain';
import { hashToken, randomToken } from '../../infra/tokens.ts';
import { forbidden, notFound } from '../../http/errors.ts';

/** How long an admin's "Sign In ->" link works (docs/decisions.md section 7: short-lived). */
export const SIGNIN_LINK_MINUTES = 5;

/** The API's path of a sign-in link (outside /api: a GET the browser opens, registered in routes.ts). */
export const SIGNIN_AS_PATH = '/signin-as';

/**
 * A one-time link for `adminId` to sign in as `userId`: a random token whose hash is stored with its expiry.
 * Nobody signs in as an admin (their own session is the only way to act as one): 403.
 */
export async function createSigninLink(
  db: Database,
  adminId: number,
  userId: number,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const [target] = await db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId));
  if (!target) throw notFound('No such user.');
  if (target.isAdmin) throw forbidden('Nobody signs in as an admin.');
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SIGNIN_LINK_MINUTES * MINUTE_MS);
  await db.insert(signinLinks).values({ tokenHash: hashToken(token), adminId, userId, createdAt: now, expiresAt });
  // Links dead for a day are of no use to anyone (their uses are in the audit log): each new one sweeps them.
  await db.delete(signinLinks).where(lt(signinLinks.expiresAt, new Date(now.getTime() - DAY_MS)));
  return { url: `${SIGNIN_AS_PATH}/${token}`, expiresAt };
}

export interface SigninLinkUse {
  token: string;
  /** The signed-in user of the browser that opens the link: it must be the admin who asked for it. */
  sessionUserId: number | null;
  /** The browser's session is itself an impersonation: such a session never opens a link. */
  sessionIsImpersonation: boolean;
  ip: string;
  now: Date;
}

/**
 * Spends a link: in one transaction, marks it used if it is unused, unexpired and opened in its admin's browser
 * (a compare-and-set, so of two concurrent uses one wins), and writes `user.signinAs` to the audit log with the
 * admin as actor. Answers who to sign in and as whom, or null (unknown, forged, used, expired, another browser):
 * then nothing changed.
 */
export async function useSigninLink(
  db: Database,
  use: SigninLinkUse,
): Promise<{ userId: number; adminId: number } | null> {
  if (use.sessionUserId === null || use.sessionIsImpersonation || !/^[A-Za-z0-9_-]{20,100}$/.test(use.token)) {
    return null;
  }
  const sessionUserId = use.sessionUserId;
  const refused = new Error('refused');
  try {
    return await db.transaction(async (tx) => {
      const [link] = await tx
        .update(signinLinks)
        .set({ usedAt: use.now })
        .where(
          and(
            eq(signinLinks.tokenHash, hashToken(use.token)),
            eq(signinLinks.adminId, sessionUserId),
            isNull(signinLinks.usedAt),
            gt(signinLinks.expiresAt, use.now),
          ),
        )
        .returning({ id: signinLinks.id, userId: signinLinks.userId, adminId: signinLinks.adminId });
      if (!link) return null;
      // The admin must still be one, and the user still not one.
      const [admin] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, link.adminId));
      const [target] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, link.userId));
      // Thrown, so that the link's use is rolled back with the rest.
      if (!admin?.isAdmin || !target || target.isAdmin) throw refused;
      await tx.insert(auditLog).values({
        actorUserId: link.adminId,
        action: 'user.signinAs',
        targetType: 'user',
        targetId: link.userId,
        details: { linkId: link.id },
        ip: use.ip,
        createdAt: use.now,
      });
      return { userId: link.userId, adminId: link.adminId };
    });
  } catch (error) {
    if (error === refused) return null;
    throw error;
  }
}
