import type { Readable } from 'node:stream';
import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import { ads, type Database } from '@helium/db';
import { DecodersBusyError, findFfmpeg, imagePreview } from '../../infra/media-probe.ts';
import type { MediaStorage } from '../../infra/media-storage.ts';

/** The scheduler job that makes the previews still missing (ads from before previews existed, the demo seed). */
export const AD_PREVIEWS_JOB = 'ad-previews';
/** At start, then this often: what a busy pool or a failed run left without a preview is tried again. */
export const AD_PREVIEWS_EVERY_MS = 60 * 60_000;

/**
 * The key of the preview of a stored picture (an image ad, or a video's poster): a smaller JPEG made by ffmpeg, or
 * the picture's own key when that JPEG would not be lighter (a small PNG often is lighter), so the screens never
 * load more than the full picture and the job below does not try it again. Null when no preview could be made;
 * throws DecodersBusyError when every decoder is busy.
 */
export async function storePreview(media: MediaStorage, picture: { key: string; bytes: Uint8Array }) {
  const preview = await imagePreview(picture.bytes, picture.key.endsWith('.png') ? 'png' : 'jpg');
  if (!preview) return null;
  return preview.length < picture.bytes.length ? media.put(preview, 'jpg') : picture.key;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Makes the previews missing from live ads, one at a time in the decoders' pool, so that uploads keep the other
 * decoder and the queue. Stops at the first "busy" (the next run goes on); an ad whose picture is not in storage
 * is skipped. Answers how many previews it recorded.
 */
export async function fillMissingPreviews(db: Database, media: MediaStorage): Promise<number> {
  if (!findFfmpeg()) return 0;
  const missing = await db
    .select({ id: ads.id, type: ads.type, image: ads.image, poster: ads.poster })
    .from(ads)
    .where(
      and(
        isNull(ads.preview),
        isNull(ads.deletedAt),
        or(and(eq(ads.type, 'image'), isNotNull(ads.image)), and(eq(ads.type, 'video'), isNotNull(ads.poster))),
      ),
    );
  let made = 0;
  for (const ad of missing) {
    const key = ad.type === 'image' ? ad.image : ad.poster;
    const stored = key ? await media.get(key) : null;
    if (!key || !stored) continue;
    let preview: string | null;
    try {
      preview = await storePreview(media, { key, bytes: await readAll(stored.open()) });
    } catch (error) {
      if (error instanceof DecodersBusyError) break;
      throw error;
    }
    if (!preview) continue;
    // Only where none was recorded meanwhile (an ad has one preview, whoever made it first).
    await db
      .update(ads)
      .set({ preview })
      .where(and(eq(ads.id, ad.id), isNull(ads.preview)));
    made += 1;
  }
  return made;
}
