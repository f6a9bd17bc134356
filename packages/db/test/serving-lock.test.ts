import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseInUseError, openDatabase, type DatabaseHandle } from '../src/client.ts';
import { createThrowAwayDatabase, type ThrowAwayDatabase } from '../src/throw-away-database.ts';

/*
 * One server per PostgreSQL database (DatabaseHandle.holdExclusive): the ad server checks credits in memory, so
 * a second process would spend them again. Needs a PostgreSQL server (TEST_DATABASE_URL, as CI sets when one
 * runs); the embedded database's equivalent is its folder lock (folder-lock.test.ts).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
let throwAway: ThrowAwayDatabase | undefined;
let url = '';
const opened: DatabaseHandle[] = [];
const children: ChildProcess[] = [];

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function open(onFailure?: (error: Error) => void) {
  const handle = await openDatabase({ url, onFailure });
  opened.push(handle);
  return handle;
}

describe.runIf(adminUrl)('the serving lock on PostgreSQL', () => {
  beforeAll(async () => {
    throwAway = await createThrowAwayDatabase(adminUrl!, { prefix: 'helium_lock' });
    url = throwAway.url;
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const handle of opened.splice(0)) await handle.close().catch(() => {});
  });
  afterAll(async () => {
    await throwAway?.drop();
  });

  it('refuses a second server until the first closes', async () => {
    const first = await open();
    await first.holdExclusive();
    const second = await open();
    const started = Date.now();
    await expect(second.holdExclusive({ waitMs: 600 })).rejects.toBeInstanceOf(DatabaseInUseError);
    // It waited for the first to stop before giving up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    // The refused one still works as a database handle (its connection given back).
    await second.ping();
    await first.close();
    await second.holdExclusive({ waitMs: 2000 });
  });

  it('a server stopped while it waits for the lock stops, without taking it', async () => {
    const first = await open();
    await first.holdExclusive();
    const second = await open();
    const waiting = second.holdExclusive({ waitMs: 10_000 });
    waiting.catch(() => {});
    // Both stop: the second may see the lock free on its next try, and must not keep it.
    const closed = Promise.all([first.close(), second.close()]);
    await expect(waiting).rejects.toThrow(/closed while waiting/);
    await closed;
    const third = await open();
    await third.holdExclusive({ waitMs: 0 });
  });

  it('is freed when the server holding it is killed with SIGKILL', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures/hold-serving-lock.ts'), url],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('locked')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
    });
    const next = await open();
    await expect(next.holdExclusive({ waitMs: 300 })).rejects.toBeInstanceOf(DatabaseInUseError);
    child.kill('SIGKILL');
    await next.holdExclusive({ waitMs: 5000 });
  });

  /** Ends the connection holding the lock, as a restart of PostgreSQL does. */
  async function terminateLockHolder() {
    await admin((client) =>
      client.query(
        `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = $1)`,
        [throwAway!.name],
      ),
    );
  }

  it('takes it again when the connection holding it is lost (a restart), and says so', async () => {
    const failures: Error[] = [];
    const server = await open((error) => failures.push(error));
    let regained = 0;
    await server.holdExclusive({ onRegained: () => (regained += 1) });
    await terminateLockHolder();
    await expect.poll(() => regained, { timeout: 5000 }).toBe(1);
    expect(failures).toEqual([]);
    // Held again: another server still cannot take it.
    const other = await open();
    await expect(other.holdExclusive({ waitMs: 300 })).rejects.toBeInstanceOf(DatabaseInUseError);
  });

  it('tells the server to stop when another took it while its connection was lost', async () => {
    const failures: Error[] = [];
    const server = await open((error) => failures.push(error));
    await server.holdExclusive();
    const taker = new pg.Client({ connectionString: url });
    await taker.connect();
    try {
      // The lock is taken by the other session in the same instant the first one's connection ends.
      const taking = taker.query(`select pg_advisory_lock(x'4841494c49554d31'::bigint)`);
      await terminateLockHolder();
      await taking;
      await expect.poll(() => failures.length, { timeout: 5000 }).toBe(1);
      expect(failures[0]).toBeInstanceOf(DatabaseInUseError);
    } finally {
      await taker.end();
    }
  });
});
