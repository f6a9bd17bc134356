import type { TAdminAd } from '@helium/contracts';

type Publisher = TAdminAd['publishers'][number];

/** The ad's media can be shown: an image, or a video whose poster is ready. */
export function isAdMediaReady(ad: Pick<TAdminAd, 'type' | 'image' | 'mp4' | 'is_video_thumbnail_ready'>): boolean {
  return ad.type === 'image' ? Boolean(ad.image) : Boolean(ad.mp4) && ad.is_video_thumbnail_ready;
}

/** Rows are dimmed unless the publisher is installed, the admin approved and the media can be shown. */
export function isPublisherRowDimmed(ad: TAdminAd, publisher: Publisher): boolean {
  return !(publisher.isInstalled && ad.adminsValidation === 1 && isAdMediaReady(ad));
}

/** The checkbox appears only for an installed publisher not yet asked, once the admin approved. */
export function hasPublisherCheckbox(ad: TAdminAd, publisher: Publisher): boolean {
  return publisher.isInstalled && ad.adminsValidation === 1 && publisher.adValidation === 0;
}

/** The rows pre-checked on load: every row that has a checkbox. */
export function initiallyChecked(ad: TAdminAd): number[] {
  return ad.publishers.filter((p) => hasPublisherCheckbox(ad, p)).map((p) => p.id);
}
