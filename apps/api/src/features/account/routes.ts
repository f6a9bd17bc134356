import type { FastifyInstance } from 'fastify';
import { holdsAccount, parseAccountValue } from '@helium/domain';
import {
  commonSignOutCall,
  sessionUserCall,
  signOutCall,
  stopActingAsCall,
  updateUserCall,
  userCall,
} from '@helium/contracts';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import type { SessionInfo } from '../../http/session.ts';
import { actingAsOf } from './acting.ts';
import { accountsOf, findUserById, loadUserView, updateUserChoice } from './users.ts';

/**
 * The signed-in user: who they are, the account in use, their language and currency, and the admin acting as
 * them if one is; going back from acting as a user; and signing out.
 */
export default async function accountRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  const viewOf = async (session: SessionInfo) => {
    const [view, actingAs] = await Promise.all([loadUserView(db, session.userId), actingAsOf(db, session)]);
    return view ? { ...view, actingAs } : null;
  };

  route(app, userCall, async ({ request }) => {
    const view = request.session ? await viewOf(request.session) : null;
    if (!view) throw unauthorized();
    return view;
  });

  route(app, sessionUserCall, async ({ request }) => ({
    user: request.session ? await viewOf(request.session) : null,
  }));

  route(app, stopActingAsCall, async ({ request, reply }) => {
    const outcome = await app.stopActing(request, reply, 'back');
    if (outcome === 'notActing') throw new HttpError(409, 'notActing', 'This session is not acting as anyone.');
    return { status: outcome };
  });

  route(app, updateUserCall, async ({ actor, body }) => {
    if (body.key === 'locale') {
      await updateUserChoice(db, actor.userId, { locale: body.value });
      return { status: 'ok' };
    }
    if (body.key === 'currency') {
      await updateUserChoice(db, actor.userId, { currency: body.value });
      return { status: 'ok' };
    }
    const target = parseAccountValue(body.value);
    if (!target) throw new HttpError(422, 'invalidAccount', 'Expected an account as type,id.');
    const user = await findUserById(db, actor.userId);
    if (!user) throw unauthorized();
    if (!holdsAccount(user, await accountsOf(db, user.id), target.type, target.id)) {
      throw new HttpError(403, 'notYourAccount', 'You do not hold this account.');
    }
    await updateUserChoice(db, actor.userId, { currentType: target.type, currentAccountId: target.id });
    return { status: 'ok' };
  });

  for (const call of [signOutCall, commonSignOutCall]) {
    route(app, call, async ({ request, reply }) => {
      await app.endSession(request, reply);
      return { status: 'ok' };
    });
  }
}
