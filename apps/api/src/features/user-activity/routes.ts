import type { FastifyInstance } from 'fastify';
import { userActivityCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { recordUserActivity } from './user-activity.ts';

/** POST /api/common/user-activity: records what the user did (opening or closing the add-credits modal). */
export default async function userActivityRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;
  route(app, userActivityCall, async ({ actor, body }) => {
    await recordUserActivity(db, actor.userId, body.activityStr, clock.now());
    return { status: 'ok' };
  });
}
