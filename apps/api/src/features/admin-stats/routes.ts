import type { FastifyInstance } from 'fastify';
import { getAdminStatsCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';
import { adminStats } from './admin-stats.ts';

/** POST /api/admin/get-stats: Admin Stats, the admin's home. sortBy is accepted as the screen sends it. */
export default async function adminStatsRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;
  route(app, getAdminStatsCall, async ({ actor, body }) =>
    adminStats(db, {
      now: clock.now(),
      locale: actor.locale,
      settings: await latestNetworkSettings(db),
      ctrThresholds: app.delivery.ctrThresholds(),
      hashIds,
      withUrls: body.withUrls ?? false,
    }),
  );
}
