import type { FastifyInstance } from 'fastify';
import type { UserType } from '@helium/domain';
import { forbidden, unauthorized } from '../errors.ts';
import { requireSession } from './session.ts';
import { accountsOf, findUserById, resolveCurrentAccount } from '../services/users.ts';

export interface Actor {
  userId: number;
  type: UserType;
  /** The publisher or advertiser account in use; null for an admin. */
  accountId: number | null;
}

/**
 * The access gate of a whole route folder: every route registered after it answers 401 when signed out
 * and 403 unless the account in use has this type, so no route can forget its check.
 */
export function gateByType(app: FastifyInstance, type: UserType) {
  app.addHook('preHandler', async (request) => {
    const session = requireSession(request);
    const user = await findUserById(app.ctx.db, session.userId);
    if (!user) throw unauthorized();
    const current = resolveCurrentAccount(user, await accountsOf(app.ctx.db, user.id));
    if (!current || current.type !== type) throw forbidden();
    if (type === 0 && !user.isAdmin) throw forbidden();
    request.actor = { userId: user.id, type, accountId: current.account?.id ?? null };
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}
