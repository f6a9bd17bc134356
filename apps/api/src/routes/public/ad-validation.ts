import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { adPublisherValidations, ads, advertisers, publishers } from '@helium/db';
import { canPublisherChoose, publisherAnswer } from '@helium/domain';
import {
  ZGetAdValidationRequestSchema,
  ZUpdateAdValidationRequestSchema,
  type TGetAdValidationResponse,
  type TStatusResponse,
} from '@helium/contracts';
import { HttpError, notFound } from '../../errors.ts';
import { mediaUrl } from '../../services/media-storage.ts';
import { parseWith } from '../../validation.ts';

const invalidLink = () => notFound('This validation link is not valid.');

/**
 * The publisher's answer through the e-mailed link (public: the hash id is the credential). The hash id
 * names one ad and one publisher, and only a request that was actually sent opens it.
 */
export default async function publicAdValidationRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;

  async function load(hashId: string) {
    const ids = hashIds.decodePublisherAdValidation(hashId);
    if (!ids) throw invalidLink();
    const [row] = await db
      .select({
        validation: adPublisherValidations,
        ad: ads,
        advertiserBrand: advertisers.brand,
        publisherBrand: publishers.brand,
      })
      .from(adPublisherValidations)
      .innerJoin(ads, eq(ads.id, adPublisherValidations.adId))
      .innerJoin(advertisers, eq(advertisers.id, ads.advertiserId))
      .innerJoin(publishers, eq(publishers.id, adPublisherValidations.publisherId))
      .where(and(eq(adPublisherValidations.adId, ids.adId), eq(adPublisherValidations.publisherId, ids.publisherId)))
      .limit(1);
    if (!row || !row.validation.requestedAt || row.ad.deletedAt) throw invalidLink();
    return row;
  }

  app.post('/get-ad-validation', async (request): Promise<TGetAdValidationResponse> => {
    const { hashId } = parseWith(ZGetAdValidationRequestSchema, request.body);
    const { validation, ad, advertiserBrand, publisherBrand } = await load(hashId);
    const state = validation.state;
    return {
      ad: {
        type: ad.type,
        image: mediaUrl(ad.image),
        mp4: mediaUrl(ad.mp4),
        poster: mediaUrl(ad.poster),
        link: ad.link,
        format_id: ad.formatId,
      },
      advertiser: { brand: advertiserBrand },
      publisher: { brand: publisherBrand },
      acceptance: state === 1 || state === 2 || state === 3 ? state : 0,
      canValidate: canPublisherChoose(validation, clock.now()),
    };
  });

  app.post('/update-ad-validation', async (request): Promise<TStatusResponse> => {
    const { hashId, acceptance } = parseWith(ZUpdateAdValidationRequestSchema, request.body);
    const { validation } = await load(hashId);
    const now = clock.now();
    const result = publisherAnswer(validation, acceptance, now);
    if (!result.ok) {
      throw new HttpError(409, 'cannotValidate', 'This ad can no longer be changed; contact support.');
    }
    const updated = await db
      .update(adPublisherValidations)
      .set({ state: result.state, decidedAt: now, decidedBy: 'publisher' })
      .where(
        and(
          eq(adPublisherValidations.adId, validation.adId),
          eq(adPublisherValidations.publisherId, validation.publisherId),
          eq(adPublisherValidations.state, validation.state),
        ),
      )
      .returning({ adId: adPublisherValidations.adId });
    if (updated.length === 0) throw new HttpError(409, 'cannotValidate', 'This answer changed meanwhile; reload.');
    // The publisher's answer decides whether its pages show the ad: serving applies it at once.
    await app.delivery.refresh();
    return { status: 'ok' };
  });
}
