import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@helium/db';
import {
  MONEY_AUDIT_MAX_ROWS,
  type MoneyAuditCheckName,
  type TMoneyAuditCheck,
  type TMoneyAuditRow,
} from '@helium/contracts';
import { creditMismatches } from '../billing/credits-ledger.ts';

/*
 * The money's invariants (issue 32; docs/admin.md "Money audit"), one query per rule over the whole history. Each
 * query answers the rows that break its rule, at most MONEY_AUDIT_MAX_ROWS of them, each with `total_count`, how
 * many broke it. An empty answer is a kept promise. Amounts are micro-euros.
 */

type Executor = Pick<Database, 'execute'>;

/** A sale's entries in the advertiser's ledger are found by their note, as the billing code writes it (sales.ts). */
const SALE_NOTE = sql`s.method || ' sale ' || s.id`;
/** A ledger entry of sale `s` (its note, or its note and what happened: "invoice sale 6 paid after cancellation"). */
const OF_SALE = sql`(l.note = ${SALE_NOTE} OR l.note LIKE ${SALE_NOTE} || ' %')`;

const QUERIES: Record<Exclude<MoneyAuditCheckName, 'campaignCredits'>, SQL> = {
  // Per UTC day of the summaries: charged (cost, plus the trial cost the company carries) = the three shares. Each
  // row balances when the day does (every event is split exactly): a scan for unbalanced rows finds the days to sum,
  // instead of summing a year of rows by day.
  dailyRevenueSplit: sql`
    SELECT day::text AS day, sum(cost)::bigint AS cost, sum(trial_cost)::bigint AS "trialCost",
      sum(publisher_revenue)::bigint AS publisher, sum(sales_rep_revenue)::bigint AS "salesRep",
      sum(company_revenue)::bigint AS company,
      (sum(cost + trial_cost) - sum(publisher_revenue + sales_rep_revenue + company_revenue))::bigint AS difference,
      count(*) OVER () AS total_count
    FROM daily_ad_stats
    WHERE day IN (
      SELECT DISTINCT day FROM daily_ad_stats
      WHERE cost + trial_cost <> publisher_revenue + sales_rep_revenue + company_revenue
    )
    GROUP BY day
    HAVING sum(cost + trial_cost) <> sum(publisher_revenue + sales_rep_revenue + company_revenue)
    ORDER BY day`,

  // The daily ledger posts every closed day at once (daily-ledger.ts): up to the last day it posted, each publisher
  // and day with revenue or impressions has one revenue entry of that revenue, and no entry has nothing behind it.
  // Days are compared first by their totals and a sum weighted by the publisher's id (money moved from one publisher
  // to another changes it); only the days that differ are compared publisher by publisher, which a year of history
  // would make slow.
  publisherRevenuePosted: sql`
    WITH posted_days AS (
      SELECT day, sum(amount) AS amount, sum(impressions) AS impressions, sum(amount::numeric * account_id) AS weighted
      FROM ledger_entries WHERE account_type = 'publisher' AND kind = 'revenue'
      GROUP BY day
    ), earned_days AS (
      SELECT day, sum(publisher_revenue) AS amount, sum(impressions) AS impressions,
        sum(publisher_revenue::numeric * publisher_id) AS weighted
      FROM daily_ad_stats WHERE day <= (SELECT max(day) FROM posted_days)
      GROUP BY day
    ), suspect_days AS (
      SELECT coalesce(p.day, e.day) AS day
      FROM posted_days p FULL JOIN earned_days e ON e.day = p.day
      WHERE p.amount IS DISTINCT FROM e.amount OR p.impressions IS DISTINCT FROM e.impressions
        OR p.weighted IS DISTINCT FROM e.weighted
    ), posted AS (
      SELECT account_id AS publisher_id, day, sum(amount) AS amount, sum(impressions) AS impressions, count(*) AS entries
      FROM ledger_entries
      WHERE account_type = 'publisher' AND kind = 'revenue' AND day IN (SELECT day FROM suspect_days)
      GROUP BY account_id, day
    ), earned AS (
      SELECT publisher_id, day, sum(publisher_revenue) AS revenue, sum(impressions) AS impressions
      FROM daily_ad_stats WHERE day IN (SELECT day FROM suspect_days)
      GROUP BY publisher_id, day
      HAVING sum(publisher_revenue) <> 0 OR sum(impressions) > 0
    )
    SELECT coalesce(p.publisher_id, e.publisher_id) AS "publisherId", coalesce(p.day, e.day)::text AS day,
      coalesce(p.amount, 0)::bigint AS posted, coalesce(e.revenue, 0)::bigint AS earned,
      coalesce(p.impressions, 0)::bigint AS "postedImpressions", coalesce(e.impressions, 0)::bigint AS impressions,
      coalesce(p.entries, 0)::int AS entries,
      count(*) OVER () AS total_count
    FROM posted p FULL JOIN earned e ON e.publisher_id = p.publisher_id AND e.day = p.day
    WHERE p.publisher_id IS NULL OR e.publisher_id IS NULL OR p.entries <> 1
      OR p.amount <> e.revenue OR p.impressions <> e.impressions
    ORDER BY 2, 1`,

  // The balance the database keeps (ledger_balances) = the sum of the account's entries, for every account.
  ledgerBalances: sql`
    SELECT coalesce(b.account_type, l.account_type) AS "accountType", coalesce(b.account_id, l.account_id) AS "accountId",
      b.balance::bigint AS stored, l.total::bigint AS ledger,
      count(*) OVER () AS total_count
    FROM ledger_balances b
    FULL JOIN (
      SELECT account_type, account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_type, account_id
    ) l ON l.account_type = b.account_type AND l.account_id = b.account_id
    WHERE b.balance IS DISTINCT FROM l.total
    ORDER BY 1, 2`,

  // A paid sale and an unpaid invoice (credited when issued) are credited once, for their quantity, and charged once,
  // for their amount: one purchase entry of each, and whatever was taken back since given back (a sale cancelled and
  // then paid late: a cancellation and a reinstatement of credits, a reversal and a new purchase of money); a pending
  // sale has none yet.
  salesCreditedOnce: sql`
    WITH credits AS (
      SELECT sale_id, count(*) FILTER (WHERE kind = 'purchase') AS purchases,
        coalesce(sum(impressions + clicks), 0) AS credited,
        count(*) FILTER (WHERE kind = 'cancellation') AS cancellations,
        count(*) FILTER (WHERE kind = 'reinstatement') AS reinstatements
      FROM campaign_credits WHERE sale_id IS NOT NULL GROUP BY sale_id
    ), sold AS (
      SELECT s.id, s.state, s.method, s.quantity, s.amount,
        coalesce(c.purchases, 0) AS purchases, coalesce(c.credited, 0) AS credited,
        coalesce(c.cancellations, 0) AS cancellations, coalesce(c.reinstatements, 0) AS reinstatements,
        (SELECT count(*) FROM ledger_entries l WHERE l.account_type = 'advertiser' AND l.account_id = s.advertiser_id
          AND l.kind = 'purchase' AND ${OF_SALE})
        - (SELECT count(*) FROM ledger_entries r JOIN ledger_entries l ON l.id = r.reverses_id
          WHERE r.kind = 'reversal' AND l.account_type = 'advertiser' AND l.account_id = s.advertiser_id
            AND l.kind = 'purchase' AND ${OF_SALE}) AS charges,
        (SELECT coalesce(sum(l.amount), 0) FROM ledger_entries l WHERE l.account_type = 'advertiser'
          AND l.account_id = s.advertiser_id AND l.kind = 'purchase' AND ${OF_SALE})
        + (SELECT coalesce(sum(r.amount), 0) FROM ledger_entries r JOIN ledger_entries l ON l.id = r.reverses_id
          WHERE r.kind = 'reversal' AND l.account_type = 'advertiser' AND l.account_id = s.advertiser_id
            AND l.kind = 'purchase' AND ${OF_SALE}) AS charged
      FROM sales s LEFT JOIN credits c ON c.sale_id = s.id
      WHERE s.state <> 'cancelled'
    )
    SELECT id AS "saleId", state, method, quantity::bigint AS quantity, purchases::int AS "creditEntries",
      credited::bigint AS credited, cancellations::int AS "cancellationEntries",
      reinstatements::int AS "reinstatementEntries", amount::bigint AS amount, charges::int AS "ledgerEntries",
      charged::bigint AS charged, count(*) OVER () AS total_count
    FROM sold
    WHERE CASE WHEN state = 'pending' THEN purchases <> 0 OR charges <> 0
      ELSE purchases <> 1 OR cancellations <> reinstatements OR credited <> quantity OR charges <> 1
        OR charged <> amount END
    ORDER BY id`,

  // A cancelled sale that was credited has each entry reversed: a cancellation of credits for its purchase entry,
  // and a reversal (reverses_id) for each purchase entry of money.
  cancelledSalesReversed: sql`
    WITH credits AS (
      SELECT sale_id, count(*) FILTER (WHERE kind = 'purchase') AS purchases,
        count(*) FILTER (WHERE kind = 'cancellation') AS cancellations
      FROM campaign_credits WHERE sale_id IS NOT NULL GROUP BY sale_id
    ), cancelled AS (
      SELECT s.id, s.method, coalesce(c.purchases, 0) AS purchases, coalesce(c.cancellations, 0) AS cancellations,
        (SELECT count(*) FROM ledger_entries l WHERE l.account_type = 'advertiser' AND l.account_id = s.advertiser_id
          AND l.kind = 'purchase' AND ${OF_SALE}) AS charges,
        (SELECT count(*) FROM ledger_entries r JOIN ledger_entries l ON l.id = r.reverses_id
          WHERE r.kind = 'reversal' AND l.account_type = 'advertiser' AND l.account_id = s.advertiser_id
            AND l.kind = 'purchase' AND ${OF_SALE}) AS reversals
      FROM sales s LEFT JOIN credits c ON c.sale_id = s.id
      WHERE s.state = 'cancelled'
    )
    SELECT id AS "saleId", method, purchases::int AS "creditEntries", cancellations::int AS "cancellationEntries",
      charges::int AS "ledgerEntries", reversals::int AS reversals,
      count(*) OVER () AS total_count
    FROM cancelled
    WHERE purchases <> cancellations OR charges <> reversals
    ORDER BY id`,

  // Written on the sales, not on how a coupon is claimed: per coupon and advertiser, one credited sale at most.
  couponOncePerAdvertiser: sql`
    SELECT s.coupon_id AS "couponId", min(c.code) AS code, s.advertiser_id AS "advertiserId",
      count(*)::int AS sales, string_agg(s.id::text, ', ' ORDER BY s.id) AS "saleIds",
      count(*) OVER () AS total_count
    FROM sales s JOIN coupons c ON c.id = s.coupon_id
    WHERE s.state IN ('paid', 'unpaid')
    GROUP BY s.coupon_id, s.advertiser_id
    HAVING count(*) > 1
    ORDER BY 1, 3`,
};

