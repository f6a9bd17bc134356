import type { FastifyInstance } from 'fastify';
import { getActivityCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { activityByAdvertiser, activityByPublisher } from './admin-activity.ts';

/** POST /api/admin/get-activity: the engine's state, by campaign (advertiser view) or by publisher. */
export default async function activityRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;
  route(app, getActivityCall, async ({ body }) => {
    const options = { now: clock.now(), showCompleteCampaignsOrInactiveAds: body.showCompleteCampaignsOrInactiveAds };
    return body.sortBy === 'advertiser'
      ? { campaigns: await activityByAdvertiser(db, app.delivery, options), publishers: [] }
      : { campaigns: [], publishers: await activityByPublisher(db, app.delivery, options) };
  });
}
