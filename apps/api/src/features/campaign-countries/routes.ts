import type { FastifyInstance } from 'fastify';
import { getCampaignCountriesCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { findAdvertiserCampaign } from '../campaign-activity/campaign-activity.ts';
import { campaignCountries } from './campaign-countries.ts';

/** The advertiser's figures by visitor country (docs/targeting.md "Figures by country"): its own campaigns only. */
export default async function campaignCountriesRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, getCampaignCountriesCall, async ({ actor, body }) => {
    const campaign = await findAdvertiserCampaign(db, actor.accountId, body.campaignId);
    return campaignCountries(db, campaign.id, body, actor.locale);
  });
}
