import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { adPublisherValidations, ads, advertisers, publishers, type Database } from '@helium/db';
import { ADMIN_REVIEW_MS, VALIDATION, isNewsletterFormat } from '@helium/domain';
import { formatDateTime, type Locale } from '@helium/domain/format';
import type { TAdminAd, TAdvertiserAd } from '@helium/contracts';
import { HttpError, notFound } from '../errors.ts';
import type { HashIds } from './hash-ids.ts';
import { mediaUrl } from './media-storage.ts';

export type AdRow = typeof ads.$inferSelect;
export type PublisherValidationRow = typeof adPublisherValidations.$inferSelect;

type State = 0 | 1 | 2 | 3;
const asState = (value: number): State => (value === 1 || value === 2 || value === 3 ? value : 0);

/** An ad's media can be shown (and so offered to publishers): an image, or a video whose poster exists. */
export function isMediaReady(ad: Pick<AdRow, 'type' | 'image' | 'mp4' | 'isVideoThumbnailReady'>): boolean {
  return ad.type === 'image' ? Boolean(ad.image) : Boolean(ad.mp4) && ad.isVideoThumbnailReady;
}

/** A live (not deleted) ad of this advertiser: 404 when it does not exist, 403 when it is someone else's. */
export async function findAdvertiserAd(db: Database, advertiserId: number, adId: number): Promise<AdRow> {
  const [ad] = await db
    .select()
    .from(ads)
    .where(and(eq(ads.id, adId), isNull(ads.deletedAt)))
    .limit(1);
  if (!ad) throw notFound('This ad does not exist.');
  if (ad.advertiserId !== advertiserId) throw new HttpError(403, 'notYourAd', 'This ad belongs to another advertiser.');
  return ad;
}

export async function findLiveAd(db: Database, adId: number): Promise<AdRow> {
  const [ad] = await db
    .select()
    .from(ads)
    .where(and(eq(ads.id, adId), isNull(ads.deletedAt)))
    .limit(1);
  if (!ad) throw notFound('This ad does not exist.');
  return ad;
}

export function advertiserAdView(ad: AdRow, locale: Locale, hashIds: HashIds): TAdvertiserAd {
  const validation = asState(ad.adminValidation);
  const readyOn =
    validation === VALIDATION.pending && ad.submittedAt
      ? formatDateTime(new Date(ad.submittedAt.getTime() + ADMIN_REVIEW_MS), locale)
      : null;
  return {
    id: ad.id,
    hashId: hashIds.encodeAd(ad.id),
    type: ad.type,
    image: mediaUrl(ad.image),
    mp4: mediaUrl(ad.mp4),
    poster: mediaUrl(ad.poster),
    link: ad.link,
    format_id: ad.formatId,
    width: ad.width,
    height: ad.height,
    filesize: ad.filesize,
    is_video_thumbnail_ready: ad.isVideoThumbnailReady,
    validation,
    expiresAtStr: readyOn,
    createdAtStr: formatDateTime(ad.createdAt, locale),
    isShowing: ad.isShowing,
    isEjected: ad.isEjected,
    isLocked: ad.isLocked,
    isWebOnly: ad.isWebOnly,
    isOwlOnly: ad.isOwlOnly,
  };
}

/** The publishers an ad can be offered to: newsletters for the newsletter format, websites otherwise. */
export function eligiblePublishers<P extends { isWeb: boolean; isOwl: boolean }>(ad: AdRow, all: P[]): P[] {
  const newsletter = isNewsletterFormat(ad.formatId) || ad.isOwlOnly;
  return all.filter((p) => (newsletter ? p.isOwl : p.isWeb && !ad.isOwlOnly));
}

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
    db
      .select({
        id: publishers.id,
        brand: publishers.brand,
        isWeb: publishers.isWeb,
        isOwl: publishers.isOwl,
        isInstalled: publishers.isInstalled,
      })
      .from(publishers)
      .orderBy(publishers.brand),
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
    image: mediaUrl(ad.image),
    mp4: mediaUrl(ad.mp4),
    poster: mediaUrl(ad.poster),
    link: ad.link,
    screenshot: mediaUrl(ad.type === 'image' ? ad.image : ad.poster),
    filesize: ad.filesize,
    is_owl: isNewsletterFormat(ad.formatId) || ad.isOwlOnly,
    format_id: ad.formatId,
    is_video_thumbnail_ready: ad.isVideoThumbnailReady,
    adminsValidation: asState(ad.adminValidation),
    is_emailed_as_validated: ad.isEmailedAsValidated,
    publishers: eligiblePublishers(ad, publisherRows).map((publisher) => {
      const row = validationRows.find((v) => v.adId === ad.id && v.publisherId === publisher.id);
      const state = asState(row?.state ?? 0);
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

/** Unanswered publisher requests past their expiry count as approved; answers how many changed. */
export async function expireValidationRequests(db: Database, now: Date): Promise<number> {
  const updated = await db
    .update(adPublisherValidations)
    .set({ state: VALIDATION.approved, decidedAt: sql`${adPublisherValidations.expiresAt}`, decidedBy: 'timeout' })
    .where(and(eq(adPublisherValidations.state, VALIDATION.pending), lte(adPublisherValidations.expiresAt, now)))
    .returning({ adId: adPublisherValidations.adId });
  return updated.length;
}
