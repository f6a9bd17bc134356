import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '@helium/db';
import { parseAccountValue, USER_TYPE } from '@helium/domain';
import { ZUpdateUserRequestSchema, ZUserSchema, type TStatusResponse, type TUser } from '@helium/contracts';
import { HttpError, unauthorized } from '../../errors.ts';
import { requireSession } from '../../plugins/session.ts';
import { accountsOf, findUserById, loadUserView } from '../../services/users.ts';
import { parseWith } from '../../validation.ts';

export default async function userRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.post('/user', async (request): Promise<TUser> => {
    const session = requireSession(request);
    const view = await loadUserView(db, session.userId);
    if (!view) throw unauthorized();
    return ZUserSchema.parse(view);
  });

  app.post('/update-user', async (request): Promise<TStatusResponse> => {
    const session = requireSession(request);
    const body = parseWith(ZUpdateUserRequestSchema, request.body);
    if (body.key === 'locale') {
      await db.update(users).set({ locale: body.value }).where(eq(users.id, session.userId));
      return { status: 'ok' };
    }
    if (body.key === 'currency') {
      await db.update(users).set({ currency: body.value }).where(eq(users.id, session.userId));
      return { status: 'ok' };
    }
    const target = parseAccountValue(body.value);
    if (!target) throw new HttpError(422, 'invalidAccount', 'Expected an account as type,id.');
    const user = await findUserById(db, session.userId);
    if (!user) throw unauthorized();
    const accounts = await accountsOf(db, user.id);
    const holds =
      (target.type === USER_TYPE.admin && user.isAdmin) ||
      (target.type === USER_TYPE.publisher && accounts.publishers.some((p) => p.id === target.id)) ||
      (target.type === USER_TYPE.advertiser && accounts.advertisers.some((a) => a.id === target.id));
    if (!holds) throw new HttpError(403, 'notYourAccount', 'You do not hold this account.');
    await db
      .update(users)
      .set({ currentType: target.type, currentAccountId: target.id })
      .where(eq(users.id, session.userId));
    return { status: 'ok' };
  });
}
