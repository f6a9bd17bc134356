import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/client.ts';
import { maintainEmbeddedDatabase } from '../src/maintenance.ts';

describe('the embedded database vacuum', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase();
    await handle.db.execute(sql`create table counters (id integer primary key, n integer not null)`);
    await handle.db.execute(sql`insert into counters values (1, 0)`);
  }, 60_000);
  afterAll(() => handle.close());

  it('freezes the rows once the oldest unfrozen transaction is old enough, and keeps them', async () => {
    // 1,500 write transactions, as 1,500 batches of counted events would be.
    for (let index = 0; index < 1_500; index++) {
      await handle.db.execute(sql`update counters set n = n + 1 where id = 1`);
    }
    const early = await maintainEmbeddedDatabase(handle, 10_000);
    expect(early).toMatchObject({ vacuumed: false });
    expect(early!.ageBefore).toBeGreaterThanOrEqual(1_500);

    const done = await maintainEmbeddedDatabase(handle, 1_000);
    expect(done).toMatchObject({ vacuumed: true });
    expect(done!.ageBefore).toBeGreaterThanOrEqual(1_500);
    expect(done!.ageAfter).toBeLessThan(100);
    const result = await handle.db.execute(sql`select n from counters where id = 1`);
    const { rows } = result as unknown as { rows: Array<{ n: number }> };
    expect(rows[0]?.n).toBe(1_500);
  });

  it('leaves a PostgreSQL server to its own autovacuum', async () => {
    const server = { ...handle, kind: 'postgres' as const };
    expect(await maintainEmbeddedDatabase(server, 0)).toBeNull();
  });
});

describe('the embedded database write-ahead log', () => {
  const folder = mkdtempSync(join(tmpdir(), 'helium-wal-'));
  const pgliteDir = join(folder, 'db');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const walMegabytes = () =>
    readdirSync(join(pgliteDir, 'pg_wal'))
      .map((name) => statSync(join(pgliteDir, 'pg_wal', name)))
      .filter((entry) => entry.isFile())
      .reduce((total, entry) => total + entry.size, 0) /
    2 ** 20;

  it('stops growing once checkpoints run: without them PGlite never recycles it', async () => {
    const handle = await openDatabase({ pgliteDir });
    try {
      await handle.db.execute(sql`create table events (id integer, body text)`);
      const writeRound = () =>
        handle.db.execute(sql`insert into events select g, repeat('x', 100) from generate_series(1, 200000) g`);
      // Each round writes about 30 MB of log.
      await writeRound();
      const oneRound = walMegabytes();
      await writeRound();
      expect(walMegabytes()).toBeGreaterThan(oneRound * 1.5);
      for (let round = 0; round < 4; round++) {
        await maintainEmbeddedDatabase(handle);
        await writeRound();
      }
      // Six rounds written: the log holds about two, its recycled segments included.
      expect(walMegabytes()).toBeLessThan(oneRound * 2.5);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
