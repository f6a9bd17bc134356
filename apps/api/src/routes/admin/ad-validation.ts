import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { adPublisherValidations, ads, advertisers, auditLog, publishers, users } from '@helium/db';
import { PUBLISHER_VALIDATION_WINDOW_MS, VALIDATION, adminDecision, adminPublisherAction } from '@helium/domain';
import {
  ZGetAdValidationsRequestSchema,
  ZRequestPublishersRequestSchema,
  ZValidateAdByAdminsRequestSchema,
  type TGetAdValidationsResponse,
  type TStatusResponse,
} from '@helium/contracts';
import { HttpError } from '../../errors.ts';
import { adDecisionMail, publisherValidationRequestMail } from '../../services/ad-mail-templates.ts';
import { adminAdViews, eligiblePublishers, findLiveAd, isMediaReady } from '../../services/ads.ts';
import { findUserById } from '../../services/users.ts';
import { parseWith } from '../../validation.ts';

const REFUSALS: Record<string, string> = {
  adNotApprovedByAdmin: 'Approve the ad before acting on publishers.',
  mediaNotReady: 'The ad has no image or ready video poster yet.',
  publisherNotInstalled: 'This publisher has not installed the script.',
  alreadyRequested: 'This publisher has already been asked about this ad.',
};

