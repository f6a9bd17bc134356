import type { FastifyInstance } from 'fastify';
import type { TGetPerformanceHistoryResponse, TGetRealtimePerformanceResponse } from '@helium/contracts';
import { forbidden } from '../../errors.ts';
import { performanceHistory, realtimePerformance } from '../../services/performance.ts';

/**
 * Publisher Performance (specification 02, sections 2.7, 3 and 7): both calls take an empty body (anything sent
 * is ignored, as for the installation calls) and answer for the publisher account in use only.
 */
export default async function performanceRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;
  const publisherIdOf = (actor: { accountId: number | null } | null) => {
    if (!actor?.accountId) throw forbidden();
    return actor.accountId;
  };

  app.post('/get-realtime-performance', async (request): Promise<TGetRealtimePerformanceResponse> =>
    realtimePerformance(db, publisherIdOf(request.actor), clock.now()),
  );

  app.post('/get-performance-history', async (request): Promise<TGetPerformanceHistoryResponse> =>
    performanceHistory(db, hashIds, publisherIdOf(request.actor), clock.now()),
  );
}
