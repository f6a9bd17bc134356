import { asc } from 'drizzle-orm';
import { advertisers, publishers, users, type Database } from '@helium/db';
import type { TAdminUsersResponse } from '@helium/contracts';

/** Every user by name, with the ids of the publisher and advertiser accounts each holds. */
export async function listUsers(db: Database): Promise<TAdminUsersResponse['users']> {
  const [userRows, publisherRows, advertiserRows] = await Promise.all([
    db.select().from(users).orderBy(asc(users.name)),
    db.select({ id: publishers.id, userId: publishers.userId }).from(publishers),
    db.select({ id: advertisers.id, userId: advertisers.userId }).from(advertisers),
  ]);
  return userRows.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    publisher_ids: publisherRows.filter((p) => p.userId === user.id).map((p) => p.id),
    advertiser_ids: advertiserRows.filter((a) => a.userId === user.id).map((a) => a.id),
  }));
}
