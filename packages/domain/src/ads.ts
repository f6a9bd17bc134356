/**
 * Ads and their validation (specification 01 sections 3-5, 02 sections 2.3, 4, 5; docs/decisions.md section 8).
 * Pure rules only: the API and the web app both call them.
 */
import { httpUrl, withoutControlCharacters } from './delivery/addresses.ts';
import { DAY_MS, HOUR_MS } from './time.ts';

/** Format ids: 1 vertical, 2 newsletter, 3 square, 4 horizontal, 5 horizontal-large. */
export const AD_FORMAT = { vertical: 1, newsletter: 2, square: 3, horizontal: 4, horizontalLarge: 5 } as const;
export type AdFormatId = (typeof AD_FORMAT)[keyof typeof AD_FORMAT];
export const AD_FORMAT_NAMES: Record<AdFormatId, string> = {
  1: 'vertical',
  2: 'newsletter',
  3: 'square',
  4: 'horizontal',
  5: 'horizontal-large',
};

/** Validation state codes, the same numbering for the admin and each publisher. */
export const VALIDATION = { notRequested: 0, approved: 1, rejected: 2, pending: 3 } as const;
export type ValidationState = (typeof VALIDATION)[keyof typeof VALIDATION];

export const MAX_AD_FILE_BYTES = 10 * 1024 * 1024;
export const AD_FILE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'mp4'] as const;
export type AdFileExtension = (typeof AD_FILE_EXTENSIONS)[number];
/** Smallest side accepted for an image or a video, in pixels. */
export const MIN_AD_SIDE_PX = 50;
/** Above this an image gets the "heavy file" suggestion (videos: HEAVY_VIDEO_BYTES). */
export const HEAVY_IMAGE_BYTES = 500 * 1024;
export const HEAVY_VIDEO_BYTES = 4 * 1024 * 1024;
/**
 * Most pixels an uploaded image (or a video frame) may have: 4096 x 4096, about 16.8 million. Checked from the
 * header before any decode, since decoding takes memory in proportion to the pixels, not to the file: a 746 KB
 * PNG of 16,000 x 16,000 needs about 750 MB. Ads are at most a few thousand pixels a side (a 4K frame is 8.3
 * million), so no real ad comes near it; ffmpeg decodes an image at the limit in about 150 MB, even at 16 bits a
 * channel.
 */
export const MAX_AD_IMAGE_PIXELS = 4096 * 4096;
/** Uploads per advertiser account (every attempt, accepted or refused: each may cost a decode) per hour. */
export const AD_UPLOAD_RATE = { limit: 30, windowMs: HOUR_MS } as const;
/**
 * Things a user did that are recorded (user-activity: the add-credits modal opened or closed) per user per hour;
 * beyond, the call answers ok and records nothing, so that no signed-in user can grow the table at will.
 */
export const USER_ACTIVITY_RATE = { limit: 60, windowMs: HOUR_MS } as const;
/** A publisher request not answered within this counts as approved; an answer can change within it. */
export const PUBLISHER_VALIDATION_WINDOW_MS = DAY_MS;
/** How long the advertiser is told an admin review takes ("ready on"). */
export const ADMIN_REVIEW_MS = DAY_MS;

/** The extension of a file name, lower case, when it is one the upload accepts; null otherwise. */
export function adFileExtension(fileName: string): AdFileExtension | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  const extension = match?.[1]?.toLowerCase();
  return (AD_FILE_EXTENSIONS as readonly string[]).includes(extension ?? '') ? (extension as AdFileExtension) : null;
}

/** The client-side checks of specification 02 section 5, as message keys (empty when the file may be sent). */
export function adFileWarnings(file: { name: string; size: number }): Array<'fileFormatWarning' | 'fileSizeWarning'> {
  const warnings: Array<'fileFormatWarning' | 'fileSizeWarning'> = [];
  if (!adFileExtension(file.name)) warnings.push('fileFormatWarning');
  if (file.size > MAX_AD_FILE_BYTES) warnings.push('fileSizeWarning');
  return warnings;
}

/**
 * The format an image or video of these dimensions takes, by its aspect ratio (width / height):
 * below 0.8 vertical; 0.8 to 1.25 square; above 1.25 and below 2.5 horizontal; from 2.5 a wide banner,
 * which is a newsletter banner when it is 480 to 700 pixels wide (the width of an e-mail body) and
 * horizontal-large otherwise.
 */
export function adFormatFromDimensions(width: number, height: number): AdFormatId {
  if (!(width > 0) || !(height > 0)) throw new Error('Dimensions must be positive');
  const ratio = width / height;
  if (ratio < 0.8) return AD_FORMAT.vertical;
  if (ratio <= 1.25) return AD_FORMAT.square;
  if (ratio < 2.5) return AD_FORMAT.horizontal;
  return width >= 480 && width <= 700 ? AD_FORMAT.newsletter : AD_FORMAT.horizontalLarge;
}

/** True when an image or video frame of these dimensions has more pixels than an ad may (`MAX_AD_IMAGE_PIXELS`). */
export function exceedsAdPixelLimit(width: number, height: number): boolean {
  return width * height > MAX_AD_IMAGE_PIXELS;
}

/** Newsletter ads go to newsletter publishers; every other format to web publishers. */
export function isNewsletterFormat(formatId: number): boolean {
  return formatId === AD_FORMAT.newsletter;
}

/** Vertical ads cannot be shown on mobile (they would fill most of the screen). */
export function isMobileCompatible(formatId: number): boolean {
  return formatId !== AD_FORMAT.vertical;
}

export type TransitionResult<S> = { ok: true; state: S } | { ok: false; reason: string };

