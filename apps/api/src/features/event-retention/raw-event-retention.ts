import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  adClicks,
  adDecisions,
  adImpressions,
  adLeads,
  invalidTraffic,
  pageviews,
  realtimeCounters,
  type Database,
} from '@helium/db';
import { HOUR_MS, isoDay } from '@helium/domain';
import { retentionCutoffs, type RetentionCutoffs } from '@helium/domain/retention';

export const RAW_EVENT_RETENTION_JOB = 'raw-event-retention';
/** The job looks every hour; a day's rows become old once a day, soon after midnight UTC. */
export const RAW_EVENT_RETENTION_EVERY_MS = HOUR_MS;
/**
 * Rows deleted per statement: a few tens of milliseconds each, so that the delivery batches queued meanwhile (on
 * the embedded database, which runs one statement at a time) wait no longer than that.
 */
export const RETENTION_CHUNK_ROWS = 1_000;

/** Each pruned table, with the column its age is read from and the retention that applies to it. */
const PRUNED: ReadonlyArray<{ table: PgTable; createdAt: PgColumn; keptFrom: keyof RetentionCutoffs }> = [
  { table: pageviews, createdAt: pageviews.createdAt, keptFrom: 'events' },
  { table: adDecisions, createdAt: adDecisions.createdAt, keptFrom: 'events' },
  { table: adImpressions, createdAt: adImpressions.createdAt, keptFrom: 'events' },
  { table: adClicks, createdAt: adClicks.createdAt, keptFrom: 'events' },
  { table: adLeads, createdAt: adLeads.createdAt, keptFrom: 'events' },
  { table: invalidTraffic, createdAt: invalidTraffic.createdAt, keptFrom: 'invalidTraffic' },
  { table: realtimeCounters, createdAt: realtimeCounters.minute, keptFrom: 'realtimeCounters' },
];

export type PrunedRows = Record<string, number>;

/** One chunk: at most `limit` rows older than `before`, found by the table's index on its age, by their row id. */
function deleteChunk(table: PgTable, createdAt: PgColumn, before: string, limit: number): SQL {
  return sql`
    with gone as (
      delete from ${table} where ctid = any(array(
        select ctid from ${table} where ${createdAt} < ${before}::timestamptz limit ${limit}
      ))
      returning 1
    )
    select count(*)::int as deleted from gone`;
}

/**
 * Deletes raw event rows older than their retention (packages/domain/src/retention.ts), table by table, in
 * chunks of `chunkRows`, each its own statement and transaction: no table is locked for long, and the delivery
 * batches' inserts (of today's rows) never wait for a whole day's deletion. The daily summaries, ledgers and
 * sales are never touched. Stops between two chunks when `signal` is aborted (the next run goes on).
 * Answers how many rows went from each table.
 */
export async function pruneRawEvents(
  db: Database,
  options: { now: Date; rawEventDays: number; chunkRows?: number; signal?: AbortSignal },
): Promise<PrunedRows> {
  const cutoffs = retentionCutoffs(isoDay(options.now), options.rawEventDays);
  const chunkRows = options.chunkRows ?? RETENTION_CHUNK_ROWS;
  const pruned: PrunedRows = {};
  for (const { table, createdAt, keptFrom } of PRUNED) {
    const name = getTableName(table);
    pruned[name] = 0;
    for (;;) {
      if (options.signal?.aborted) return pruned;
      const result = (await db.execute(
        deleteChunk(table, createdAt, `${cutoffs[keptFrom]}T00:00:00Z`, chunkRows),
      )) as unknown as { rows: Array<{ deleted: number }> };
      const deleted = Number(result.rows[0]?.deleted ?? 0);
      pruned[name] += deleted;
      if (deleted < chunkRows) break;
    }
  }
  return pruned;
}
