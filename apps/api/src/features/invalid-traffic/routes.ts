import type { FastifyInstance } from 'fastify';
import { getInvalidTrafficCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { invalidTrafficSummary } from './invalid-traffic.ts';

/** Admin: the invalid traffic set aside, per publisher, day and reason (docs/admin.md). */
export default async function invalidTrafficRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;
  route(app, getInvalidTrafficCall, async ({ actor, body }) =>
    invalidTrafficSummary(db, {
      days: body.days,
      publisherId: body.publisherId,
      now: clock.now(),
      locale: actor.locale,
    }),
  );
}
