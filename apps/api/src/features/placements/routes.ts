import type { FastifyInstance } from 'fastify';
import { getPlacementPublishersCall, getPlacementsCall, updatePlacementsCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { getPlacements, listPlacementPublishers, replacePlacements } from './placements.ts';

/**
 * Admin: where the script puts ads on each web publisher's pages (docs/targeting.md "Placements"). A change is
 * audited and reloads the serving index before the answer, so the next pageview already uses it.
 */
export default async function placementsRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;

  route(app, getPlacementPublishersCall, async () => ({ publishers: await listPlacementPublishers(db) }));

  route(app, getPlacementsCall, async ({ body }) => getPlacements(db, body.publisherId));

  route(app, updatePlacementsCall, async ({ actor, body, request }) => {
    const { changed, ...replaced } = await replacePlacements(db, body, {
      userId: actor.userId,
      ip: request.ip,
      now: clock.now(),
    });
    if (changed) await app.delivery.servingChanged();
    return { status: 'ok' as const, ...replaced };
  });
}
