import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { extract as extractTar } from 'tar';
import { BackupError, loadEmbeddedDatabase, postgresTables, restorePostgresDatabase } from '@helium/db';
import { embeddedDatabaseDir } from '../config.ts';
import { ARCHIVE, parseManifest, releaseMigrations, type BackupManifest } from './archive.ts';
import type { Storage } from './backup.ts';

/** Why the archive cannot go into this storage, before anything is written; null when it can. */
export async function whyNotRestorable(manifest: BackupManifest, storage: Storage): Promise<string | null> {
  if (!releaseMigrations().includes(manifest.schema)) {
    return `The backup was made by a newer release (schema ${manifest.schema}): restore it with that release or a later one`;
  }
  if (manifest.database === 'postgres' && !storage.databaseUrl) {
    return 'The backup holds a PostgreSQL database: set DATABASE_URL to an empty database to restore it into';
  }
  if (manifest.database === 'embedded' && storage.databaseUrl) {
    return 'The backup holds the embedded database: unset DATABASE_URL to restore it into DATA_DIR';
  }
  const needsDataDir = manifest.database === 'embedded' || manifest.mediaFiles > 0 || manifest.sessionSecret;
  const present = existsSync(storage.dataDir) ? readdirSync(storage.dataDir) : [];
  if (needsDataDir && present.length > 0) {
    return (
      `DATA_DIR (${storage.dataDir}) is not empty (${present.slice(0, 4).join(', ')}): a backup is restored only ` +
      'into an empty folder. Move it aside, or set DATA_DIR to a new folder.'
    );
  }
  if (storage.databaseUrl) {
    const tables = await postgresTables(storage.databaseUrl);
    if (tables.length > 0) {
      return (
        `The database of DATABASE_URL holds ${tables.length} tables (${tables.slice(0, 3).join(', ')}…): a backup ` +
        'is restored only into an empty database. Create a new one (createdb) and point DATABASE_URL at it.'
      );
    }
  }
  return null;
}

/**
 * Restores a makeBackup archive into an empty DATA_DIR and, with DATABASE_URL, an empty database; refuses
 * anything else with a BackupError before writing. The next start applies the migrations of a newer release.
 */
export async function restoreBackup(archive: string, storage: Storage): Promise<BackupManifest> {
  const dataDir = resolve(storage.dataDir);
  mkdirSync(dirname(dataDir), { recursive: true });
  // Beside DATA_DIR, so that the uploads are moved into it, not copied.
  const staging = mkdtempSync(join(dirname(dataDir), '.helium-restore-'));
  try {
    await extractTar({ file: resolve(archive), cwd: staging, strict: true });
    const manifestFile = join(staging, ARCHIVE.manifest);
    if (!existsSync(manifestFile)) throw new BackupError(`${archive} is not a Helium Ads backup: no backup.json in it`);
    const manifest = parseManifest(readFileSync(manifestFile, 'utf8'));
    const refusal = await whyNotRestorable(manifest, { ...storage, dataDir });
    if (refusal) throw new BackupError(refusal);
    mkdirSync(dataDir, { recursive: true });
    if (storage.databaseUrl) {
      await restorePostgresDatabase(storage.databaseUrl, join(staging, ARCHIVE.postgresDatabase));
    } else {
      await loadEmbeddedDatabase(embeddedDatabaseDir(dataDir), join(staging, ARCHIVE.embeddedDatabase));
    }
    if (existsSync(join(staging, ARCHIVE.media))) renameSync(join(staging, ARCHIVE.media), join(dataDir, 'media'));
    if (manifest.sessionSecret) {
      renameSync(join(staging, ARCHIVE.sessionSecret), join(dataDir, 'session-secret'));
      chmodSync(join(dataDir, 'session-secret'), 0o600);
    }
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