/** Admin: Ad Validation (spec 01, sections 2, 4, 5, 7; decisions.md section 8). */
export default async function adValidationRoutes(app: FastifyInstance) {
  const { db, clock, mailer, config, hashIds } = app.ctx;

  app.post('/get-ad-validations', async (request): Promise<TGetAdValidationsResponse> => {
    const body = parseWith(ZGetAdValidationsRequestSchema, request.body);
    const admin = await findUserById(db, request.actor?.userId ?? 0);
    const [adViews, advertiserRows] = await Promise.all([
      adminAdViews(db, { advertiserId: body.advertiserId ?? 0, locale: admin?.locale ?? 'en', hashIds }),
      db.select({ id: advertisers.id, brand: advertisers.brand }).from(advertisers).orderBy(asc(advertisers.brand)),
    ]);
    return { ads: adViews, advertisers: advertiserRows };
  });

  /** 3 -> 1 or 2, then the advertiser is told by e-mail in their language. */
  app.post('/validate-ad-by-admins', async (request): Promise<TStatusResponse> => {
    const { adId, isAccepted } = parseWith(ZValidateAdByAdminsRequestSchema, request.body);
    const ad = await findLiveAd(db, adId);
    const result = adminDecision(ad.adminValidation, isAccepted);
    if (!result.ok) throw new HttpError(409, 'notAwaitingDecision', 'This ad is not awaiting a decision.');
    const now = clock.now();
    const updated = await db
      .update(ads)
      .set({ adminValidation: result.state, adminValidatedAt: now })
      .where(and(eq(ads.id, ad.id), eq(ads.adminValidation, VALIDATION.pending)))
      .returning({ id: ads.id });
    if (updated.length === 0) throw new HttpError(409, 'notAwaitingDecision', 'This ad changed meanwhile; reload.');
    await db.insert(auditLog).values({
      actorUserId: request.actor?.userId ?? null,
      action: isAccepted ? 'ad.approve' : 'ad.reject',
      targetType: 'ad',
      targetId: ad.id,
      ip: request.ip,
      createdAt: now,
    });
    // Serving applies the decision before the admin's screen reloads.
    await app.delivery.refresh();

    const [owner] = await db
      .select({ email: users.email, name: users.name, locale: users.locale, brand: advertisers.brand })
      .from(advertisers)
      .innerJoin(users, eq(users.id, advertisers.userId))
      .where(eq(advertisers.id, ad.advertiserId))
      .limit(1);
    if (owner) {
      try {
        await mailer.send(
          adDecisionMail({
            to: owner.email,
            name: owner.name,
            locale: owner.locale,
            adId: ad.id,
            brand: owner.brand,
            isAccepted,
            adsUrl: `${config.appUrl}/advertiser/ads`,
          }),
        );
        if (isAccepted) await db.update(ads).set({ isEmailedAsValidated: true }).where(eq(ads.id, ad.id));
      } catch (error) {
        request.log.error({ err: error, adId: ad.id }, 'could not e-mail the advertiser');
      }
    }
    return { status: 'ok' };
  });

  /**
   * For the checked publishers: 3 e-mails each a request with its own link (0 -> 3, expires in 24 h);
   * 1 and 2 force the answer. Every publisher is checked first; one refusal changes nothing.
   */
  app.post('/request-publishers-to-validate-ad-or-force-validation', async (request): Promise<TStatusResponse> => {
    const body = parseWith(ZRequestPublishersRequestSchema, request.body);
    const publisherIds = [...new Set(body.publisherIds)];
    const ad = await findLiveAd(db, body.adId);
    const publisherRows = await db
      .select({
        id: publishers.id,
        brand: publishers.brand,
        isWeb: publishers.isWeb,
        isOwl: publishers.isOwl,
        isInstalled: publishers.isInstalled,
        email: users.email,
        name: users.name,
        locale: users.locale,
      })
      .from(publishers)
      .innerJoin(users, eq(users.id, publishers.userId))
      .where(inArray(publishers.id, publisherIds));
    const eligible = eligiblePublishers(ad, publisherRows);
    if (eligible.length !== publisherIds.length) {
      throw new HttpError(422, 'unknownPublisher', 'A chosen publisher does not exist or cannot show this ad.');
    }
    const current = await db
      .select()
      .from(adPublisherValidations)
      .where(and(eq(adPublisherValidations.adId, ad.id), inArray(adPublisherValidations.publisherId, publisherIds)));
    const plan = eligible.map((publisher) => {
      const row = current.find((r) => r.publisherId === publisher.id);
      const result = adminPublisherAction({
        adminState: ad.adminValidation,
        publisherState: row?.state ?? 0,
        isPublisherInstalled: publisher.isInstalled,
        isMediaReady: isMediaReady(ad),
        acceptance: body.acceptance,
      });
      if (!result.ok) {
        throw new HttpError(409, result.reason, `${publisher.brand}: ${REFUSALS[result.reason] ?? result.reason}`);
      }
      return { publisher, state: result.state };
    });

    const now = clock.now();
    const expiresAt = new Date(now.getTime() + PUBLISHER_VALIDATION_WINDOW_MS);
    await db.transaction(async (tx) => {
      for (const { publisher, state } of plan) {
        const values =
          state === VALIDATION.pending
            ? { state, requestedAt: now, expiresAt, decidedAt: null, decidedBy: null }
            : { state, decidedAt: now, decidedBy: 'admin' as const };
        await tx
          .insert(adPublisherValidations)
          .values({ adId: ad.id, publisherId: publisher.id, ...values })
          .onConflictDoUpdate({
            target: [adPublisherValidations.adId, adPublisherValidations.publisherId],
            set: values,
          });
      }
      await tx.insert(auditLog).values({
        actorUserId: request.actor?.userId ?? null,
        action: `ad.publishers.${body.acceptance === 3 ? 'request' : body.acceptance === 1 ? 'forceApprove' : 'forceDecline'}`,
        targetType: 'ad',
        targetId: ad.id,
        details: { publisherIds },
        ip: request.ip,
        createdAt: now,
      });
    });
    // A forced answer changes where the ad may be served: serving applies it before the screen reloads.
    if (body.acceptance !== 3) await app.delivery.refresh();

    if (body.acceptance === 3) {
      const [owner] = await db
        .select({ brand: advertisers.brand })
        .from(advertisers)
        .where(eq(advertisers.id, ad.advertiserId));
      for (const { publisher } of plan) {
        const link = `${config.appUrl}/publisher-ad-validation/${hashIds.encodePublisherAdValidation(ad.id, publisher.id)}`;
        try {
          await mailer.send(
            publisherValidationRequestMail({
              to: publisher.email,
              name: publisher.name,
              locale: publisher.locale,
              publisherBrand: publisher.brand,
              advertiserBrand: owner?.brand ?? '',
              link,
              hours: PUBLISHER_VALIDATION_WINDOW_MS / 3_600_000,
            }),
          );
        } catch (error) {
          request.log.error({ err: error, adId: ad.id, publisherId: publisher.id }, 'could not e-mail the publisher');
        }
      }
    }
    return { status: 'ok' };
  });
}
