import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ThreadedDatabaseError, ThreadedPGlite } from '../src/pglite-thread.ts';

/** A prepared statement inserting the ids of a JSON array (its one parameter) into `table`'s id column. */
const insertIds = (table: string) => ({
  name: `add_${table}`,
  text: `insert into ${table} (id) select value::integer from json_array_elements_text($1::json)`,
  types: [114],
});

/** A table of text bodies keyed by their length, and the prepared statement adding one (length, body). */
const SIZED_TABLE = 'create table sized (length integer primary key, body text not null)';
const addSized = { name: 'add_sized', text: 'insert into sized (length, body) values ($1, $2)', types: [23, 25] };

describe('PGlite in a worker thread', () => {
  let database: ThreadedPGlite;

  beforeAll(async () => {
    database = new ThreadedPGlite();
    await database.waitReady;
    await database.exec('create table things (id integer primary key, name text not null, at timestamptz)');
  }, 60_000);
  afterAll(() => database.close());

  it('answers rows as objects or arrays, with dates as PostgreSQL writes them when drizzle asks so', async () => {
    await database.query('insert into things values ($1, $2, $3)', [1, 'one', '2026-11-22T10:00:00Z']);
    const objects = await database.query<{ id: number; name: string }>('select id, name from things');
    expect(objects.rows).toEqual([{ id: 1, name: 'one' }]);
    // As drizzle asks: a parser that returns the text, for timestamptz (type 1184).
    const arrays = await database.query('select id, at from things', [], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => value },
    });
    expect(arrays.rows).toEqual([[1, '2026-11-22 10:00:00+00']]);
    const parsed = await database.query<{ at: Date }>('select at from things');
    expect(parsed.rows[0]!.at).toBeInstanceOf(Date);
    expect(parsed.rows[0]!.at.toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });

  it('passes PostgreSQL errors with their SQLSTATE code and constraint', async () => {
    const error = await database.query('insert into things values (1, $1)', ['again']).catch((caught) => caught);
    expect(error).toBeInstanceOf(ThreadedDatabaseError);
    expect(error.code).toBe('23505');
    expect(error.constraint).toBe('things_pkey');
    expect(error.message).toMatch(/duplicate key/);
  });

  it('runs a prepared statement with JSON parameters, prepared once, and passes its errors with their code', async () => {
    await database.exec('create table named_things (id integer primary key, name text not null)');
    const statement = {
      name: 'add_named_things',
      text: 'insert into named_things (id, name) select id, name from json_to_recordset($1::json) as r(id integer, name text)',
      types: [114],
    };
    await database.executePrepared(statement, [JSON.stringify([{ id: 10, name: "it's ten" }])]);
    await database.executePrepared(statement, [
      JSON.stringify([
        { id: 11, name: 'eleven' },
        { id: 12, name: 'x' },
      ]),
    ]);
    const rows = await database.query<{ id: number; name: string }>('select id, name from named_things order by id');
    expect(rows.rows).toEqual([
      { id: 10, name: "it's ten" },
      { id: 11, name: 'eleven' },
      { id: 12, name: 'x' },
    ]);
    const error = await database
      .executePrepared(statement, [
        JSON.stringify([
          { id: 12, name: 'twelve' },
          { id: 13, name: 'y' },
        ]),
      ])
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ThreadedDatabaseError);
    expect(error.code).toBe('23505');
    // The failed call wrote nothing, and the session goes on.
    const after = await database.query<{ total: number }>('select count(*)::int as total from named_things');
    expect(after.rows[0]!.total).toBe(3);
    await database.executePrepared(statement, [null]);
    expect(await database.query('select 1 as one')).toMatchObject({ rows: [{ one: 1 }] });
  });

  it('keeps a transaction whole: statements sent meanwhile wait for it, a failure rolls it back', async () => {
    const seen: string[] = [];
    let outside: Promise<void> | undefined;
    await database.transaction(async (tx) => {
      await tx.query('insert into things values (2, $1)', ['two']);
      // Sent while the transaction is open: must not run inside it nor between its statements.
      outside = database.query<{ n: number }>('select count(*)::int as n from things').then((result) => {
        seen.push(`outside saw ${result.rows[0]!.n}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query('insert into things values (3, $1)', ['three']);
      seen.push('transaction done');
    });
    await outside;
    expect(seen).toEqual(['transaction done', 'outside saw 3']);

    await expect(
      database.transaction(async (tx) => {
        await tx.query('insert into things values (4, $1)', ['four']);
        await tx.query('insert into things values (4, $1)', ['four again']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const count = await database.query<{ n: number }>('select count(*)::int as n from things');
    expect(count.rows[0]!.n).toBe(3);
  });

  it('runs transactions started together one after the other: a rolled-back one leaves nothing', async () => {
    await database.exec('create table together (id integer primary key)');
    const first = database.transaction(async (tx) => {
      await tx.query('insert into together values (1)');
      await new Promise((resolve) => setTimeout(resolve, 30));
      await tx.query('insert into together values (2)');
    });
    const second = database.transaction(async (tx) => {
      await tx.query('insert into together values (3)');
      await new Promise((resolve) => setTimeout(resolve, 60));
      await tx.query('insert into together values (1)');
    });
    const secondFails = expect(second).rejects.toMatchObject({ code: '23505' });
    await first;
    await secondFails;
    const rows = await database.query<{ id: number }>('select id from together order by id');
    expect(rows.rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('never sends a statement that waited for one transaction into the next one', async () => {
    await database.exec('create table waited (id integer primary key)');
    const statement = insertIds('waited');
    let release!: () => void;
    let started!: () => void;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const first = database.transaction(async (tx) => {
      await tx.query('select 1');
      await new Promise<void>((resolve) => {
        release = resolve;
        started();
      });
    });
    // Inside its transaction (a fixed sleep was too short on a loaded machine).
    await isStarted;
    // Both wait for the first transaction: the second, then a write answered once it is done (a counted batch).
    const second = database.transaction(async (tx) => {
      await tx.query('insert into waited values (1)');
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('the second transaction fails');
    });
    const secondFails = expect(second).rejects.toThrow('the second transaction fails');
    const write = database.executePrepared(statement, [JSON.stringify([7])]);
    const query = database.query('insert into waited values (8)');
    release();
    await first;
    await write;
    await query;
    await secondFails;
    // The write and the query were answered as done: the second transaction's rollback must not undo them.
    const rows = await database.query<{ id: number }>('select id from waited order by id');
    expect(rows.rows).toEqual([{ id: 7 }, { id: 8 }]);
  });

  it('refuses a prepared statement that ran inside a transaction block left open, and rolls it back', async () => {
    await database.exec('create table blocked (id integer primary key)');
    const statement = insertIds('blocked');
    // A BEGIN that went around the client's own transactions (what the two tests above make impossible).
    const send = (database as unknown as { send(message: object): Promise<unknown> }).send.bind(database);
    await send({ op: 'exec', sql: 'BEGIN' });
    await send({ op: 'exec', sql: 'insert into blocked values (1)' });
    const error = await database.executePrepared(statement, [JSON.stringify([2])]).catch((caught) => caught);
    expect(error).toBeInstanceOf(ThreadedDatabaseError);
    expect(error.message).toMatch(/transaction block left open \(status T\): rolled back, not written/);
    // Nothing of the block nor of the statement stays, and the session is usable again.
    expect((await database.query('select id from blocked')).rows).toEqual([]);
    await database.executePrepared(statement, [JSON.stringify([3])]);
    expect((await database.query('select id from blocked')).rows).toEqual([{ id: 3 }]);
  });

  it('runs a statement whose messages end on the 8 KB receive buffer, committed, once', async () => {
    // PGlite 0.3 dropped the messages after one that ended where its receive buffer was emptied: an input of
    // 8,192·k + 5 bytes lost its Sync, one of 8,192·k + 15 bytes its Execute too. The body lengths below put
    // every message boundary of Bind, Execute and Sync on a multiple of 8,192 bytes in turn.
    await database.exec(SIZED_TABLE);
    const lengths: number[] = [];
    for (const boundary of [8192, 16384]) {
      for (let length = boundary - 80; length <= boundary + 10; length++) lengths.push(length);
    }
    for (const length of lengths) await database.executePrepared(addSized, [String(length), 'x'.repeat(length)]);
    const rows = await database.query<{ length: number; stored: number }>(
      'select length, length(body) as stored from sized order by length',
    );
    expect(rows.rows).toEqual(lengths.map((length) => ({ length, stored: length })));
    // Committed, not left in an open transaction that a ROLLBACK would undo.
    await database.exec('ROLLBACK');
    expect((await database.query('select count(*)::int as total from sized')).rows).toEqual([
      { total: lengths.length },
    ]);
  });

  it('makes the outcome known when PGlite drops messages: committed and answered, or refused and not written', async () => {
    // Calls as large as before the fix, so that PGlite drops the Sync (the statement ran) or Execute and Sync
    // (it did not) at some of these lengths: the first is committed by a second Sync, the second refused.
    const unsplit = new ThreadedPGlite({ bytesPerCall: 1_000_000 });
    try {
      await unsplit.waitReady;
      await unsplit.exec(SIZED_TABLE);
      const answered: number[] = [];
      const refused: number[] = [];
      for (let length = 8192 - 80; length <= 8192 + 10; length++) {
        const error = await unsplit.executePrepared(addSized, [String(length), 'x'.repeat(length)]).then(
          () => null,
          (caught) => caught,
        );
        if (error === null) answered.push(length);
        else {
          expect(error.message).toMatch(/was not run by the database: not written/);
          refused.push(length);
        }
      }
      expect(refused.length).toBeGreaterThan(0);
      await unsplit.exec('ROLLBACK');
      const rows = await unsplit.query('select length from sized order by length');
      expect(rows.rows).toEqual(answered.map((length) => ({ length })));
    } finally {
      await unsplit.close();
    }
  });

  it('refuses a statement longer than the receive buffer with its code, and the session goes on', async () => {
    await database.exec('create table long_refused (id integer primary key, body text not null)');
    const statement = { name: 'add_long_refused', text: 'insert into long_refused values ($1, $2)', types: [23, 25] };
    const error = await database
      .executePrepared(statement, ['not a number', 'x'.repeat(20_000)])
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ThreadedDatabaseError);
    expect(error.code).toBe('22P02');
    await database.executePrepared(statement, ['1', 'y'.repeat(20_000)]);
    expect((await database.query('select id, length(body) as stored from long_refused')).rows).toEqual([
      { id: 1, stored: 20_000 },
    ]);
  });

  it('sends the client only the messages PostgreSQL sends by default, not a DEBUG notice per statement', async () => {
    expect((await database.query('show client_min_messages')).rows).toEqual([{ client_min_messages: 'notice' }]);
  });

  it('refuses statements once closed', async () => {
    const other = new ThreadedPGlite();
    await other.waitReady;
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/closed/);
  }, 60_000);

  it('tells when its thread stops while open, and refuses statements from then on', async () => {
    const failures: Error[] = [];
    const other = new ThreadedPGlite({ onFailure: (error) => failures.push(error) });
    await other.waitReady;
    // The thread dies as it would on a crash of the WebAssembly module.
    await (other as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toMatch(/database thread stopped/);
    await expect(other.query('select 1')).rejects.toThrow(/database thread stopped/);
    await other.close();
    expect(failures).toHaveLength(1);
  }, 60_000);

  it('refuses to start on a data folder that is not a database, with the reason', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const folder = mkdtempSync(join(tmpdir(), 'helium-not-a-db-'));
    writeFileSync(join(folder, 'PG_VERSION'), 'not a version\n');
    try {
      const broken = new ThreadedPGlite({ dataDir: folder });
      await expect(broken.waitReady).rejects.toThrow();
      await broken.close().catch(() => {});
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