/** A value as JSON carries it: bigint text as a number (micro-euros stay exact below 2^53), dates as ISO text. */
function plainValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  return /^-?\d{1,15}$/.test(text) ? Number(text) : text;
}

async function offendingRows(db: Executor, query: SQL): Promise<{ count: number; rows: TMoneyAuditRow[] }> {
  const result = (await db.execute(sql`${query} LIMIT ${MONEY_AUDIT_MAX_ROWS}`)) as unknown as {
    rows: Array<Record<string, unknown>>;
  };
  const count = result.rows.length > 0 ? Number(result.rows[0]!.total_count) : 0;
  const rows = result.rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([key]) => key !== 'total_count')
        .map(([key, value]) => [key, plainValue(value)]),
    ),
  );
  return { count, rows };
}

/** Runs one check: its name, whether the invariant holds, and what breaks it. */
export async function runCheck(db: Executor, name: MoneyAuditCheckName): Promise<TMoneyAuditCheck> {
  if (name === 'campaignCredits') {
    // The billing feature's own query of this rule (credits-ledger.ts).
    const mismatches = await creditMismatches(db);
    return {
      name,
      ok: mismatches.length === 0,
      count: mismatches.length,
      rows: mismatches.slice(0, MONEY_AUDIT_MAX_ROWS),
    };
  }
  const { count, rows } = await offendingRows(db, QUERIES[name]);
  return { name, ok: count === 0, count, rows };
}
