import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from './client.ts';

/** Freeze once the oldest unfrozen transaction id is this old (PostgreSQL's autovacuum waits for 200 million). */
export const FREEZE_AFTER_TRANSACTIONS = 1_000_000;

export interface MaintenanceResult {
  /** Transactions since the database's oldest unfrozen one, before and after. */
  ageBefore: number;
  ageAfter: number;
  vacuumed: boolean;
  ms: number;
}

const databaseAge = async (handle: DatabaseHandle) => {
  const result = await handle.db.execute(
    sql`select age(datfrozenxid)::int as age from pg_database where datname = current_database()`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ age: number }>;
  return Number(rows[0]?.age ?? 0);
};

/**
 * The embedded database's vacuum. PGlite runs PostgreSQL in single-user mode, which has no autovacuum and
 * does not stop before transaction ids wrap around: every batch of counted events is a transaction, and
 * after about two billion of them rows written long before would seem to come from the future and
 * vanish. This freezes them, with `VACUUM (FREEZE)`, once the oldest unfrozen transaction is `after`
 * transactions old; it also clears the dead rows that the summaries' and credits' updates leave. Each run
 * only reads the pages written or changed since the last (the others are marked all-frozen), so it stays
 * short when run often. PostgreSQL's own autovacuum does this on a server: there it does nothing.
 */
export async function maintainEmbeddedDatabase(
  handle: DatabaseHandle,
  after = FREEZE_AFTER_TRANSACTIONS,
): Promise<MaintenanceResult | null> {
  if (handle.kind !== 'pglite') return null;
  const started = performance.now();
  const ageBefore = await databaseAge(handle);
  if (ageBefore < after) return { ageBefore, ageAfter: ageBefore, vacuumed: false, ms: 0 };
  await handle.db.execute(sql`vacuum (freeze)`);
  const ageAfter = await databaseAge(handle);
  return { ageBefore, ageAfter, vacuumed: true, ms: Math.round(performance.now() - started) };
}
