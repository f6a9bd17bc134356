import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { adPublisherValidations, ads, advertisers, auditLog, publishers, users, type Database } from '@helium/db';
import {
  HOUR_MS,
  PUBLISHER_VALIDATION_WINDOW_MS,
  VALIDATION,
  adminDecision,
  adminPublisherAction,
  asValidationState,
  canPublisherChoose,
  eligiblePublishers,
  isMediaReady,
  isNewsletterFormat,
  publisherAnswer,
} from '@helium/domain';
import { formatDateTime, type Locale } from '@helium/domain/format';
import type { TAdminAd, TGetAdValidationResponse, TRequestPublishersRequest } from '@helium/contracts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';
import type { Mailer } from '../../infra/mailer.ts';
import { adMediaUrls, mediaUrl } from '../../infra/media-storage.ts';
import { findLiveAd, moveAdminValidation } from '../ads/ads.ts';
import { adDecisionMail, publisherValidationRequestMail } from './mails.ts';

/** What the validation steps reach: the database, the mailer, the public links, and a log for mail failures. */
export interface AdValidationDeps {
  db: Database;
  mailer: Mailer;
  hashIds: HashIds;
  appUrl: string;
  log: FastifyBaseLogger;
}

/** Who acted, for the audit log. */
export interface AuditedActor {
  userId: number;
  ip: string;
}

const REFUSALS: Record<string, string> = {
  adNotApprovedByAdmin: 'Approve the ad before acting on publishers.',
  mediaNotReady: 'The ad has no image or ready video poster yet.',
  publisherNotInstalled: 'This publisher has not installed the script.',
  alreadyRequested: 'This publisher has already been asked about this ad.',
};

/** What the validation rules need of a publisher: which channels it has, and whether its script is installed. */
const PUBLISHER_FACTS = {
  id: publishers.id,
  brand: publishers.brand,
  isWeb: publishers.isWeb,
  isOwl: publishers.isOwl,
  isInstalled: publishers.isInstalled,
};

const PUBLISHER_ACTION_NAME = { 1: 'forceApprove', 2: 'forceDecline', 3: 'request' } as const;

/** The Admin: Ad Validation list, newest first; advertiserId 0 = the 20 most recent ads of everyone. */
export async function adminAdViews(
  db: Database,
  options: { advertiserId: number; locale: Locale; hashIds: HashIds },
): Promise<TAdminAd[]> {
  const { advertiserId, locale, hashIds } = options;
  const base = db
    .select({ ad: ads, brand: advertisers.brand })
    .from(ads)
    .innerJoin(advertisers, eq(advertisers.id, ads.advertiserId));
  const rows =
    advertiserId > 0
      ? await base
          .where(and(isNull(ads.deletedAt), eq(ads.advertiserId, advertiserId)))
          .orderBy(desc(ads.createdAt), desc(ads.id))
      : await base.where(isNull(ads.deletedAt)).orderBy(desc(ads.createdAt), desc(ads.id)).limit(20);
  if (rows.length === 0) return [];
  const [publisherRows, validationRows] = await Promise.all([
    db.select(PUBLISHER_FACTS).from(publishers).orderBy(publishers.brand),
    db
      .select()
      .from(adPublisherValidations)
      .where(
        inArray(
          adPublisherValidations.adId,
          rows.map((r) => r.ad.id),
        ),
      ),
  ]);
  return rows.map(({ ad, brand }) => ({
    id: ad.id,
    hashId: hashIds.encodeAd(ad.id),
    advertiser_id: ad.advertiserId,
    advertiser: { brand },
    type: ad.type,
    ...adMediaUrls(ad),
    link: ad.link,
    screenshot: mediaUrl(ad.type === 'image' ? ad.image : ad.poster),
    filesize: ad.filesize,
    is_owl: isNewsletterFormat(ad.formatId) || ad.isOwlOnly,
    format_id: ad.formatId,
    is_video_thumbnail_ready: ad.isVideoThumbnailReady,
    adminsValidation: asValidationState(ad.adminValidation),
    is_emailed_as_validated: ad.isEmailedAsValidated,
    publishers: eligiblePublishers(ad, publisherRows).map((publisher) => {
      const row = validationRows.find((v) => v.adId === ad.id && v.publisherId === publisher.id);
      const state = asValidationState(row?.state ?? 0);
      return {
        id: publisher.id,
        brand: publisher.brand,
        isInstalled: publisher.isInstalled,
        adValidation: state,
        expiresAtStr: state === VALIDATION.pending && row?.expiresAt ? formatDateTime(row.expiresAt, locale) : null,
      };
    }),
  }));
}

/** Every advertiser by brand (the screen's advertiser menu). */
export async function advertiserChoices(db: Database): Promise<Array<{ id: number; brand: string }>> {
  return db.select({ id: advertisers.id, brand: advertisers.brand }).from(advertisers).orderBy(asc(advertisers.brand));
}

