import { CLICK_TOKEN_MS, isShownAsVideo, VIEW_TOKEN_MS, type Device } from '@helium/domain';
import type { ServedAd } from '@helium/contracts/serving';
import type { Placement } from '@helium/domain';
import type { IndexedAd } from './ad-index.ts';
import type { TokenSigner } from './tokens.ts';

/** How the script shows an ad, which sets its earliest view (MIN_VIEW_MS). */
export const shownAsOf = (ad: IndexedAd): 'image' | 'video' => (isShownAsVideo(ad) ? 'video' : 'image');

/**
 * Public URL of an ad's media, or of its placeholder creative (an image) while it has none, and what the
 * script shows it as: a video without its video file is shown as its placeholder picture (the script counts a
 * video's view only while it plays).
 */
export function mediaUrl(
  baseUrl: string,
  ad: IndexedAd,
): { src: string; poster: string | null; kind: 'image' | 'video' } {
  const key = ad.type === 'video' ? ad.mp4 : ad.image;
  return {
    src: key ? `${baseUrl}/media/${key}` : `${baseUrl}/serve/creative/${ad.id}.svg`,
    poster: ad.poster ? `${baseUrl}/media/${ad.poster}` : null,
    kind: shownAsOf(ad),
  };
}

/** What the script receives for one placement: where, the media, and the decision's signed click and view tokens. */
export function servedAd(
  options: { baseUrl: string; signer: TokenSigner },
  ad: IndexedAd,
  decision: { id: string; publisherId: number; device: Device; at: number },
  placement: Pick<Placement, 'selector' | 'position'>,
): ServedAd {
  const media = mediaUrl(options.baseUrl, ad);
  const served = { publisherId: decision.publisherId, adId: ad.id, device: decision.device };
  const expiry = (tokenMs: number) => Math.floor((decision.at + tokenMs) / 1000);
  return {
    selector: placement.selector,
    position: placement.position,
    kind: media.kind,
    src: media.src,
    poster: media.poster,
    width: ad.width ?? 300,
    height: ad.height ?? 250,
    click: `${options.baseUrl}/c/${options.signer.sign({ kind: 'c', decisionId: decision.id, expiresAt: expiry(CLICK_TOKEN_MS), served })}`,
    view: options.signer.sign({ kind: 'v', decisionId: decision.id, expiresAt: expiry(VIEW_TOKEN_MS), served }),
  };
}
