import { sql } from 'drizzle-orm';
import { dailyAdStats, ledgerEntries, type Database } from '@helium/db';
import { utcDay } from '../delivery/visitor.ts';
import type { Clock } from '../../infra/clock.ts';

export const DAILY_LEDGER_JOB = 'daily-revenue-ledger';
/** How often the scheduler looks for a newly closed day (it does the work once per day). */
export const DAILY_LEDGER_EVERY_MS = 5 * 60_000;
/** A UTC day is closed this long after its midnight, so a batch of events in flight at midnight is written. */
export const DAY_CLOSE_GRACE_MS = 5 * 60_000;

/**
 * The publishers' daily revenue (docs/decisions.md section 6: the balance is the sum of the ledger): one `revenue`
 * entry per publisher per closed UTC day, the sum of that day's `daily_ad_stats.publisher_revenue` and
 * validated impressions. Idempotent: the unique index on (account, day) of revenue entries makes a second
 * run, or a second process, post nothing; every closed day not yet posted is posted (missed days at start).
 */
export class DailyRevenueLedger {
  /** Days before this one are posted (by this process); until the next day closes there is nothing to do. */
  private postedBefore: string | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The first day not closed yet: days before it are final. */
  closedBefore(now: Date = this.clock.now()): string {
    return utcDay(new Date(now.getTime() - DAY_CLOSE_GRACE_MS));
  }

  /** Posts every closed day's revenue entries not posted yet; answers how many entries were written. */
  async run(): Promise<{ posted: number; closedBefore: string }> {
    const now = this.clock.now();
    const closedBefore = this.closedBefore(now);
    if (this.postedBefore === closedBefore) return { posted: 0, closedBefore };
    const result = (await this.db.execute(sql`
      insert into ${ledgerEntries} (account_type, account_id, kind, amount, day, impressions, created_at)
      select 'publisher', s.publisher_id, 'revenue', sum(s.publisher_revenue), s.day, sum(s.impressions),
        ${now.toISOString()}::timestamptz
      from ${dailyAdStats} s
      where s.day < ${closedBefore}::date
        and not exists (
          select 1 from ${ledgerEntries} l
          where l.account_type = 'publisher' and l.kind = 'revenue' and l.account_id = s.publisher_id and l.day = s.day
        )
      group by s.publisher_id, s.day
      having sum(s.publisher_revenue) <> 0 or sum(s.impressions) > 0
      on conflict (account_type, account_id, day) where kind = 'revenue' do nothing
      returning id`)) as unknown as { rows: unknown[] };
    const inserted = result.rows;
    this.postedBefore = closedBefore;
    return { posted: inserted.length, closedBefore };
  }
}