/** The admin's decision on a submitted ad (3 -> 1 or 2), audited, then e-mailed to the advertiser in their language. */
export async function decideAd(
  deps: AdValidationDeps,
  actor: AuditedActor,
  adId: number,
  isAccepted: boolean,
  now: Date,
): Promise<void> {
  const { db, mailer, appUrl, log } = deps;
  const ad = await findLiveAd(db, adId);
  const result = adminDecision(ad.adminValidation, isAccepted);
  if (!result.ok) throw new HttpError(409, 'notAwaitingDecision', 'This ad is not awaiting a decision.');
  await moveAdminValidation(db, ad, { adminValidation: result.state, adminValidatedAt: now }, 'notAwaitingDecision');
  await db.insert(auditLog).values({
    actorUserId: actor.userId,
    action: isAccepted ? 'ad.approve' : 'ad.reject',
    targetType: 'ad',
    targetId: ad.id,
    ip: actor.ip,
    createdAt: now,
  });

  const [owner] = await db
    .select({ email: users.email, name: users.name, locale: users.locale, brand: advertisers.brand })
    .from(advertisers)
    .innerJoin(users, eq(users.id, advertisers.userId))
    .where(eq(advertisers.id, ad.advertiserId))
    .limit(1);
  if (!owner) return;
  try {
    await mailer.send(
      adDecisionMail({
        to: owner.email,
        name: owner.name,
        locale: owner.locale,
        adId: ad.id,
        brand: owner.brand,
        isAccepted,
        adsUrl: `${appUrl}/advertiser/ads`,
      }),
    );
    if (isAccepted) await db.update(ads).set({ isEmailedAsValidated: true }).where(eq(ads.id, ad.id));
  } catch (error) {
    log.error({ err: error, adId: ad.id }, 'could not e-mail the advertiser');
  }
}

/**
 * For the checked publishers: 3 e-mails each a request with its own link (0 -> 3, expires in 24 h);
 * 1 and 2 force the answer. Every publisher is checked first; one refusal changes nothing.
 */
export async function actOnPublishers(
  deps: AdValidationDeps,
  actor: AuditedActor,
  request: TRequestPublishersRequest,
  now: Date,
): Promise<void> {
  const { db, mailer, hashIds, appUrl, log } = deps;
  const publisherIds = [...new Set(request.publisherIds)];
  const ad = await findLiveAd(db, request.adId);
  const publisherRows = await db
    .select({
      ...PUBLISHER_FACTS,
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
      acceptance: request.acceptance,
    });
    if (!result.ok) {
      throw new HttpError(409, result.reason, `${publisher.brand}: ${REFUSALS[result.reason] ?? result.reason}`);
    }
    return { publisher, state: result.state };
  });

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
      actorUserId: actor.userId,
      action: `ad.publishers.${PUBLISHER_ACTION_NAME[request.acceptance]}`,
      targetType: 'ad',
      targetId: ad.id,
      details: { publisherIds },
      ip: actor.ip,
      createdAt: now,
    });
  });
  if (request.acceptance !== VALIDATION.pending) return;

  const [owner] = await db
    .select({ brand: advertisers.brand })
    .from(advertisers)
    .where(eq(advertisers.id, ad.advertiserId));
  for (const { publisher } of plan) {
    const link = `${appUrl}/publisher-ad-validation/${hashIds.encodePublisherAdValidation(ad.id, publisher.id)}`;
    try {
      await mailer.send(
        publisherValidationRequestMail({
          to: publisher.email,
          name: publisher.name,
          locale: publisher.locale,
          publisherBrand: publisher.brand,
          advertiserBrand: owner?.brand ?? '',
          link,
          hours: PUBLISHER_VALIDATION_WINDOW_MS / HOUR_MS,
        }),
      );
    } catch (error) {
      log.error({ err: error, adId: ad.id, publisherId: publisher.id }, 'could not e-mail the publisher');
    }
  }
}

const invalidLink = () => notFound('This validation link is not valid.');

/** The request a mailed link names: only a request that was actually sent, for an ad not deleted, opens. */
async function requestOfLink(db: Database, hashIds: HashIds, hashId: string) {
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

/** What the publisher sees through its link: the ad, both brands, its current answer and whether it may change it. */
export async function publisherLinkView(
  db: Database,
  hashIds: HashIds,
  hashId: string,
  now: Date,
): Promise<TGetAdValidationResponse> {
  const { validation, ad, advertiserBrand, publisherBrand } = await requestOfLink(db, hashIds, hashId);
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
    acceptance: asValidationState(validation.state),
    canValidate: canPublisherChoose(validation, now),
  };
}

/** The publisher's answer through its link (within 24 hours of the request or of its last answer). */
export async function answerThroughLink(
  db: Database,
  hashIds: HashIds,
  hashId: string,
  acceptance: 1 | 2,
  now: Date,
): Promise<void> {
  const { validation } = await requestOfLink(db, hashIds, hashId);
  const result = publisherAnswer(validation, acceptance, now);
  if (!result.ok) throw new HttpError(409, 'cannotValidate', 'This ad can no longer be changed; contact support.');
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
}

/** Unanswered publisher requests past their expiry count as approved; answers how many changed. */
export async function expireValidationRequests(db: Database, now: Date): Promise<number> {
  const updated = await db
    .update(adPublisherValidations)
    .set({ state: VALIDATION.approved, decidedAt: sql`${adPublisherValidations.expiresAt}`, decidedBy: 'timeout' })
    .where(and(eq(adPublisherValidations.state, VALIDATION.pending), lte(adPublisherValidations.expiresAt, now)))
    .returning({ adId: adPublisherValidations.adId });
  return updated.length;
}
