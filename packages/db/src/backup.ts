import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { lockFolder } from './folder-lock.ts';

/** A backup or restore that cannot go on; the message says why and what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Whether PostgreSQL's data folder of the embedded database is in `pgliteDir`. */
export function hasEmbeddedDatabase(pgliteDir: string): boolean {
  return existsSync(join(pgliteDir, 'PG_VERSION'));
}

/**
 * Writes the embedded database at `pgliteDir` into `toFile` (PGlite's own dump of its data folder, gzipped tar).
 * It takes the folder's lock first: a running server holds it (FolderInUseError), and a copy taken while the
 * server writes could be torn, so the server must be stopped.
 */
export async function dumpEmbeddedDatabase(pgliteDir: string, toFile: string): Promise<void> {
  if (!hasEmbeddedDatabase(pgliteDir)) throw new BackupError(`No embedded database in ${pgliteDir}`);
  const unlock = lockFolder(`${pgliteDir}.lock`);
  try {
    const database = new PGlite({ dataDir: pgliteDir });
    try {
      const dump = await database.dumpDataDir('gzip');
      await writeFile(toFile, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    } finally {
      await database.close();
    }
  } finally {
    unlock();
  }
}

/** Makes the embedded database at `pgliteDir`, which must not exist or be empty, from a dumpEmbeddedDatabase file. */
export async function loadEmbeddedDatabase(pgliteDir: string, fromFile: string): Promise<void> {
  if (existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0) {
    throw new BackupError(`${pgliteDir} is not empty: an embedded database is restored only into an empty folder`);
  }
  const unlock = lockFolder(`${pgliteDir}.lock`);
  try {
    const loadDataDir = new Blob([await readFile(fromFile)]);
    const database = new PGlite({ dataDir: pgliteDir, loadDataDir });
    await database.waitReady;
    await database.close();
  } finally {
    unlock();
  }
}

/** The tables of the PostgreSQL database at `url`, in every schema but PostgreSQL's own (drizzle's included). */
export async function postgresTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select table_schema || '.' || table_name as name from information_schema.tables
       where table_schema not in ('pg_catalog', 'information_schema') order by 1`,
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/**
 * Runs pg_dump or pg_restore on the database at `url`. The password goes in PGPASSWORD, not on the command line
 * that any user of the machine can read (ps).
 */
function runPostgresTool(tool: 'pg_dump' | 'pg_restore', url: string, args: string[]): Promise<void> {
  const connection = new URL(url);
  const env = { ...process.env };
  if (connection.password) {
    env.PGPASSWORD = decodeURIComponent(connection.password);
    connection.password = '';
  }
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${connection.toString()}`], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${tool} is not installed: install PostgreSQL's client programs, of the server's major version or ` +
                'newer (Debian/Ubuntu: apt-get install postgresql-client)',
            )
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit code ${code}): ${errors.trim()}`)),
    );
  });
}

/**
 * Writes the PostgreSQL database at `url` into `toFile` with pg_dump (its custom format: one consistent snapshot,
 * taken while the servers keep serving). Owners and grants are left out, so it restores under another role.
 */
export function dumpPostgresDatabase(url: string, toFile: string): Promise<void> {
  return runPostgresTool('pg_dump', url, ['--format=custom', '--no-owner', '--no-privileges', `--file=${toFile}`]);
}

/** Restores a dumpPostgresDatabase file into the database at `url`, which must hold no table. */
export async function restorePostgresDatabase(url: string, fromFile: string): Promise<void> {
  if ((await postgresTables(url)).length > 0) throw new BackupError('A backup is restored only into an empty database');
  await runPostgresTool('pg_restore', url, [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    fromFile,
  ]);
}
