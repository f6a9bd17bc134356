// npm run backup [-- --output <folder or .tar.gz file>]: one archive of the database and the uploads; its path is the
// last line printed. Reads DATA_DIR and DATABASE_URL as the server does (docs/operations.md).
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError } from '@helium/db';
import { storageFrom } from '../config.ts';
import { archiveName, makeBackup } from './backup.ts';

const { values } = parseArgs({ options: { output: { type: 'string', short: 'o', default: 'backups' } } });
const output = values.output.endsWith('.tar.gz')
  ? resolve(values.output)
  : join(resolve(values.output), archiveName(new Date()));
const storage = storageFrom();

try {
  const where = storage.databaseUrl
    ? 'the PostgreSQL database of DATABASE_URL (pg_dump)'
    : `the embedded database in ${storage.dataDir}`;
  console.log(`backup: ${where}, uploads and secret of ${storage.dataDir}`);
  const manifest = await makeBackup(storage, output);
  console.log(
    `backup: ${manifest.mediaFiles} media files, schema ${manifest.schema}; keep it private (it holds the session secret and every account)`,
  );
  console.log(output);
} catch (error) {
  console.error(`backup: ${error instanceof BackupError ? error.message : String((error as Error).stack ?? error)}`);
  process.exit(1);
}
