import type { FastifyInstance } from 'fastify';
import {
  getCampaignExCall,
  updateCampaignAdActivationCall,
  updateCampaignAdBudgetCall,
  updateCampaignAdEjectionCall,
  updateCampaignAutoPilotCall,
  updateCampaignPauseCall,
  updateStatsExCall,
} from '@helium/contracts';
import { route } from '../../http/route.ts';
import { couponMessage } from '../billing/purchase.ts';
import { buildCampaignEx, findAdvertiserCampaign } from './campaign-activity.ts';
import {
  updateCampaignAdActivation,
  updateCampaignAdBudget,
  updateCampaignAdEjection,
  updateCampaignAutoPilot,
  updateCampaignPause,
  updateStatsEx,
} from './campaign-changes.ts';

/**
 * The advertiser's Activity screen calls (specification 02, section 7). Each change checks that the campaign
 * and the ad belong to the advertiser in use (403, nothing changed), refuses what the state forbids (409; the
 * rules are in packages/domain/src/campaign-changes.ts) and announces delivery changes so that serving applies
 * them at once.
 */
export default async function campaignActivityRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;

  route(app, getCampaignExCall, async ({ actor, body }) =>
    buildCampaignEx(db, await findAdvertiserCampaign(db, actor.accountId, body.campaignId), {
      doByPublisher: body.doByPublisher,
      doIncludeRealTimeHits: body.doIncludeRealTimeHits,
      doByUrl: body.doByUrl,
      locale: actor.locale,
      now: clock.now(),
      hashIds,
      couponStr: await couponMessage(db, actor.accountId, actor.locale),
    }),
  );

  route(app, updateCampaignPauseCall, async ({ actor, body }) => {
    await updateCampaignPause(db, actor.accountId, body);
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });

  route(app, updateCampaignAdBudgetCall, async ({ actor, body }) => {
    await updateCampaignAdBudget(db, actor.accountId, body);
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });

  route(app, updateCampaignAdEjectionCall, async ({ actor, body }) => {
    await updateCampaignAdEjection(db, actor.accountId, body, clock.now());
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });

  route(app, updateCampaignAdActivationCall, async ({ actor, body }) => {
    await updateCampaignAdActivation(db, actor.accountId, body, clock.now());
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });

  route(app, updateCampaignAutoPilotCall, async ({ actor, body }) => {
    await updateCampaignAutoPilot(db, actor.accountId, body);
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });

  // The date range changes what the screen shows, not what is served.
  route(app, updateStatsExCall, async ({ actor, body }) => {
    await updateStatsEx(db, actor.accountId, body, clock.now());
    return { status: 'ok' };
  });
}
