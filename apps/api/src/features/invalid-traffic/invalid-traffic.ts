import { sql } from 'drizzle-orm';
import { invalidTraffic, publishers, type Database } from '@helium/db';
import { DAY_MS, formatDate, isoDay, type Locale } from '@helium/domain';
import type { TInvalidTrafficRow } from '@helium/contracts';

/**
 * What the traffic rules set aside (invalid_traffic: filtered before counting, or set aside after), counted per
 * publisher, UTC day, reason and kind over the last `days` days. The table's (publisher_id, created_at) index
 * bounds the scan to the window.
 */
export async function invalidTrafficSummary(
  db: Database,
  options: { days: number; publisherId?: number; now: Date; locale: Locale },
): Promise<{ rows: TInvalidTrafficRow[]; total: number }> {
  const from = new Date(Date.parse(`${isoDay(options.now)}T00:00:00Z`) - (options.days - 1) * DAY_MS);
  const publisherFilter = options.publisherId === undefined ? sql`` : sql`and t.publisher_id = ${options.publisherId}`;
  const result = (await db.execute(sql`
    select to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, t.publisher_id as "publisherId",
      p.brand, t.reason, t.kind, count(*)::int as count
    from ${invalidTraffic} t
    left join ${publishers} p on p.id = t.publisher_id
    where t.created_at >= ${from.toISOString()}::timestamptz ${publisherFilter}
    group by 1, 2, 3, 4, 5
    order by 1 desc, 3 nulls last, 2, 6 desc, 4, 5`)) as unknown as {
    rows: Array<{
      day: string;
      publisherId: number | null;
      brand: string | null;
      reason: string;
      kind: string;
      count: number;
    }>;
  };
  const rows = result.rows.map((row) => ({
    day: row.day,
    dayStr: formatDate(`${row.day}T00:00:00Z`, options.locale),
    publisherId: row.publisherId === null ? null : Number(row.publisherId),
    brand: row.brand,
    reason: row.reason,
    kind: row.kind as TInvalidTrafficRow['kind'],
    count: Number(row.count),
  }));
  return { rows, total: rows.reduce((sum, row) => sum + row.count, 0) };
}
