import type { FastifyInstance } from 'fastify';
import {
  locationsCall,
  searchLocationsCall,
  updateCampaignGeolocationCall,
  ZLocationsQuerySchema,
} from '@helium/contracts';
import { gate } from '../../http/gate.ts';
import { route } from '../../http/route.ts';
import { updateCampaignGeolocation } from './campaign-geolocation.ts';
import { locationsFor } from './location-catalogue.ts';
import { searchLocations } from './location-search.ts';

/**
 * The places a campaign may target (POST as the location widget asks, and GET `?country=FR`), their search, and the advertiser's
 * change of a campaign's geotargeting, which serving applies at once (docs/targeting.md).
 */
export default async function locationsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, locationsCall, async ({ actor, body }) => ({
    locations: await locationsFor(body?.country, actor.locale),
  }));

  // The same answer for a GET: same gate, the country in the query.
  app.get(locationsCall.path, {
    preValidation: async (request) => {
      request.actor = await gate(request, locationsCall.access);
    },
    handler: async (request) => {
      const { country } = ZLocationsQuerySchema.parse(request.query);
      return { locations: await locationsFor(country, request.actor!.locale) };
    },
  });

  // The places whose name holds what the user types (the widget's search box), best first.
  route(app, searchLocationsCall, async ({ actor, body }) => ({
    locations: await searchLocations(body.query, actor.locale),
  }));

  route(app, updateCampaignGeolocationCall, async ({ actor, body }) => {
    await updateCampaignGeolocation(db, actor.accountId, body);
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });
}
