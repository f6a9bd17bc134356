import { mkdirSync } from 'node:fs';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { lockFolder } from './folder-lock.ts';
import { ThreadedPGlite, type PreparedStatement } from './pglite-thread.ts';
import { ServingLock } from './serving-lock.ts';
import * as schema from './schema/index.ts';

export type { PreparedStatement } from './pglite-thread.ts';
export { DatabaseInUseError } from './serving-lock.ts';

export type Schema = typeof schema;
/** The one database type the app uses, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Answers when the database is reachable (for /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs a statement prepared once per connection under its name, with text parameters: for a hot statement
   * (the write path's one call per batch), without the query builder. Answers the first column of the first row
   * (as text on PGlite, parsed by its type on PostgreSQL: a caller of a json column parses a string), or null.
   */
  executePrepared(statement: PreparedStatement, values: Array<string | null>): Promise<unknown>;
  /** The embedded database's thread: how busy it has been (since `previous`, when given). */
  databaseThreadUtilization?: (previous?: EventLoopUtilization) => EventLoopUtilization;
  /** The embedded database's thread id in the operating system (Linux), for CPU time per thread. */
  databaseOsThreadId?: number | null;
  /** The embedded database's files as one archive, which `pgliteImage` starts a copy from. */
  dumpImage?: () => Promise<Uint8Array>;
  /**
   * Makes this process the only server of the database until it closes (waiting up to `waitMs` for another to
   * stop), or throws DatabaseInUseError. The ad server checks credits, caps and unique clicks in memory: two
   * processes on one database would each spend the same credits. The embedded database's folder lock already
   * keeps it to one process; on PostgreSQL this is a session advisory lock, released when the connection ends
   * (a killed process included), and taken again after a loss (`onRegained`: serving-lock.ts).
   */
  holdExclusive(options?: { waitMs?: number; onRegained?: () => void }): Promise<void>;
  /**
   * Runs `step` (migrating, seeding an empty database) while no other server starting on the same database runs
   * its own: instances started at once migrate one after the other, and the second finds the work done. On
   * PostgreSQL a session advisory lock, released when `step` ends (or its connection does); the embedded database
   * has one process anyway.
   */
  oneStartAtATime<T>(step: () => Promise<T>): Promise<T>;
}

/** The session advisory lock of oneStartAtATime. */
const STARTING_LOCK_KEY = '4841494c49554d32';

export interface DatabaseOptions {
  /** A PostgreSQL URL; when absent the embedded PGlite database is used. */
  url?: string;
  /** Folder of the embedded database; absent means in memory. */
  pgliteDir?: string;
  /** The embedded database starts as a copy of this one (DatabaseHandle.dumpImage's answer): tests' template. */
  pgliteImage?: Uint8Array;
  /**
   * The database stopped serving this process while open: the embedded database's thread stopped or failed
   * (pglite-thread.ts), or another server took holdExclusive's lock on PostgreSQL while its connection was lost.
   */
  onFailure?: (error: Error) => void;
  /**
   * An idle PostgreSQL connection ended (a restart, a failover, a network cut): the pool drops it and opens another
   * when one is needed, so this only reports it. Without a listener the pool's error would stop the process.
   */
  onConnectionLost?: (error: Error) => void;
  /**
   * The connection holding holdExclusive's lock ended: the lock is taken again as soon as the database answers
   * (holdExclusive's `onRegained` then), or onFailure is told that another server took it meanwhile.
   */
  onLockLost?: (error: Error) => void;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));

export async function openDatabase(options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection's end is reported by the pool; one lent out (a transaction under way) by the connection
    // itself, whose query fails as well: without these listeners either would stop the process.
    pool.on('error', (error) => options.onConnectionLost?.(error));
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const lock = new ServingLock(pool, { onLost: options.onLockLost, onFailure: options.onFailure });
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        lock.close();
        await pool.end();
      },
      executePrepared: async (statement, values) => {
        const result = await pool.query({ name: statement.name, text: statement.text, values, rowMode: 'array' });
        return (result.rows[0] as unknown[] | undefined)?.[0] ?? null;
      },
      oneStartAtATime: async (step) => {
        const client = await pool.connect();
        try {
          await client.query(`select pg_advisory_lock(x'${STARTING_LOCK_KEY}'::bigint)`);
          return await step();
        } finally {
          // Released with the connection: destroyed rather than returned to the pool with the lock.
          client.release(true);
        }
      },
      holdExclusive: async ({ waitMs = 15_000, onRegained } = {}) => {
        await lock.take(waitMs, onRegained);
      },
    };
  }
  let unlock = () => {};
  if (options.pgliteDir) {
    mkdirSync(options.pgliteDir, { recursive: true });
    // One process per folder: PGlite does not lock it itself, and two would corrupt it (folder-lock.ts).
    unlock = lockFolder(`${options.pgliteDir}.lock`);
  }
  // PGlite runs in a thread of its own, off the HTTP server's thread (pglite-thread.ts says why); drizzle's
  // PGlite driver only calls query, exec and transaction, which the threaded client provides.
  const client = new ThreadedPGlite({
    dataDir: options.pgliteDir,
    image: options.pgliteImage,
    onFailure: options.onFailure,
  });
  try {
    await client.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
    executePrepared: (statement, values) => client.executePrepared(statement, values),
    // The folder lock (taken above for a folder) keeps it to one process; in memory it is this process's own.
    holdExclusive: async () => {},
    oneStartAtATime: (step) => step(),
    databaseThreadUtilization: (previous) => client.eventLoopUtilization(previous),
    dumpImage: () => client.dumpDataDir(),
    databaseOsThreadId: client.osThreadId,
  };
}

/** Applies pending migrations; safe to run at every start. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  if (handle.kind === 'postgres') {
    await migratePg(handle.db as unknown as Parameters<typeof migratePg>[0], config);
  } else {
    await migratePglite(handle.db as unknown as Parameters<typeof migratePglite>[0], config);
  }
}
