import type { FastifyInstance } from 'fastify';
import { getPublisherStatsCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { publisherStats } from './publisher-stats.ts';

/**
 * The publisher's Stats (specification 02, sections 2.6 and 7): always the publisher account in use (the body names
 * none); `sortBy` orders each day's ads (impressions, clicks, ctr or publisherRevenue, largest first).
 */
export default async function publisherStatsRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;
  route(app, getPublisherStatsCall, async ({ actor, body }) =>
    publisherStats(db, actor.accountId, { locale: actor.locale, now: clock.now(), hashIds, sortBy: body.sortBy }),
  );
}
