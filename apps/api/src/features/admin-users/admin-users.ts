import { asc, count, inArray, sql, type SQL } from 'drizzle-orm';
import { advertisers, publishers, users, type Database } from '@helium/db';
import { ADMIN_USERS_PAGE_SIZE, type TAdminUsersResponse } from '@helium/contracts';

export interface UserListQuery {
  search?: string;
  page?: number;
  pageSize?: number;
}

/** `text` as a LIKE pattern that matches it literally (its `%`, `_` and `\` escaped). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The web app's address that opens a user's session in a new tab; it mints the one-time link when opened. */
export function signinUrlOf(userId: number): string {
  return `/admin/users/${userId}/signin`;
}

/**
 * One page of the users by name (then id), each with the ids of the publisher and advertiser accounts it holds,
 * and how many match. `search` matches a name or an e-mail anywhere in it, case-insensitive. At 10,000 users this
 * is one scan of the table (tens of milliseconds at most, measured by npm run bench:admin-users; docs/admin.md) plus
 * the accounts of the page's users only.
 */
export async function listUsers(db: Database, query: UserListQuery): Promise<TAdminUsersResponse> {
  const pageSize = query.pageSize ?? ADMIN_USERS_PAGE_SIZE;
  const page = query.page ?? 1;
  const search = query.search?.trim().toLowerCase() ?? '';
  const where: SQL | undefined = search
    ? sql`(lower(${users.name}) like ${`%${likeLiteral(search)}%`} or lower(${users.email}) like ${`%${likeLiteral(search)}%`})`
    : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({ id: users.id, name: users.name, email: users.email, isAdmin: users.isAdmin })
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(users).where(where),
  ]);
  const ids = rows.map((row) => row.id);
  const [publisherRows, advertiserRows] = ids.length
    ? await Promise.all([
        db
          .select({ id: publishers.id, userId: publishers.userId })
          .from(publishers)
          .where(inArray(publishers.userId, ids))
          .orderBy(asc(publishers.id)),
        db
          .select({ id: advertisers.id, userId: advertisers.userId })
          .from(advertisers)
          .where(inArray(advertisers.userId, ids))
          .orderBy(asc(advertisers.id)),
      ])
    : [[], []];
  return {
    users: rows.map((user) => ({
      id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      publisher_ids: publisherRows.filter((p) => p.userId === user.id).map((p) => p.id),
      advertiser_ids: advertiserRows.filter((a) => a.userId === user.id).map((a) => a.id),
      signinUrl: user.isAdmin ? null : signinUrlOf(user.id),
    })),
    total: counted?.total ?? 0,
    page,
    pageSize,
  };
}
