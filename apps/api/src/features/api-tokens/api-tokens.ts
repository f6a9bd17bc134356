import { and, count, desc, eq, isNull, lte, or } from 'drizzle-orm';
import { apiTokens, auditLog, users, type Database } from '@helium/db';
import { API_TOKEN_PREFIX, API_TOKENS_PER_USER, type TApiTokens, type TCreatedApiToken } from '@helium/contracts';
import { isUserType, MINUTE_MS, resolveCurrentAccount, USER_TYPE } from '@helium/domain';
import { accountsOf, findUserById } from '../account/users.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { hashToken, randomToken } from '../../infra/tokens.ts';

/*
 * Personal API tokens (issue 35, point 3; docs/security.md "API tokens"). A token is `hat_` and 32 random bytes in
 * base64url; the table keeps its SHA-256 only (as sessions do), so it is shown once, at creation. What a token may
 * call and how a request carrying one is let in: http/bearer.ts.
 */

/** How often a token's last use is written at most: reading it on every call would cost a write per call. */
export const LAST_USE_EVERY_MS = MINUTE_MS;

/** Who acts, for the audit log. */
export interface TokenActor {
  userId: number;
  ip: string;
  now: Date;
}

/**
 * A new token for the user, under the cap of live tokens (409 past it), reading the account in use now (whatever
 * the user chooses in the web app later); written to the audit log.
 */
export async function createApiToken(db: Database, actor: TokenActor, name: string): Promise<TCreatedApiToken> {
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const user = await findUserById(db, actor.userId);
  const current = user ? resolveCurrentAccount(user, await accountsOf(db, actor.userId)) : null;
  const id = await db.transaction(async (tx) => {
    // The user's row is the lock: two creations at once cannot both pass the cap.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.userId)).for('update');
    const [live] = await tx
      .select({ n: count() })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, actor.userId), isNull(apiTokens.revokedAt)));
    if ((live?.n ?? 0) >= API_TOKENS_PER_USER) {
      throw new HttpError(
        409,
        'tooManyApiTokens',
        `You already have ${API_TOKENS_PER_USER} API tokens: revoke one you no longer use first.`,
      );
    }
    const [row] = await tx
      .insert(apiTokens)
      .values({
        userId: actor.userId,
        name,
        tokenHash: hashToken(token),
        accountType: current?.type ?? null,
        accountId: current?.account?.id ?? null,
        createdAt: actor.now,
      })
      .returning({ id: apiTokens.id });
    await tx.insert(auditLog).values({
      actorUserId: actor.userId,
      action: 'apiToken.create',
      targetType: 'apiToken',
      targetId: row!.id,
      details: { name },
      ip: actor.ip,
      createdAt: actor.now,
    });
    return row!.id;
  });
  return { id, token };
}

/** The user's live tokens, newest first: names and dates, never the token. */
export async function listApiTokens(db: Database, userId: number): Promise<TApiTokens> {
  const rows = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      accountType: apiTokens.accountType,
      accountId: apiTokens.accountId,
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  const accounts = await accountsOf(db, userId);
  const brandOf = (type: number, id: number | null) =>
    (type === USER_TYPE.publisher ? accounts.publishers : accounts.advertisers).find((held) => held.id === id)?.brand ??
    null;
  return {
    tokens: rows.map((row) => ({
      id: row.id,
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      account:
        row.accountType !== null && isUserType(row.accountType)
          ? {
              type: row.accountType,
              brand: row.accountType === USER_TYPE.admin ? null : brandOf(row.accountType, row.accountId),
            }
          : null,
    })),
  };
}

/** Revokes one of the user's live tokens: 404 for a token that is not theirs, or no longer live. */
export async function revokeApiToken(db: Database, actor: TokenActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: actor.now })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, actor.userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id, name: apiTokens.name });
    if (!row) throw notFound('No such API token.');
    await tx.insert(auditLog).values({
      actorUserId: actor.userId,
      action: 'apiToken.revoke',
      targetType: 'apiToken',
      targetId: row.id,
      details: { name: row.name },
      ip: actor.ip,
      createdAt: actor.now,
    });
  });
}

/** A live token as a request's bearer: whose it is, which account it reads, and when it was last used. */
export interface LiveApiToken {
  id: number;
  userId: number;
  account: { type: number; id: number | null } | null;
  lastUsedAt: Date | null;
}

/** The live token a bearer value names, or null (unknown, revoked, or not even shaped as a token). */
export async function findLiveApiToken(db: Database, token: string): Promise<LiveApiToken | null> {
  if (!token.startsWith(API_TOKEN_PREFIX)) return null;
  const [row] = await db
    .select({
      id: apiTokens.id,
      userId: apiTokens.userId,
      accountType: apiTokens.accountType,
      accountId: apiTokens.accountId,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  const { accountType, accountId, ...rest } = row;
  return { ...rest, account: accountType === null ? null : { type: accountType, id: accountId } };
}

/**
 * Records a use of the token: written only when the last one on record is a minute old or more, and then by a
 * conditional update, so that several instances at once write it once.
 */
export async function recordApiTokenUse(db: Database, token: LiveApiToken, now: Date): Promise<void> {
  const before = new Date(now.getTime() - LAST_USE_EVERY_MS);
  if (token.lastUsedAt && token.lastUsedAt > before) return;
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(apiTokens.id, token.id), or(isNull(apiTokens.lastUsedAt), lte(apiTokens.lastUsedAt, before))));
}
