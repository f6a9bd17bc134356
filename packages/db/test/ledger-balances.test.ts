import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, migrateDatabase, openDatabase, type DatabaseHandle } from '../src/client.ts';
import { createThrowAwayDatabase, type ThrowAwayDatabase } from '../src/throw-away-database.ts';

/*
 * The balances the database keeps (migration 0019_money_audit): on a database that already holds a ledger, the
 * migration fills `ledger_balances` with each account's sum; from then on every insert into `ledger_entries`, one
 * entry or many, concurrent or not, moves its account's balance in the same statement; the ledger refuses updates,
 * deletes and truncation. On the embedded database, and on PostgreSQL when TEST_DATABASE_URL is set.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const drivers = [
  { name: 'PGlite', url: null as string | null },
  ...(adminUrl ? [{ name: 'PostgreSQL', url: adminUrl }] : []),
];

/** A copy of the migrations folder holding those before this one: the database as the previous release left it. */
function migrationsBeforeBalances(): string {
  const folder = mkdtempSync(join(tmpdir(), 'helium-migrations-'));
  mkdirSync(join(folder, 'meta'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const cut = journal.entries.findIndex((entry) => entry.tag.endsWith('_money_audit'));
  expect(cut).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, cut);
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const { tag } of entries) copyFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
  return folder;
}

