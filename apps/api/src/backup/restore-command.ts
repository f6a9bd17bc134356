// npm run restore -- <archive>: restores a backup into an empty DATA_DIR and, with DATABASE_URL, an empty database.
// Refuses any other target before writing anything (docs/operations.md).
import { parseArgs } from 'node:util';
import { BackupError } from '@helium/db';
import { storageFrom } from '../config.ts';
import { restoreBackup } from './restore.ts';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error('usage: npm run restore -- <archive.tar.gz>');
  process.exit(2);
}
const storage = storageFrom();

try {
  const manifest = await restoreBackup(positionals[0]!, storage);
  const where = storage.databaseUrl ? 'the database of DATABASE_URL' : `the embedded database in ${storage.dataDir}`;
  console.log(
    `restore: the backup of ${manifest.createdAt} is in ${where}, with ${manifest.mediaFiles} media files. ` +
      'npm start applies any newer migrations.',
  );
} catch (error) {
  console.error(`restore: ${error instanceof BackupError ? error.message : String((error as Error).stack ?? error)}`);
  process.exit(1);
}
