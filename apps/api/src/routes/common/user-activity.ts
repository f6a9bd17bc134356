import type { FastifyInstance } from 'fastify';
import { userActivities } from '@helium/db';
import { ZUserActivityRequestSchema, type TStatusResponse } from '@helium/contracts';
import { unauthorized } from '../../errors.ts';
import { requireSession } from '../../plugins/session.ts';
import { findUserById } from '../../services/users.ts';
import { parseWith } from '../../validation.ts';

/** POST /api/common/user-activity: records what the user did (opening or closing the add-credits modal). */
export default async function userActivityRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;
  app.post('/user-activity', async (request): Promise<TStatusResponse> => {
    const session = requireSession(request);
    const body = parseWith(ZUserActivityRequestSchema, request.body);
    const user = await findUserById(db, session.userId);
    if (!user) throw unauthorized();
    await db.insert(userActivities).values({
      userId: user.id,
      accountId: user.currentType === 0 ? null : (user.currentAccountId ?? null),
      activity: body.activityStr,
      createdAt: clock.now(),
    });
    return { status: 'ok' };
  });
}
