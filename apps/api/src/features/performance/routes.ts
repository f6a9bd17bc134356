import type { FastifyInstance } from 'fastify';
import { getPerformanceHistoryCall, getRealtimePerformanceCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { performanceHistory, realtimePerformance } from './performance.ts';

/**
 * Publisher Performance (specification 02, sections 2.7, 3 and 7): both calls take an empty body (anything sent
 * is ignored, as for the installation calls) and answer for the publisher account in use only.
 */
export default async function performanceRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;
  route(app, getRealtimePerformanceCall, async ({ actor }) => realtimePerformance(db, actor.accountId, clock.now()));
  route(app, getPerformanceHistoryCall, async ({ actor }) =>
    performanceHistory(db, hashIds, actor.accountId, clock.now()),
  );
}
