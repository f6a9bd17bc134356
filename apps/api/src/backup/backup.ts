import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { create as createTar } from 'tar';
import { BackupError, dumpEmbeddedDatabase, dumpPostgresDatabase, FolderInUseError } from '@helium/db';
import { embeddedDatabaseDir } from '../config.ts';
import { ARCHIVE, releaseMigrations, type BackupManifest } from './archive.ts';

export interface Storage {
  dataDir: string;
  databaseUrl: string | undefined;
}

/** How many files are under `folder` (none when it does not exist). */
export function countFiles(folder: string): number {
  if (!existsSync(folder)) return 0;
  return readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

/** `helium-backup-2026-05-01T10-20-30Z.tar.gz`: sorts by time, and has no colon (which some tools read as a host). */
export function archiveName(at: Date): string {
  return `helium-backup-${at.toISOString().slice(0, 19).replaceAll(':', '-')}Z.tar.gz`;
}

/**
 * Writes one archive (`outputFile`, readable by its owner only: it holds the secrets) of the database, the uploads
 * of DATA_DIR/media and DATA_DIR/session-secret. The embedded database is dumped only while no server has it
 * open; PostgreSQL is dumped from one snapshot while the servers keep serving.
 */
export async function makeBackup(storage: Storage, outputFile: string, now = new Date()): Promise<BackupManifest> {
  const output = resolve(outputFile);
  mkdirSync(dirname(output), { recursive: true });
  // Beside the archive, so that a large dump does not fill a small /tmp.
  const staging = mkdtempSync(join(dirname(output), '.helium-backup-'));
  try {
    mkdirSync(join(staging, 'database'));
    if (storage.databaseUrl) {
      await dumpPostgresDatabase(storage.databaseUrl, join(staging, ARCHIVE.postgresDatabase));
    } else {
      try {
        await dumpEmbeddedDatabase(embeddedDatabaseDir(storage.dataDir), join(staging, ARCHIVE.embeddedDatabase));
      } catch (error) {
        if (!(error instanceof FolderInUseError)) throw error;
        throw new BackupError(
          `A server is running on DATA_DIR (${storage.dataDir}), process ${error.holder.pid}: the embedded database ` +
            'is backed up only while no server writes it. Stop the server (it writes its pending counts as it ' +
            'stops), run the backup, then start the server again.',
        );
      }
    }
    // The uploads and the secret are packed from where they are (tar follows these links), not copied first.
    const mediaDir = join(storage.dataDir, 'media');
    const mediaFiles = countFiles(mediaDir);
    if (mediaFiles > 0) symlinkSync(mediaDir, join(staging, ARCHIVE.media));
    const secretFile = join(storage.dataDir, 'session-secret');
    const sessionSecret = existsSync(secretFile);
    if (sessionSecret) symlinkSync(secretFile, join(staging, ARCHIVE.sessionSecret));
    const manifest: BackupManifest = {
      product: 'helium-ads-backup',
      format: 1,
      createdAt: now.toISOString(),
      database: storage.databaseUrl ? 'postgres' : 'embedded',
      schema: releaseMigrations().at(-1)!,
      mediaFiles,
      sessionSecret,
    };
    writeFileSync(join(staging, ARCHIVE.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    const parts = readdirSync(staging).filter((name) => name !== ARCHIVE.manifest);
    await createTar({ file: output, gzip: true, cwd: staging, follow: true, portable: true, mode: 0o600 }, [
      ARCHIVE.manifest,
      ...parts,
    ]);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
