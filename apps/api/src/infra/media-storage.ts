import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_AD_FILE_BYTES } from '@helium/domain';

export const MEDIA_TYPES = { jpg: 'image/jpeg', png: 'image/png', mp4: 'video/mp4' } as const;
export type MediaExtension = keyof typeof MEDIA_TYPES;

/** A storage key: the SHA-256 of the content and its canonical extension. Nothing else is ever a key. */
export const MEDIA_KEY_PATTERN = /^[a-f0-9]{64}\.(jpg|png|mp4)$/;

export function mediaKeyFor(bytes: Uint8Array, extension: MediaExtension): string {
  return `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
}

export function isMediaKey(value: string): boolean {
  return MEDIA_KEY_PATTERN.test(value);
}

export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1) as MediaExtension;
  return MEDIA_TYPES[extension] ?? 'application/octet-stream';
}

/** The largest medium stored: an upload's limit (posters and previews are smaller). */
export const MAX_MEDIA_BYTES = MAX_AD_FILE_BYTES;

/** Refuses what no upload can be: a storage never holds more than MAX_MEDIA_BYTES in one medium. */
export function checkMediaSize(bytes: Uint8Array): void {
  if (bytes.length > MAX_MEDIA_BYTES) {
    throw new RangeError(`A medium of ${bytes.length} bytes is over the ${MAX_MEDIA_BYTES} bytes of an upload`);
  }
}

/** Where a stored medium is served from, as the browser sees it. */
export function mediaUrl(key: string | null | undefined): string | null {
  return key ? `/media/${key}` : null;
}

/** An ad's stored files (its picture or video, the video's poster, the thumbnail preview) as the browser sees them. */
export function adMediaUrls(ad: {
  image: string | null;
  mp4: string | null;
  poster: string | null;
  preview: string | null;
}) {
  return {
    image: mediaUrl(ad.image),
    mp4: mediaUrl(ad.mp4),
    poster: mediaUrl(ad.poster),
    preview: mediaUrl(ad.preview),
  };
}

export interface StoredMedia {
  size: number;
  contentType: string;
  /** The bytes from `start` to `end` inclusive (the whole file by default). */
  open(range?: { start: number; end: number }): Readable;
}

/**
 * Where uploaded media live (MEDIA_STORAGE): the folder below, or the database (database-media-storage.ts).
 * Media are content-addressed (same bytes, same key), so a key never changes meaning and can be cached for
 * ever. An S3-compatible bucket could implement the same calls.
 */
export interface MediaStorage {
  /**
   * Stores the bytes (once; storing the same content again is a no-op) and answers their key. Throws a
   * RangeError over MAX_MEDIA_BYTES.
   */
  put(bytes: Uint8Array, extension: MediaExtension): Promise<string>;
  get(key: string): Promise<StoredMedia | null>;
  delete(key: string): Promise<void>;
  /** Every stored key, sorted. */
  keys(): Promise<string[]>;
}

/** DATA_DIR/media, one file per key, written atomically (temporary name, then rename). */
export class LocalMediaStorage implements MediaStorage {
  constructor(readonly dir: string) {}

  async put(bytes: Uint8Array, extension: MediaExtension): Promise<string> {
    checkMediaSize(bytes);
    const key = mediaKeyFor(bytes, extension);
    const file = join(this.dir, key);
    try {
      await stat(file);
      return key;
    } catch {
      // not stored yet
    }
    await mkdir(this.dir, { recursive: true });
    const temporary = join(this.dir, `.${key}.${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    return key;
  }

  async get(key: string): Promise<StoredMedia | null> {
    if (!isMediaKey(key)) return null;
    const file = join(this.dir, key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { size: info.size, contentType: contentTypeOf(key), open: (range) => createReadStream(file, range) };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isMediaKey(key)) return;
    await unlink(join(this.dir, key)).catch(() => undefined);
  }

  async keys(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.filter(isMediaKey).sort();
  }
}
