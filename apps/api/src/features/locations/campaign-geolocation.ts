import { eq } from 'drizzle-orm';
import { campaigns, type Database } from '@helium/db';
import type { TUpdateCampaignGeolocationRequest } from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { findAdvertiserCampaign } from '../campaign-activity/campaign-activity.ts';
import { unknownLocationIds } from './location-catalogue.ts';

/** Refuses a geotargeting that names places no visitor can be located in (422, naming the first few). */
export async function requireKnownLocations(ids: readonly string[]): Promise<void> {
  const unknown = await unknownLocationIds(ids);
  if (unknown.length === 0) return;
  const named = unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? ', …' : '');
  throw new HttpError(422, 'unknownLocations', `Unknown locations: ${named}.`);
}

/**
 * POST update-campaign-geolocation: the places the advertiser's campaign targets (none = everywhere), kept in
 * the order given without duplicates. Another advertiser's campaign: 403; an unknown place: 422; nothing changed.
 */
export async function updateCampaignGeolocation(
  db: Database,
  advertiserId: number,
  body: TUpdateCampaignGeolocationRequest,
): Promise<void> {
  const campaign = await findAdvertiserCampaign(db, advertiserId, body.campaignId);
  const geoTargets = [...new Set(body.geolocation)];
  await requireKnownLocations(geoTargets);
  await db.update(campaigns).set({ geoTargets }).where(eq(campaigns.id, campaign.id));
}