/** The database's reason for refusing a statement (drizzle wraps it in a "Failed query" error). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const messages: string[] = [];
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
    return messages.join(' / ');
  }
  return 'accepted';
}

describe.each(drivers)('ledger balances on $name', ({ url: serverUrl }) => {
  let handle: DatabaseHandle;
  let throwAway: ThrowAwayDatabase | undefined;

  async function rows<Row>(statement: ReturnType<typeof sql>): Promise<Row[]> {
    return ((await handle.db.execute(statement)) as unknown as { rows: Row[] }).rows;
  }

  /** Accounts whose kept balance is not the sum of their entries (either side missing counts). */
  async function mismatches() {
    return rows<{ account_type: string; account_id: number; stored: string | null; total: string | null }>(sql`
      select coalesce(b.account_type, l.account_type) as account_type, coalesce(b.account_id, l.account_id) as account_id,
        b.balance as stored, l.total
      from ledger_balances b
      full join (select account_type, account_id, sum(amount) as total from ledger_entries group by 1, 2) l
        on l.account_type = b.account_type and l.account_id = b.account_id
      where b.balance is distinct from l.total`);
  }

  async function balanceOf(accountType: string, accountId: number): Promise<number | null> {
    const [row] = await rows<{ balance: string }>(
      sql`select balance from ledger_balances where account_type = ${accountType} and account_id = ${accountId}`,
    );
    return row ? Number(row.balance) : null;
  }

  /**
   * A ledger written in plain SQL: the seed speaks today's schema, which has columns the previous release lacks.
   */
  async function seedPreviousLedger(): Promise<void> {
    const [owner] = await rows<{ id: number }>(
      sql`insert into users (name, email, current_type) values ('Owner', 'owner@example.com', 1) returning id`,
    );
    const publishers = await rows<{ id: number }>(sql`insert into publishers (user_id, brand)
      values (${owner!.id}, 'Demo Blog'), (${owner!.id}, 'Demo Letter') returning id`);
    const [blog, letter] = publishers.map((publisher) => publisher.id);
    await handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount, day)
      select 'publisher', account_id, 'revenue', 250000 + day_index, date '2030-01-01' + day_index
      from (values (${blog}::int), (${letter}::int)) as a(account_id), generate_series(0, 9) as day_index`);
    await handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount, note) values
      ('publisher', ${blog}, 'adjustment', 1000000, 'goodwill'),
      ('publisher', ${blog}, 'payout', -2000000, 'payout 1'),
      ('advertiser', 1, 'purchase', 50000000, 'sale 1'),
      ('advertiser', 1, 'spend', -1234567, null)`);
  }

  beforeAll(async () => {
    if (serverUrl) {
      throwAway = await createThrowAwayDatabase(serverUrl, { prefix: 'helium_balances' });
      handle = await openDatabase({ url: throwAway.url });
    } else {
      handle = await openDatabase();
    }
    // The previous release's schema with a ledger like the demo's (revenue days, an adjustment, a payout, purchases)...
    const before = migrationsBeforeBalances();
    try {
      const config = { migrationsFolder: before };
      if (handle.kind === 'postgres') await migratePg(handle.db as unknown as Parameters<typeof migratePg>[0], config);
      else await migratePglite(handle.db as unknown as Parameters<typeof migratePglite>[0], config);
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
    await seedPreviousLedger();
    // ...then this release's migrations.
    await migrateDatabase(handle);
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    await throwAway?.drop();
  });

  it('fills each account’s balance from the ledger already there', async () => {
    const [counts] = await rows<{ accounts: number; balances: number; publishers: number }>(sql`
      select (select count(*) from (select distinct account_type, account_id from ledger_entries) a)::int as accounts,
        (select count(*) from ledger_balances)::int as balances,
        (select count(*) from ledger_balances where account_type = 'publisher' and balance > 0)::int as publishers`);
    // The demo's publishers (revenue, the blog's payout) and its advertiser (purchases).
    expect(counts!.accounts).toBeGreaterThanOrEqual(3);
    expect(counts!.balances).toBe(counts!.accounts);
    expect(counts!.publishers).toBeGreaterThanOrEqual(2);
    expect(await mismatches()).toEqual([]);
  });

  it('moves a balance with each entry, one at a time or many in one statement, and starts a new account', async () => {
    const [blog] = await rows<{ id: number }>(sql`select id from publishers where brand = 'Demo Blog'`);
    const before = (await balanceOf('publisher', blog!.id))!;
    await handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount)
      values ('publisher', ${blog!.id}, 'adjustment', 1234567)`);
    expect(await balanceOf('publisher', blog!.id)).toBe(before + 1_234_567);

    // The daily ledger's way: one statement for many accounts and entries.
    await handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount, day)
      select 'publisher', account_id, 'revenue', 1000 * account_id + day_index, date '2031-01-01' + day_index
      from (values (${blog!.id}), (900001), (900002)) as a(account_id), generate_series(0, 4) as day_index`);
    expect(await balanceOf('publisher', blog!.id)).toBe(before + 1_234_567 + 5 * 1000 * blog!.id + 10);
    expect(await balanceOf('publisher', 900_001)).toBe(5 * 900_001_000 + 10);
    // An insert that inserts nothing (a day already posted) moves nothing.
    await handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount, day)
      values ('publisher', 900001, 'revenue', 5, date '2031-01-01')
      on conflict (account_type, account_id, day) where kind = 'revenue' do nothing`);
    expect(await balanceOf('publisher', 900_001)).toBe(5 * 900_001_000 + 10);
    // A statement that fails moves nothing either.
    await expect(
      handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount, day)
        values ('publisher', 900002, 'adjustment', 7, null), ('publisher', 900002, 'revenue', 7, date '2031-01-01')`),
    ).rejects.toThrow();
    expect(await balanceOf('publisher', 900_002)).toBe(5 * 900_002_000 + 10);
    expect(await mismatches()).toEqual([]);
  });

  it('keeps a balance exact under concurrent inserts into one account', async () => {
    const inserts = Array.from({ length: 40 }, (_, index) =>
      handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount)
        values ('publisher', 900003, 'adjustment', ${index % 2 === 0 ? 1000 + index : -(500 + index)})`),
    );
    // And two multi-account statements at once, the accounts in opposite orders.
    inserts.push(
      handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount)
        select 'publisher', id, 'adjustment', 11 from (values (900003), (900004)) as a(id)`),
      handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount)
        select 'publisher', id, 'adjustment', 13 from (values (900004), (900003)) as a(id)`),
    );
    await Promise.all(inserts);
    const expected = Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? 1000 + index : -(500 + index))).reduce(
      (sum, amount) => sum + amount,
      24,
    );
    expect(await balanceOf('publisher', 900_003)).toBe(expected);
    expect(await balanceOf('publisher', 900_004)).toBe(24);
    expect(await mismatches()).toEqual([]);
  });

  it('refuses to update, delete or truncate the ledger, and the balances stay its sums', async () => {
    const [entry] = await rows<{ id: number; amount: string }>(
      sql`select id, amount from ledger_entries order by id limit 1`,
    );
    for (const statement of [
      sql`update ledger_entries set amount = amount + 1 where id = ${entry!.id}`,
      sql`delete from ledger_entries where id = ${entry!.id}`,
      sql`truncate ledger_entries`,
    ]) {
      expect(await refusal(handle.db.execute(statement))).toMatch(/ledger_entries is append-only/);
    }
    const [after] = await rows<{ amount: string }>(sql`select amount from ledger_entries where id = ${entry!.id}`);
    expect(after!.amount).toBe(entry!.amount);
    expect(await mismatches()).toEqual([]);
  });
});
