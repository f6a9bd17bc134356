import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { ads, campaigns, type Database } from '@helium/db';
import {
  ADMIN_REVIEW_MS,
  VALIDATION,
  advertiserAdRights,
  asValidationState,
  submitForValidation,
} from '@helium/domain';
import { formatDateTime, type Locale } from '@helium/domain/format';
import type { TAdvertiserAd } from '@helium/contracts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';
import { adMediaUrls } from '../../infra/media-storage.ts';
import type { AcceptedMedia } from './upload.ts';

export type AdRow = typeof ads.$inferSelect;

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
  const validation = asValidationState(ad.adminValidation);
  const readyOn =
    validation === VALIDATION.pending && ad.submittedAt
      ? formatDateTime(new Date(ad.submittedAt.getTime() + ADMIN_REVIEW_MS), locale)
      : null;
  return {
    id: ad.id,
    hashId: hashIds.encodeAd(ad.id),
    type: ad.type,
    ...adMediaUrls(ad),
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
/** The advertiser's live ads, oldest first (new uploads at the end). */
export async function advertiserAds(db: Database, advertiserId: number): Promise<AdRow[]> {
  return db
    .select()
    .from(ads)
    .where(and(eq(ads.advertiserId, advertiserId), isNull(ads.deletedAt)))
    .orderBy(asc(ads.createdAt), asc(ads.id));
}

/** Changes an ad's link while it may still change (advertiserAdRights). */
export async function updateAdLink(db: Database, ad: AdRow, link: string | null): Promise<void> {
  if (!advertiserAdRights(ad.adminValidation, Boolean(ad.link)).canEditLink) {
    throw new HttpError(409, 'linkLocked', 'The link cannot change once the ad is submitted for validation.');
  }
  await db.update(ads).set({ link }).where(eq(ads.id, ad.id));
}

/** Deletes an ad (kept, marked deleted) unless it is validated. */
export async function deleteAd(db: Database, ad: AdRow, now: Date): Promise<void> {
  if (!advertiserAdRights(ad.adminValidation, Boolean(ad.link)).canDelete) {
    throw new HttpError(409, 'adValidated', 'A validated ad cannot be deleted.');
  }
  await db.update(ads).set({ deletedAt: now }).where(eq(ads.id, ad.id));
}

/** Submits an ad to the admins (0 -> 3), only with a link; a concurrent change is refused, not overwritten. */
export async function submitAd(db: Database, ad: AdRow, now: Date): Promise<void> {
  const result = submitForValidation(ad.adminValidation, ad.link);
  if (!result.ok) {
    throw result.reason === 'linkNeeded'
      ? new HttpError(409, 'redirectLinkNeeded', 'Set the redirect link before submitting the ad.')
      : new HttpError(409, 'alreadySubmitted', 'This ad has already been submitted for validation.');
  }
  await moveAdminValidation(db, ad, { adminValidation: result.state, submittedAt: now }, 'alreadySubmitted');
}

/**
 * Moves an ad's admin validation on from the state it was read in (compare and set): a concurrent change is
 * refused with a 409 under `conflictStatus`, never overwritten.
 */
export async function moveAdminValidation(
  db: Database,
  ad: Pick<AdRow, 'id' | 'adminValidation'>,
  change: Partial<Pick<AdRow, 'adminValidation' | 'submittedAt' | 'adminValidatedAt'>>,
  conflictStatus: string,
): Promise<void> {
  const updated = await db
    .update(ads)
    .set(change)
    .where(and(eq(ads.id, ad.id), eq(ads.adminValidation, ad.adminValidation)))
    .returning({ id: ads.id });
  if (updated.length === 0) throw new HttpError(409, conflictStatus, 'This ad changed meanwhile; reload.');
}

/** Newest first: an advertiser's first campaign in this order is where new uploads go, and what Activity shows. */
const newestCampaignsFirst = [desc(campaigns.createdAt), desc(campaigns.id)];

/** The advertiser's campaigns, newest first (`newestCampaignsFirst`). */
export async function advertiserCampaigns(
  db: Database,
  advertiserId: number,
): Promise<{ id: number; isCpc: boolean }[]> {
  return db
    .select({ id: campaigns.id, isCpc: campaigns.isCpc })
    .from(campaigns)
    .where(eq(campaigns.advertiserId, advertiserId))
    .orderBy(...newestCampaignsFirst);
}

/** The advertiser's newest campaign (where new uploads go, what Activity shows by default); undefined when none. */
export async function newestCampaign(
  db: Database,
  advertiserId: number,
): Promise<typeof campaigns.$inferSelect | undefined> {
  const [newest] = await db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, advertiserId))
    .orderBy(...newestCampaignsFirst)
    .limit(1);
  return newest;
}

/** A new, not yet validated ad for an accepted upload whose media are stored under these keys. */
export async function createUploadedAd(
  db: Database,
  ad: {
    advertiserId: number;
    campaignId: number;
    media: AcceptedMedia;
    key: string;
    posterKey: string | null;
    previewKey: string | null;
    createdAt: Date;
  },
): Promise<number> {
  const { media } = ad;
  const [row] = await db
    .insert(ads)
    .values({
      advertiserId: ad.advertiserId,
      campaignId: ad.campaignId,
      type: media.type,
      image: media.type === 'image' ? ad.key : null,
      mp4: media.type === 'video' ? ad.key : null,
      poster: ad.posterKey,
      preview: ad.previewKey,
      isVideoThumbnailReady: media.type === 'video' && ad.posterKey !== null,
      filesize: media.bytes.length,
      width: media.width,
      height: media.height,
      formatId: media.formatId,
      createdAt: ad.createdAt,
    })
    .returning({ id: ads.id });
  if (!row) throw new Error('The new ad was not stored');
  return row.id;
}
