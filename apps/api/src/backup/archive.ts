import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackupError, MIGRATIONS_FOLDER } from '@helium/db';

/** What a backup archive holds (a gzipped tar): this manifest first, then the parts it names. */
export interface BackupManifest {
  product: 'helium-ads-backup';
  format: 1;
  createdAt: string;
  /** `embedded`: PGlite's dump of DATA_DIR/db; `postgres`: pg_dump's custom format of DATABASE_URL's database. */
  database: 'embedded' | 'postgres';
  /** The last migration of the release that made it: a release restores only what its migrations know. */
  schema: string;
  /** Files of DATA_DIR/media (uploads with MEDIA_STORAGE=local; with `postgres` they are in the database). */
  mediaFiles: number;
  /** Whether DATA_DIR/session-secret is in it (the embedded database's secret, which also salts public ids). */
  sessionSecret: boolean;
}

/** The names inside the archive. */
export const ARCHIVE = {
  manifest: 'backup.json',
  embeddedDatabase: 'database/embedded.tar.gz',
  postgresDatabase: 'database/postgres.dump',
  media: 'media',
  sessionSecret: 'session-secret',
} as const;

/** The migrations of this release, oldest first (drizzle's journal). */
export function releaseMigrations(): string[] {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  return journal.entries.map((entry) => entry.tag);
}

/** The manifest read from an extracted archive, or an error naming what is wrong. */
export function parseManifest(text: string): BackupManifest {
  const manifest = JSON.parse(text) as Partial<BackupManifest>;
  if (manifest.product !== 'helium-ads-backup' || manifest.format !== 1) {
    throw new BackupError('This is not a Helium Ads backup (its backup.json is missing or of another format)');
  }
  return manifest as BackupManifest;
}
