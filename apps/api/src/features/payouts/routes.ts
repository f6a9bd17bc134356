import type { FastifyInstance } from 'fastify';
import {
  getAccountingCall,
  getPublisherSettingsCall,
  requestPayoutCall,
  savePublisherSettingsCall,
} from '@helium/contracts';
import { route } from '../../http/route.ts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';
import { accountingView } from './accounting.ts';
import { publisherSettings, savePayoutDetails } from './payout-settings.ts';
import { requestPayout } from './payouts.ts';

/**
 * The publisher's Accounting, payout requests and payout Settings (specification 02, sections 2.5, 2.8 and 7).
 * Every call works on the publisher account in use (the gate's accountId): no body names a publisher.
 */
export default async function payoutRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;

  // sortBy is accepted as the screen sends it; the transactions are always newest first.
  route(app, getAccountingCall, async ({ actor }) =>
    accountingView(db, actor.accountId, await latestNetworkSettings(db), actor.locale),
  );

  route(app, requestPayoutCall, async ({ actor, body, request }) => {
    const payout = await requestPayout(
      { db, log: request.log, now: clock.now() },
      await latestNetworkSettings(db),
      { publisherId: actor.accountId, userId: actor.userId, locale: actor.locale, ip: request.ip },
      body,
    );
    return { status: 'ok' as const, payoutId: payout.id };
  });

  route(app, getPublisherSettingsCall, async ({ actor }) =>
    publisherSettings(db, actor.accountId, await latestNetworkSettings(db)),
  );

  route(app, savePublisherSettingsCall, async ({ actor, body, request, reply }) => {
    const problem = await savePayoutDetails(
      db,
      { publisherId: actor.accountId, userId: actor.userId, locale: actor.locale, ip: request.ip },
      body,
      clock.now(),
    );
    // The first field at fault, for the screen to focus: nothing was saved.
    if (problem) return reply.code(422).send(problem);
    return { status: 'ok' };
  });
}