/** What the advertiser can do with an ad in this admin state. */
export function advertiserAdRights(state: number, hasLink: boolean) {
  const open = state === VALIDATION.notRequested;
  return {
    canEditLink: open,
    canSubmit: open && hasLink,
    canDelete: state !== VALIDATION.approved,
  };
}

/** The advertiser submits an ad: 0 -> 3, and only with a link. */
export function submitForValidation(state: number, link: string | null | undefined): TransitionResult<3> {
  if (state !== VALIDATION.notRequested) return { ok: false, reason: 'alreadySubmitted' };
  if (!link || link.trim() === '') return { ok: false, reason: 'linkNeeded' };
  return { ok: true, state: VALIDATION.pending };
}

/** The admin decides on a submitted ad: 3 -> 1 (approve) or 2 (reject). */
export function adminDecision(state: number, isAccepted: boolean): TransitionResult<1 | 2> {
  if (state !== VALIDATION.pending) return { ok: false, reason: 'notAwaitingDecision' };
  return { ok: true, state: isAccepted ? VALIDATION.approved : VALIDATION.rejected };
}

/** Admin actions on publishers: 1 force-approve, 2 force-decline, 3 e-mail a request. */
export type PublisherAcceptance = 1 | 2 | 3;

/**
 * An admin action on one publisher of an ad. It needs the admin's approval of the ad, an installed
 * publisher and media that can be shown (an image, or a video whose poster is ready). A request goes
 * only to a publisher not yet asked (0 -> 3); forcing sets 1 or 2 from any state.
 */
export function adminPublisherAction(options: {
  adminState: number;
  publisherState: number;
  isPublisherInstalled: boolean;
  isMediaReady: boolean;
  acceptance: PublisherAcceptance;
}): TransitionResult<ValidationState> {
  const { adminState, publisherState, isPublisherInstalled, isMediaReady, acceptance } = options;
  if (adminState !== VALIDATION.approved) return { ok: false, reason: 'adNotApprovedByAdmin' };
  if (!isMediaReady) return { ok: false, reason: 'mediaNotReady' };
  if (!isPublisherInstalled) return { ok: false, reason: 'publisherNotInstalled' };
  if (acceptance === 3) {
    if (publisherState !== VALIDATION.notRequested) return { ok: false, reason: 'alreadyRequested' };
    return { ok: true, state: VALIDATION.pending };
  }
  return { ok: true, state: acceptance };
}

export interface PublisherValidationRow {
  state: number;
  requestedAt: Date | null;
  expiresAt: Date | null;
  decidedAt: Date | null;
  decidedBy: 'publisher' | 'admin' | 'timeout' | null;
}

/**
 * Whether the publisher may still choose through the e-mailed link: while the request is open (state 3,
 * before it expires), and within 24 hours of the publisher's own answer. A timeout or an admin's forced
 * decision closes the choice.
 */
export function canPublisherChoose(row: PublisherValidationRow, now: Date): boolean {
  if (!row.requestedAt) return false;
  const t = now.getTime();
  if (row.state === VALIDATION.pending) return row.expiresAt !== null && t < row.expiresAt.getTime();
  if ((row.state === VALIDATION.approved || row.state === VALIDATION.rejected) && row.decidedBy === 'publisher') {
    return row.decidedAt !== null && t < row.decidedAt.getTime() + PUBLISHER_VALIDATION_WINDOW_MS;
  }
  return false;
}

/** The publisher answers through the link: 1 accept, 2 decline, while it may choose. */
export function publisherAnswer(row: PublisherValidationRow, acceptance: 1 | 2, now: Date): TransitionResult<1 | 2> {
  if (!canPublisherChoose(row, now)) return { ok: false, reason: 'cannotValidate' };
  return { ok: true, state: acceptance };
}

/** A request not answered in time counts as approved. */
export function isRequestExpired(row: PublisherValidationRow, now: Date): boolean {
  return row.state === VALIDATION.pending && row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
}

/**
 * A redirect link the product accepts: an absolute http or https URL with a host (no javascript:, data:,
 * ftp:...), written with its `//` (`https:example.com` is one to the URL parser, but a browser's link with it
 * stays inside the app), without control characters (the URL parser would drop a CR or LF silently, and a
 * header built from it could be split) and without a user name or password (`https://bank.example@evil.example`
 * shows one host and goes to another).
 */
export function isHttpLink(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 2048 || withoutControlCharacters(trimmed) !== trimmed) return false;
  if (!/^https?:\/\//i.test(trimmed)) return false;
  const url = httpUrl(trimmed);
  return url !== null && url.hostname !== '' && url.username === '' && url.password === '';
}

/** What the publisher rules need of an ad. */
export interface AdChannelFacts {
  formatId: number;
  isOwlOnly: boolean;
}

/** The publishers that can show an ad: newsletters for a newsletter ad, websites otherwise (never for owl-only ads). */
export function eligiblePublishers<P extends { isWeb: boolean; isOwl: boolean }>(ad: AdChannelFacts, all: P[]): P[] {
  const newsletter = isNewsletterFormat(ad.formatId) || ad.isOwlOnly;
  return all.filter((p) => (newsletter ? p.isOwl : p.isWeb && !ad.isOwlOnly));
}

/** An ad's media can be shown (and so offered to publishers): an image, or a video whose poster exists. */
export function isMediaReady(ad: {
  type: 'image' | 'video';
  image: string | null;
  mp4: string | null;
  isVideoThumbnailReady: boolean;
}): boolean {
  return ad.type === 'image' ? Boolean(ad.image) : Boolean(ad.mp4) && ad.isVideoThumbnailReady;
}

/** A stored validation state as the calls show it: 0 not requested, 1 approved, 2 rejected, 3 pending. */
export function asValidationState(value: number): 0 | 1 | 2 | 3 {
  return value === 1 || value === 2 || value === 3 ? value : 0;
}
