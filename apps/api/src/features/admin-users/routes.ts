import type { FastifyInstance } from 'fastify';
import { getUsersCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { listUsers } from './admin-users.ts';

/** POST /api/admin/get-users: every user with the publisher and advertiser accounts they hold. */
export default async function adminUsersRoutes(app: FastifyInstance) {
  route(app, getUsersCall, async () => ({ users: await listUsers(app.ctx.db) }));
}
