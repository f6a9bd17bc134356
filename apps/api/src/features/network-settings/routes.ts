import type { FastifyInstance } from 'fastify';
import { getNetworkSettingsCall, updateNetworkSettingsCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { networkSettingsHistory, updateNetworkSettings } from './settings-history.ts';

/** Admin: the network settings in force with their history, and a change (a new row, audited). */
export default async function networkSettingsRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;

  route(app, getNetworkSettingsCall, async ({ actor }) => networkSettingsHistory(db, actor.locale));

  route(app, updateNetworkSettingsCall, async ({ actor, body, request }) => {
    const { changed } = await updateNetworkSettings(db, body, {
      userId: actor.userId,
      ip: request.ip,
      now: clock.now(),
    });
    // The AutoPilot and CTR-rank thresholds are read by the delivery index.
    if (changed.length > 0) await app.delivery.servingChanged();
    const { settings } = await networkSettingsHistory(db, actor.locale);
    return { status: 'ok' as const, settings };
  });
}
