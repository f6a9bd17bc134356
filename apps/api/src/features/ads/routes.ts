import type { FastifyInstance } from 'fastify';
import { getAdsCall, requestToValidateAdCall, updateOrDeleteAdCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { advertiserAds, advertiserAdView, deleteAd, findAdvertiserAd, submitAd, updateAdLink } from './ads.ts';

/** The advertiser's Ads screen (specification 02, sections 2.3 and 7); the upload is in upload-routes.ts. */
export default async function adsRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;

  route(app, getAdsCall, async ({ actor }) => ({
    ads: (await advertiserAds(db, actor.accountId)).map((ad) => advertiserAdView(ad, actor.locale, hashIds)),
  }));

  /** The link while not submitted; delete unless validated. Click redirects go to the link the index holds. */
  route(app, updateOrDeleteAdCall, async ({ actor, body }) => {
    const ad = await findAdvertiserAd(db, actor.accountId, body.ad.id);
    if (body.action === 'update') await updateAdLink(db, ad, body.ad.link);
    else await deleteAd(db, ad, clock.now());
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });

  route(app, requestToValidateAdCall, async ({ actor, body }) => {
    await submitAd(db, await findAdvertiserAd(db, actor.accountId, body.adId), clock.now());
    return { status: 'ok' };
  });
}
