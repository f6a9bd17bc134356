import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { advertisers, publishers, users } from '@helium/db';
import { ZAdminUsersResponseSchema, type TAdminUsersResponse } from '@helium/contracts';
import { answerWith } from '../../validation.ts';

/** POST /api/admin/get-users: every user with the publisher and advertiser accounts they hold. */
export default async function usersRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  app.post('/get-users', async (): Promise<TAdminUsersResponse> => {
    const [userRows, publisherRows, advertiserRows] = await Promise.all([
      db.select().from(users).orderBy(asc(users.name)),
      db.select({ id: publishers.id, userId: publishers.userId }).from(publishers),
      db.select({ id: advertisers.id, userId: advertisers.userId }).from(advertisers),
    ]);
    return answerWith(ZAdminUsersResponseSchema, {
      users: userRows.map((user) => ({
        id: user.id,
        name: user.name,
        email: user.email,
        isAdmin: user.isAdmin,
        publisher_ids: publisherRows.filter((p) => p.userId === user.id).map((p) => p.id),
        advertiser_ids: advertiserRows.filter((a) => a.userId === user.id).map((a) => a.id),
      })),
    });
  });
}
