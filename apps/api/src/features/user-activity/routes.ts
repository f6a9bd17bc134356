import type { FastifyInstance } from 'fastify';
import { userActivityCall } from '@helium/contracts';
import { USER_ACTIVITY_RATE } from '@helium/domain';
import { route } from '../../http/route.ts';
import { recordUserActivity } from './user-activity.ts';

/**
 * POST /api/common/user-activity: records what the user did (opening or closing the add-credits modal), at most
 * USER_ACTIVITY_RATE a user; what goes beyond is answered ok unrecorded (the screen sends it and moves on).
 */
export default async function userActivityRoutes(app: FastifyInstance) {
  const { db, clock, limiter } = app.ctx;
  const activityRate = limiter.rule(USER_ACTIVITY_RATE);
  route(app, userActivityCall, async ({ actor, body, request }) => {
    if (await activityRate.allow(request, `user-activity:${actor.userId}`)) {
      await recordUserActivity(db, actor.userId, body.activityStr, clock.now());
    }
    return { status: 'ok' };
  });
}
