import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { media, type Database, type DatabaseHandle } from '@helium/db';
import { ConfigError, type AppConfig } from '../config.ts';
import {
  checkMediaSize,
  contentTypeOf,
  isMediaKey,
  LocalMediaStorage,
  MAX_MEDIA_BYTES,
  mediaKeyFor,
  type MediaExtension,
  type MediaStorage,
  type StoredMedia,
} from './media-storage.ts';

/**
 * A medium is read this many bytes per statement: a video is streamed in a few statements and no request holds
 * more than this in memory; a medium no larger (most images) comes with its size, in one statement.
 */
export const MEDIA_CHUNK_BYTES = 512 * 1024;

/** node-postgres reads bytea as a Buffer, PGlite as a Uint8Array: a Buffer either way, without a copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Uploaded media in the database's `media` table (MEDIA_STORAGE=postgres): every instance on the database reads
 * what any stored. A put writes the row once (content-addressed: a key already there is the same bytes); a read
 * streams the bytes asked for in chunks of MEDIA_CHUNK_BYTES.
 */
export class DatabaseMediaStorage implements MediaStorage {
  constructor(
    private readonly db: Database,
    private readonly chunkBytes = MEDIA_CHUNK_BYTES,
  ) {}

  async put(bytes: Uint8Array, extension: MediaExtension): Promise<string> {
    checkMediaSize(bytes);
    const key = mediaKeyFor(bytes, extension);
    // Asked first, so that storing a medium again does not send its bytes.
    const [stored] = await this.db.select({ key: media.key }).from(media).where(eq(media.key, key));
    if (stored) return key;
    await this.db
      .insert(media)
      .values({ key, contentType: contentTypeOf(key), bytes: asBuffer(bytes), size: bytes.length })
      .onConflictDoNothing();
    return key;
  }

  async get(key: string): Promise<StoredMedia | null> {
    if (!isMediaKey(key)) return null;
    const [row] = await this.db
      .select({
        size: media.size,
        contentType: media.contentType,
        whole: sql<Uint8Array | null>`case when ${media.size} <= ${this.chunkBytes}::integer then ${media.bytes} end`,
      })
      .from(media)
      .where(eq(media.key, key));
    if (!row) return null;
    const whole = row.whole ? asBuffer(row.whole) : null;
    return {
      size: row.size,
      contentType: row.contentType,
      open: (range = { start: 0, end: row.size - 1 }) =>
        whole
          ? Readable.from([whole.subarray(range.start, range.end + 1)], { objectMode: false })
          : Readable.from(this.chunks(key, range.start, range.end), { objectMode: false }),
    };
  }

  /** Bytes `start` to `end` inclusive, one statement per chunk, each read when the stream wants more. */
  private async *chunks(key: string, start: number, end: number): AsyncGenerator<Buffer> {
    for (let at = start; at <= end; at += this.chunkBytes) {
      const length = Math.min(this.chunkBytes, end - at + 1);
      const [row] = await this.db
        .select({
          chunk: sql<Uint8Array>`substring(${media.bytes} from ${at + 1}::integer for ${length}::integer)`,
        })
        .from(media)
        .where(eq(media.key, key));
      if (!row) throw new Error(`The medium ${key} was deleted while it was read`);
      yield asBuffer(row.chunk);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isMediaKey(key)) return;
    await this.db.delete(media).where(eq(media.key, key));
  }

  async keys(): Promise<string[]> {
    const rows = await this.db.select({ key: media.key }).from(media).orderBy(asc(media.key));
    return rows.map((row) => row.key);
  }

  /** Which of these keys the table lacks. */
  async missing(keys: string[]): Promise<string[]> {
    const present = new Set<string>();
    for (let from = 0; from < keys.length; from += 1000) {
      const batch = keys.slice(from, from + 1000);
      const rows = await this.db.select({ key: media.key }).from(media).where(inArray(media.key, batch));
      for (const row of rows) present.add(row.key);
    }
    return keys.filter((key) => !present.has(key));
  }
}

/** The storage MEDIA_STORAGE names; `postgres` needs the database to be PostgreSQL (loadConfig checks it too). */
export function openMediaStorage(config: Pick<AppConfig, 'mediaStorage' | 'mediaDir'>, database: DatabaseHandle) {
  if (config.mediaStorage === 'local') return new LocalMediaStorage(config.mediaDir);
  if (database.kind !== 'postgres') {
    throw new ConfigError('MEDIA_STORAGE=postgres needs DATABASE_URL (PostgreSQL), not the embedded database');
  }
  return new DatabaseMediaStorage(database.db);
}

export interface CopiedMedia {
  copied: number;
  /** Files not copied (left where they are): bytes that do not hash to their name, or more than an upload's. */
  skipped: string[];
}

/**
 * Copies into the database the media of a folder (DATA_DIR/media) that it lacks: for a server that kept its
 * uploads in DATA_DIR before MEDIA_STORAGE=postgres. Idempotent: a second run copies nothing. The folder is
 * left as it is.
 */
export async function copyFolderMediaToDatabase(dir: string, target: DatabaseMediaStorage): Promise<CopiedMedia> {
  const missing = await target.missing(await new LocalMediaStorage(dir).keys());
  const result: CopiedMedia = { copied: 0, skipped: [] };
  for (const key of missing) {
    const bytes = await readFile(join(dir, key));
    const extension = key.slice(key.lastIndexOf('.') + 1) as MediaExtension;
    if (bytes.length > MAX_MEDIA_BYTES || mediaKeyFor(bytes, extension) !== key) {
      result.skipped.push(key);
      continue;
    }
    await target.put(bytes, extension);
    result.copied += 1;
  }
  return result;
}
