import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from './client.ts';

/** Freeze once the oldest unfrozen transaction id is this old (PostgreSQL's autovacuum waits for 200 million). */
export const FREEZE_AFTER_TRANSACTIONS = 1_000_000;

export interface MaintenanceResult {
  /** Transactions since the database's oldest unfrozen one, before and after. */
  ageBefore: number;
  ageAfter: number;
  vacuumed: boolean;
  checkpointMs: number;
  ms: number;
}

const databaseAge = async (handle: DatabaseHandle) => {
  const result = await handle.db.execute(
    sql`select age(datfrozenxid)::int as age from pg_database where datname = current_database()`,
  );
  // Both drivers (node-postgres and PGlite) answer `{ rows }`.
  const { rows } = result as unknown as { rows: Array<{ age: number }> };
  return Number(rows[0]?.age ?? 0);
};

/**
 * The embedded database's upkeep, which a PostgreSQL server's own background processes do (there this does
 * nothing). PGlite runs PostgreSQL in single-user mode, without them:
 * - no checkpointer: the write-ahead log is never recycled and grows with every write (measured: 334 MB of
 *   `pg_wal` for 780,000 counted events, never released) until the disk is full. A `CHECKPOINT` lets it
 *   reuse its old segments (the same load then kept 167 MB);
 * - no autovacuum, and no stop before transaction ids wrap around: every batch of counted events is a
 *   transaction, and after about two billion of them rows written long before would seem to come from the
 *   future and vanish. `VACUUM (FREEZE)` freezes them once the oldest unfrozen transaction is `after`
 *   transactions old, and clears the dead rows that the summaries' and credits' updates leave. Each run
 *   only reads the pages written or changed since the last (the others are marked all-frozen).
 */
export async function maintainEmbeddedDatabase(
  handle: DatabaseHandle,
  after = FREEZE_AFTER_TRANSACTIONS,
): Promise<MaintenanceResult | null> {
  if (handle.kind !== 'pglite') return null;
  const started = performance.now();
  const ageBefore = await databaseAge(handle);
  const vacuumed = ageBefore >= after;
  if (vacuumed) await handle.db.execute(sql`vacuum (freeze)`);
  const ageAfter = vacuumed ? await databaseAge(handle) : ageBefore;
  // After the vacuum, whose own log records it then makes recyclable too.
  const checkpointStarted = performance.now();
  await handle.db.execute(sql`checkpoint`);
  const ms = (since: number) => Math.round(performance.now() - since);
  return { ageBefore, ageAfter, vacuumed, checkpointMs: ms(checkpointStarted), ms: ms(started) };
}
