import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstWireProblem, isPaypalEmail, type WireDetails } from '@helium/domain/payout-details';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../src/client.ts';
import { ledgerEntries, networkSettings, payoutMethods, payouts, publishers } from '../src/schema/index.ts';
import { seedDemoData } from '../src/seed/index.ts';
import { HISTORY_DAYS } from '../src/seed/history.ts';

/*
 * The demo's money out (seed/payouts.ts): Demo Blog has its 30 days of revenue in the ledger, one paid payout and a
 * balance above the minimum for a payout, with PayPal and a bank transfer set up; La Lettre Tech is below the
 * minimum, PayPal allowed and nothing set up; every closed day of the history is posted as the daily revenue
 * ledger would post it, so that job adds nothing. On the embedded database, and on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const drivers = [
  { name: 'PGlite', url: null as string | null },
  ...(adminUrl ? [{ name: 'PostgreSQL', url: adminUrl }] : []),
];

describe.each(drivers)('the demo payouts on $name', ({ url: serverUrl }) => {
  let handle: DatabaseHandle;
  let databaseName: string | null = null;
  let blog: number;
  let letter: number;
  let minimum: number;

  async function rows<Row>(statement: ReturnType<typeof sql>): Promise<Row[]> {
    return ((await handle.db.execute(statement)) as unknown as { rows: Row[] }).rows;
  }

  async function balanceOf(publisher: number, kind?: 'revenue'): Promise<number> {
    const [row] = await handle.db
      .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.accountType, 'publisher'),
          eq(ledgerEntries.accountId, publisher),
          kind ? eq(ledgerEntries.kind, kind) : undefined,
        ),
      );
    return Number(row!.total);
  }

  beforeAll(async () => {
    if (serverUrl) {
      databaseName = `helium_demo_payouts_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${databaseName}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${databaseName}`;
      handle = await openDatabase({ url: url.toString() });
    } else {
      handle = await openDatabase();
    }
    await migrateDatabase(handle);
    await seedDemoData(handle.db);
    const byBrand = new Map((await handle.db.select().from(publishers)).map((row) => [row.brand, row]));
    blog = byBrand.get('Demo Blog')!.id;
    letter = byBrand.get('La Lettre Tech')!.id;
    const [settings] = await handle.db.select().from(networkSettings);
    minimum = settings!.minBalanceForPayout;
    expect(byBrand.get('Demo Blog')!.minBalanceForPayout).toBeNull();
    expect(byBrand.get('La Lettre Tech')!.minBalanceForPayout).toBeNull();
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    if (serverUrl && databaseName) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  });

  it('posts every closed day of the history as the daily revenue ledger would: the job finds nothing to post', async () => {
    const today = new Date().toISOString().slice(0, 10);
    // The daily revenue ledger's query (apps/api/src/features/revenue-ledger/daily-ledger.ts), without the insert.
    const unposted = await rows(sql`
      select s.publisher_id, s.day from daily_ad_stats s
      where s.day < ${today}::date
        and not exists (
          select 1 from ledger_entries l
          where l.account_type = 'publisher' and l.kind = 'revenue' and l.account_id = s.publisher_id and l.day = s.day
        )
      group by s.publisher_id, s.day
      having sum(s.publisher_revenue) <> 0 or sum(s.impressions) > 0`);
    expect(unposted).toEqual([]);
    // Each entry is its day's sums, to the micro-euro; one per publisher and day.
    const mismatches = await rows(sql`
      select l.account_id, l.day from ledger_entries l
      left join (
        select publisher_id, day, sum(publisher_revenue) as revenue, sum(impressions) as impressions
        from daily_ad_stats group by publisher_id, day
      ) s on s.publisher_id = l.account_id and s.day = l.day
      where l.kind = 'revenue'
        and (s.revenue is null or l.amount <> s.revenue or l.impressions <> s.impressions)`);
    expect(mismatches).toEqual([]);
    const twice = await rows(sql`
      select account_id, day from ledger_entries where kind = 'revenue' group by account_id, day having count(*) > 1`);
    expect(twice).toEqual([]);
  });

  it('gives Demo Blog 30 days of revenue, one paid payout of its whole balance, and a balance above the minimum', async () => {
    const revenue = await handle.db
      .select({ day: ledgerEntries.day, amount: ledgerEntries.amount, createdAt: ledgerEntries.createdAt })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.accountType, 'publisher'),
          eq(ledgerEntries.accountId, blog),
          eq(ledgerEntries.kind, 'revenue'),
        ),
      )
      .orderBy(asc(ledgerEntries.day));
    expect(revenue).toHaveLength(HISTORY_DAYS);
    expect(revenue.every((entry) => entry.amount > 0)).toBe(true);
    // Posted at 00:05 UTC the day after (the latest, never later than now).
    expect(revenue[0]!.createdAt.toISOString()).toBe(
      new Date(Date.parse(`${revenue[0]!.day}T00:05:00Z`) + 86_400_000).toISOString(),
    );
    expect(revenue.at(-1)!.createdAt.getTime()).toBeLessThanOrEqual(Date.now());

    const [payout, ...others] = await handle.db.select().from(payouts).where(eq(payouts.publisherId, blog));
    expect(others).toEqual([]);
    expect(payout).toMatchObject({ state: 'paid', method: 'paypal', currency: 'eur' });
    expect(payout!.reference).toBeTruthy();
    expect(payout!.decidedAt!.getTime()).toBeGreaterThan(payout!.createdAt.getTime());
    expect(payout!.details).toEqual({ email: 'julien.martin@demo.test' });
    expect(payout!.amount).toBeGreaterThanOrEqual(minimum);
    expect(payout!.amountInCurrency).toBe(payout!.amount - payout!.transferFee);
    expect(payout!.transferFee).toBeGreaterThan(0);
    const [debit] = await handle.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, payout!.ledgerEntryId!));
    expect(debit).toMatchObject({ accountType: 'publisher', accountId: blog, kind: 'payout', amount: -payout!.amount });
    expect(debit!.note).toBe(`payout ${payout!.id} by paypal in EUR`);
    // More than 10 days ago, and the whole balance of that time: the balance just after it is 0.
    expect(Date.now() - payout!.createdAt.getTime()).toBeGreaterThan(10 * 86_400_000);
    const [after] = await rows<{ balance: string }>(sql`
      select sum(amount) as balance from ledger_entries
      where account_type = 'publisher' and account_id = ${blog}
        and (created_at, id) <= (${debit!.createdAt.toISOString()}::timestamptz, ${debit!.id})`);
    expect(Number(after!.balance)).toBe(0);

    // The balance is the revenue since the payout, all of it revenue of the history, above the minimum.
    const balance = await balanceOf(blog);
    expect(balance).toBe(await balanceOf(blog, 'revenue'));
    expect(revenue.every((entry) => entry.createdAt > payout!.decidedAt!)).toBe(true);
    expect(balance).toBeGreaterThan(minimum);
  });

  it('lets Demo Blog be paid by PayPal, bank transfer or Bitcoin, with PayPal and the bank transfer set up', async () => {
    const [row] = await handle.db.select().from(publishers).where(eq(publishers.id, blog));
    expect(row!.authorizedPayoutMethods).toEqual(['paypal', 'wire', 'bitcoin']);
    const methods = await handle.db
      .select()
      .from(payoutMethods)
      .where(eq(payoutMethods.publisherId, blog))
      .orderBy(asc(payoutMethods.method));
    expect(methods.map((method) => method.method)).toEqual(['paypal', 'wire']);
    const paypal = methods[0]!.details as { email: string };
    expect(isPaypalEmail(paypal.email)).toBe(true);
    const wire = methods[1]!.details as WireDetails;
    expect(Object.keys(wire).sort()).toEqual(
      ['bankName', 'bic', 'iban', 'userAddress', 'userName', 'userPhoneNumber'].sort(),
    );
    expect(firstWireProblem(wire)).toBeNull();
  });

  it('leaves La Lettre Tech below the minimum, PayPal allowed and nothing set up', async () => {
    const [row] = await handle.db.select().from(publishers).where(eq(publishers.id, letter));
    expect(row!.authorizedPayoutMethods).toEqual(['paypal']);
    expect(await handle.db.select().from(payoutMethods).where(eq(payoutMethods.publisherId, letter))).toEqual([]);
    expect(await handle.db.select().from(payouts).where(eq(payouts.publisherId, letter))).toEqual([]);
    const balance = await balanceOf(letter);
    expect(balance).toBe(await balanceOf(letter, 'revenue'));
    expect(balance).toBeGreaterThan(0);
    expect(balance).toBeLessThan(minimum);
  });
});
