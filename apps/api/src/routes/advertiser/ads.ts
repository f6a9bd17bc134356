import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ads } from '@helium/db';
import { advertiserAdRights, submitForValidation } from '@helium/domain';
import {
  ZRequestToValidateAdRequestSchema,
  ZUpdateOrDeleteAdRequestSchema,
  type TGetAdsResponse,
  type TStatusResponse,
} from '@helium/contracts';
import { HttpError, forbidden } from '../../errors.ts';
import { advertiserAdView, findAdvertiserAd } from '../../services/ads.ts';
import { findUserById } from '../../services/users.ts';
import { parseWith } from '../../validation.ts';

/** The advertiser account in use (the gate has set it). */
export function advertiserIdOf(request: FastifyRequest): number {
  const id = request.actor?.accountId;
  if (!id) throw forbidden();
  return id;
}

export default async function adsRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;

  /** POST /api/advertiser/get-ads: the advertiser's live ads, oldest first (new uploads at the end). */
  app.post('/get-ads', async (request): Promise<TGetAdsResponse> => {
    const advertiserId = advertiserIdOf(request);
    const user = await findUserById(db, request.actor?.userId ?? 0);
    const rows = await db
      .select()
      .from(ads)
      .where(and(eq(ads.advertiserId, advertiserId), isNull(ads.deletedAt)))
      .orderBy(asc(ads.createdAt), asc(ads.id));
    return { ads: rows.map((ad) => advertiserAdView(ad, user?.locale ?? 'en', hashIds)) };
  });

  /** POST /api/advertiser/update-or-delete-ad: the link while not submitted; delete unless validated. */
  app.post('/update-or-delete-ad', async (request): Promise<TStatusResponse> => {
    const advertiserId = advertiserIdOf(request);
    const body = parseWith(ZUpdateOrDeleteAdRequestSchema, request.body);
    const ad = await findAdvertiserAd(db, advertiserId, body.ad.id);
    const rights = advertiserAdRights(ad.adminValidation, Boolean(ad.link));
    if (body.action === 'update') {
      if (!rights.canEditLink) {
        throw new HttpError(409, 'linkLocked', 'The link cannot change once the ad is submitted for validation.');
      }
      await db.update(ads).set({ link: body.ad.link }).where(eq(ads.id, ad.id));
      // Click redirects go to the registered link: the index must hold the new one.
      await app.delivery.refresh();
      return { status: 'ok' };
    }
    if (!rights.canDelete) throw new HttpError(409, 'adValidated', 'A validated ad cannot be deleted.');
    await db.update(ads).set({ deletedAt: clock.now() }).where(eq(ads.id, ad.id));
    await app.delivery.refresh();
    return { status: 'ok' };
  });

  /** POST /api/advertiser/request-to-validate-ad: 0 -> 3, only with a link. */
  app.post('/request-to-validate-ad', async (request): Promise<TStatusResponse> => {
    const advertiserId = advertiserIdOf(request);
    const { adId } = parseWith(ZRequestToValidateAdRequestSchema, request.body);
    const ad = await findAdvertiserAd(db, advertiserId, adId);
    const result = submitForValidation(ad.adminValidation, ad.link);
    if (!result.ok) {
      throw result.reason === 'linkNeeded'
        ? new HttpError(409, 'redirectLinkNeeded', 'Set the redirect link before submitting the ad.')
        : new HttpError(409, 'alreadySubmitted', 'This ad has already been submitted for validation.');
    }
    const updated = await db
      .update(ads)
      .set({ adminValidation: result.state, submittedAt: clock.now() })
      .where(and(eq(ads.id, ad.id), eq(ads.adminValidation, ad.adminValidation)))
      .returning({ id: ads.id });
    if (updated.length === 0) throw new HttpError(409, 'alreadySubmitted', 'This ad changed meanwhile; reload.');
    return { status: 'ok' };
  });
}
