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
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ n: number }>;
    expect(rows[0]?.n).toBe(1_500);
  });

  it('leaves a PostgreSQL server to its own autovacuum', async () => {
    const server = { ...handle, kind: 'postgres' as const };
    expect(await maintainEmbeddedDatabase(server, 0)).toBeNull();
  });
});
