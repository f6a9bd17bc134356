import { getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../src/client.ts';
import * as schema from '../src/schema/index.ts';

/*
 * record_delivery_batch (migration 0006, or whichever later migration last replaced it) writes a batch of delivery
 * events from JSON documents whose fields are the Drizzle schema's field names: the API's store sends each table's
 * `$inferInsert` rows (apps/api/src/features/delivery/store.ts). PL/pgSQL checks none of its statements when it is
 * created, and a column it does not name silently takes its default: so a column added, renamed or dropped in
 * the schema (and its generated migration) without the function, or the other way round, is caught here. The
 * function is read back from a migrated database, not from a migration file, so its latest definition is checked.
 */

/**
 * Columns of an upserted summary that a conflict keeps as first written, neither added to nor replaced: what the
 * row's key already determines (an ad's campaign, advertiser and channel). Any other column must be in the
 * conflict's key or in its SET list, so that a counter added to a summary cannot be forgotten there.
 */
const KEPT_ON_CONFLICT: Record<string, string[]> = {
  daily_ad_stats: ['campaign_id', 'advertiser_id', 'channel'],
  daily_url_stats: ['campaign_id'],
};

/** The Drizzle schema's tables by their SQL name. */
const drizzleTables = new Map<string, PgTable>(
  Object.values(schema as Record<string, unknown>)
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [getTableName(table), table]),
);

/** `text` with what lies inside parentheses and quotes blanked out (same length): its top level. */
function topLevel(text: string): string {
  let depth = 0;
  let quote: string | null = null;
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === quote) quote = null;
      out += depth === 0 && quote === null ? char : ' ';
    } else if (char === "'" || char === '"') {
      quote = char;
      out += depth > 0 ? ' ' : char;
    } else if (char === '(') {
      out += depth++ > 0 ? ' ' : char;
    } else if (char === ')') {
      out += --depth > 0 ? ' ' : char;
    } else {
      out += depth > 0 ? ' ' : char;
    }
  }
  return out;
}

/** The text inside the parenthesis that opens at `open`, and the index just after the one that closes it. */
function parenthesised(text: string, open: number): { inner: string; end: number } {
  const close = topLevel(text.slice(open)).indexOf(')');
  if (text[open] !== '(' || close < 0) throw new Error(`No parenthesis at ${open}: ${text.slice(open, open + 40)}`);
  return { inner: text.slice(open + 1, open + close), end: open + close + 1 };
}

/** `list` split at its top-level commas, each item trimmed. */
function items(list: string): string[] {
  const masked = topLevel(list);
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index <= list.length; index++) {
    if (index === list.length || masked[index] === ',') {
      parts.push(list.slice(start, index).trim());
      start = index + 1;
    }
  }
  return parts.filter((part) => part !== '');
}

/** An SQL identifier as PostgreSQL reads it: quoted kept as written, unquoted folded to lower case. */
const identifier = (text: string) => (text.startsWith('"') ? text.slice(1, -1) : text.toLowerCase());
const IDENTIFIER = String.raw`(?:"[^"]+"|\w+)`;

interface RecordField {
  name: string;
  type: string;
}

/** `INSERT INTO table (columns) SELECT expressions FROM json_to_recordset(argument) AS alias(fields) [ON CONFLICT …]`. */
interface Insert {
  table: string;
  /** The alias of the target table (`AS t`), used by the SET list of an upsert. */
  targetAlias: string | null;
  columns: string[];
  expressions: string[];
  argument: string;
  alias: string;
  fields: RecordField[];
  conflict: null | { target: string[] | null; set: Array<{ column: string; expression: string }> | null };
}

/** `UPDATE table SET … [FROM json_to_recordset(argument) AS alias(fields)] WHERE …`, or one reading a JSON array. */
interface Update {
  table: string;
  set: string[];
  argument: string;
  text: string;
}

/** The statements of a PL/pgSQL body that are not IF / END IF, each without its semicolon. */
function statements(body: string): string[] {
  const withoutComments = body.replace(/--[^\n]*/g, '');
  const masked = topLevel(withoutComments);
  const found: string[] = [];
  let start = 0;
  for (let index = 0; index < masked.length; index++) {
    if (masked[index] !== ';') continue;
    const statement = withoutComments
      .slice(start, index)
      .replace(/^\s*(BEGIN\b|END\s+IF\b|IF\b[\s\S]*?\bTHEN\b|\s)*/i, '')
      .trim();
    if (statement !== '') found.push(statement);
    start = index + 1;
  }
  return found;
}

function parseRecordFields(list: string): RecordField[] {
  return items(list).map((item) => {
    const match = new RegExp(String.raw`^(${IDENTIFIER})\s+([\s\S]+)$`).exec(item);
    if (!match) throw new Error(`Unreadable record field: ${item}`);
    return { name: identifier(match[1]!), type: match[2]!.trim() };
  });
}

function parseInsert(text: string): Insert {
  const head = new RegExp(String.raw`^INSERT\s+INTO\s+(${IDENTIFIER})(?:\s+AS\s+(${IDENTIFIER}))?\s*\(`, 'i').exec(
    text,
  );
  if (!head) throw new Error(`Unreadable INSERT: ${text.slice(0, 80)}`);
  const columns = parenthesised(text, head[0].length - 1);
  const rest = text.slice(columns.end);
  const source = new RegExp(
    String.raw`^\s*SELECT\s+([\s\S]*?)\s+FROM\s+json_to_recordset\(\s*(\w+)\s*\)\s+AS\s+(${IDENTIFIER})\s*\(`,
    'i',
  ).exec(rest);
  if (!source) throw new Error(`An INSERT into ${head[1]} that does not read json_to_recordset: ${text}`);
  const fields = parenthesised(rest, source[0].length - 1);
  const tail = rest.slice(fields.end).trim();
  let conflict: Insert['conflict'] = null;
  if (tail !== '') {
    const match = /^ON\s+CONFLICT\s*(?:\(([^)]*)\))?\s*DO\s+(?:NOTHING|UPDATE\s+SET\s+([\s\S]+))$/i.exec(tail);
    if (!match) throw new Error(`Unreadable end of the INSERT into ${head[1]}: ${tail}`);
    conflict = {
      target: match[1] === undefined ? null : items(match[1]).map(identifier),
      set:
        match[2] === undefined
          ? null
          : items(match[2]).map((item) => {
              const assignment = new RegExp(String.raw`^(${IDENTIFIER})\s*=\s*([\s\S]+)$`).exec(item);
              if (!assignment) throw new Error(`Unreadable SET item in the INSERT into ${head[1]}: ${item}`);
              return { column: identifier(assignment[1]!), expression: assignment[2]!.replace(/\s+/g, ' ').trim() };
            }),
    };
  }
  return {
    table: identifier(head[1]!),
    targetAlias: head[2] === undefined ? null : identifier(head[2]),
    columns: items(columns.inner).map(identifier),
    expressions: items(source[1]!),
    argument: source[2]!,
    alias: identifier(source[3]!),
    fields: parseRecordFields(fields.inner),
    conflict,
  };
}

function parseUpdate(text: string): Update {
  const head = new RegExp(String.raw`^UPDATE\s+(${IDENTIFIER})\s+SET\s+`, 'i').exec(text);
  if (!head) throw new Error(`Unreadable UPDATE: ${text.slice(0, 80)}`);
  const afterSet = text.slice(head[0].length);
  const end = topLevel(afterSet).search(/\b(FROM|WHERE)\b/i);
  const set = items(end < 0 ? afterSet : afterSet.slice(0, end)).map((item) => {
    const match = new RegExp(String.raw`^(${IDENTIFIER})\s*=`).exec(item);
    if (!match) throw new Error(`Unreadable SET item: ${item}`);
    return identifier(match[1]!);
  });
  const source = /\bjson_(?:to_recordset|array_elements_text)\(\s*(\w+)\s*\)/i.exec(text);
  if (!source) throw new Error(`An UPDATE of ${head[1]} that reads no argument: ${text}`);
  return { table: identifier(head[1]!), set, argument: source[1]!, text };
}

/** The fields of `alias` that an SQL expression reads (`alias.field` or `alias."field"`). */
function fieldsRead(expression: string, alias: string): string[] {
  const pattern = new RegExp(String.raw`(?<![\w."])${alias}\.(${IDENTIFIER})`, 'g');
  return [...expression.matchAll(pattern)].map((match) => identifier(match[1]!));
}

interface DatabaseColumn {
  name: string;
  type: string;
  notNull: boolean;
  /** Its value comes from the database: a sequence (serial), an identity or a generated column. */
  generated: boolean;
}

/** A Drizzle column's type as PostgreSQL names it (serial types are integers with a sequence). */
function drizzleType(column: PgColumn): string {
  const type = column.getSQLType();
  return { smallserial: 'smallint', serial: 'integer', bigserial: 'bigint' }[type] ?? type;
}

describe('record_delivery_batch and the Drizzle schema', () => {
  let handle: DatabaseHandle;
  let argumentNames: string[];
  let inserts: Insert[];
  let updates: Update[];
  const tableColumns = new Map<string, DatabaseColumn[]>();
  const typeNames = new Map<string, string>();

  async function query<Row>(statement: ReturnType<typeof sql>): Promise<Row[]> {
    return ((await handle.db.execute(statement)) as unknown as { rows: Row[] }).rows;
  }

  /** A type name as PostgreSQL prints it (`timestamptz` -> `timestamp with time zone`). */
  async function canonicalType(name: string): Promise<string> {
    let canonical = typeNames.get(name);
    if (canonical === undefined) {
      const [row] = await query<{ type: string }>(sql`select ${name}::regtype::text as type`);
      canonical = row!.type;
      typeNames.set(name, canonical);
    }
    return canonical;
  }

  async function databaseColumns(table: string): Promise<DatabaseColumn[]> {
    let columns = tableColumns.get(table);
    if (!columns) {
      columns = await query<DatabaseColumn>(sql`
        select a.attname as name, format_type(a.atttypid, null) as type, a.attnotnull as "notNull",
          (a.attidentity <> '' or a.attgenerated <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false))
            as generated
        from pg_attribute a
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = ${table}::regclass and a.attnum > 0 and not a.attisdropped
        order by a.attnum`);
      tableColumns.set(table, columns);
    }
    return columns;
  }

  beforeAll(async () => {
    handle = await openDatabase();
    await migrateDatabase(handle);
    const functions = await query<{ body: string; arguments: string }>(sql`
      select prosrc as body, pg_get_function_identity_arguments(oid) as arguments
      from pg_proc where proname = 'record_delivery_batch'`);
    expect(functions).toHaveLength(1);
    const [definition] = functions;
    argumentNames = items(definition!.arguments).map((argument) => {
      const [name, type] = argument.split(/\s+/);
      expect(type, `argument ${name}`).toBe('json');
      return name!;
    });
    const found = statements(definition!.body);
    inserts = found.filter((text) => /^INSERT\b/i.test(text)).map(parseInsert);
    updates = found.filter((text) => /^UPDATE\b/i.test(text)).map(parseUpdate);
    // What the batch answers (migration 0017): the credits it left, read after the writes, which writes nothing.
    const answer = found.filter((text) => /^(DECLARE\b|SELECT\b[\s\S]*\bINTO\s+credits_after\b|RETURN\b)/i.test(text));
    expect(answer, 'the answer: a DECLARE, a SELECT INTO credits_after, a RETURN').toHaveLength(3);
    expect(found.length, 'statements other than INSERT and UPDATE').toBe(inserts.length + updates.length + 3);
  }, 60_000);
  afterAll(() => handle?.close());

  it('reads each of its arguments in one statement, every statement planning against the migrated tables', async () => {
    const read = [...inserts, ...updates].map((statement) => statement.argument).sort();
    expect(read).toEqual([...argumentNames].sort());
    expect(inserts.map((insert) => insert.table)).toContain('pageviews');
    // Empty documents write nothing, yet PL/pgSQL plans each statement on its first run: a column or table the
    // function names that the migrated database lacks, or a value of the wrong type for its column, fails here.
    const empty = sql.join(
      argumentNames.map(() => sql`'[]'::json`),
      sql`, `,
    );
    await handle.db.execute(sql`select record_delivery_batch(${empty})`);
  });

  it("writes every column of each table it inserts into, from the schema's field of that name, as the column's type", async () => {
    const problems: string[] = [];
    for (const insert of inserts) {
      const table = drizzleTables.get(insert.table);
      if (!table) {
        problems.push(`${insert.table}: not a table of the Drizzle schema`);
        continue;
      }
      const fieldByColumn = new Map(
        Object.entries(getTableColumns(table)).map(([field, column]) => [column.name, field]),
      );
      const columns = new Map((await databaseColumns(insert.table)).map((column) => [column.name, column]));
      const declared = new Map(insert.fields.map((field) => [field.name, field.type]));
      const used = new Set<string>();
      if (insert.columns.length !== insert.expressions.length) {
        problems.push(`${insert.table}: ${insert.columns.length} columns, ${insert.expressions.length} values`);
      }
      for (const [index, column] of insert.columns.entries()) {
        const expected = fieldByColumn.get(column);
        const read = fieldsRead(insert.expressions[index] ?? '', insert.alias);
        read.forEach((field) => used.add(field));
        if (expected === undefined) {
          problems.push(`${insert.table}: writes the column ${column}, which the Drizzle table does not have`);
          continue;
        }
        if (read.length !== 1 || read[0] !== expected) {
          problems.push(
            `${insert.table}.${column}: written from ${read.map((field) => `"${field}"`).join(', ') || 'no field'}, not from the schema's field "${expected}"`,
          );
          continue;
        }
        const type = declared.get(expected);
        const databaseColumn = columns.get(column);
        if (type === undefined) {
          problems.push(`${insert.table}.${column}: the field "${expected}" is not declared in the JSON record`);
        } else if (databaseColumn && (await canonicalType(type)) !== databaseColumn.type) {
          problems.push(
            `${insert.table}.${column}: the field "${expected}" is read as ${await canonicalType(type)}, the column is ${databaseColumn.type}`,
          );
        }
      }
      for (const [column, field] of fieldByColumn) {
        if (insert.columns.includes(column) || columns.get(column)?.generated) continue;
        problems.push(
          `${insert.table}.${column}: the schema's field "${field}" is not written by record_delivery_batch`,
        );
      }
      for (const field of declared.keys()) {
        if (!used.has(field)) problems.push(`${insert.table}: the JSON field "${field}" is declared but not written`);
      }
      if (new Set(insert.columns).size !== insert.columns.length)
        problems.push(`${insert.table}: a column written twice`);
    }
    expect(problems).toEqual([]);
  });

  it('upserts a summary on its primary key, adding up or replacing every other column but those kept', async () => {
    const problems: string[] = [];
    for (const insert of inserts) {
      const table = drizzleTables.get(insert.table);
      const set = insert.conflict?.set;
      if (!table || !set) continue;
      const primaryKey = [
        ...getTableConfig(table).primaryKeys.flatMap((key) => key.columns.map((column) => column.name)),
        ...Object.values(getTableColumns(table))
          .filter((column) => column.primary)
          .map((column) => column.name),
      ];
      if ([...(insert.conflict?.target ?? [])].sort().join() !== [...primaryKey].sort().join()) {
        problems.push(
          `${insert.table}: ON CONFLICT (${insert.conflict?.target?.join(', ')}), primary key (${primaryKey.join(', ')})`,
        );
      }
      const alias = insert.targetAlias ?? insert.table;
      for (const { column, expression } of set) {
        const sum = `${alias}.${column} + excluded.${column}`;
        if (expression !== sum && expression !== `excluded.${column}`) {
          problems.push(
            `${insert.table}.${column}: on conflict set to ${expression}, not ${sum} nor excluded.${column}`,
          );
        }
        if (!insert.columns.includes(column)) problems.push(`${insert.table}.${column}: set on conflict, not written`);
      }
      const kept = KEPT_ON_CONFLICT[insert.table] ?? [];
      for (const column of insert.columns) {
        const handled = primaryKey.includes(column) || set.some((item) => item.column === column);
        if (!handled && !kept.includes(column)) {
          problems.push(
            `${insert.table}.${column}: neither added up nor replaced on conflict (nor in KEPT_ON_CONFLICT)`,
          );
        }
        if (handled && kept.includes(column)) problems.push(`${insert.table}.${column}: in KEPT_ON_CONFLICT, yet set`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('updates only columns that the Drizzle tables declare', async () => {
    const problems: string[] = [];
    for (const update of updates) {
      const table = drizzleTables.get(update.table);
      if (!table) {
        problems.push(`${update.table}: not a table of the Drizzle schema`);
        continue;
      }
      const names = new Set(Object.values(getTableColumns(table)).map((column) => column.name));
      const named = [...update.set, ...fieldsRead(update.text, update.table)];
      for (const column of named) {
        if (!names.has(column)) problems.push(`${update.table}.${column}: not a column of the Drizzle table`);
      }
    }
    expect(problems).toEqual([]);
    expect(updates.map((update) => update.table).sort()).toEqual(['campaigns', 'publishers']);
  });

  it('writes tables whose migrated columns are the Drizzle columns, with their types and nullability', async () => {
    const problems: string[] = [];
    for (const name of new Set([...inserts, ...updates].map((statement) => statement.table))) {
      const table = drizzleTables.get(name);
      if (!table) continue;
      const migrated = await databaseColumns(name);
      const declared = Object.values(getTableColumns(table));
      for (const column of declared) {
        const found = migrated.find((candidate) => candidate.name === column.name);
        if (!found) problems.push(`${name}.${column.name}: in the Drizzle schema, not in the migrated table`);
        else if ((await canonicalType(drizzleType(column))) !== found.type || column.notNull !== found.notNull) {
          problems.push(
            `${name}.${column.name}: ${drizzleType(column)}${column.notNull ? ' not null' : ''} in the Drizzle schema, ${found.type}${found.notNull ? ' not null' : ''} migrated`,
          );
        }
      }
      for (const column of migrated) {
        if (!declared.some((candidate) => candidate.name === column.name)) {
          problems.push(`${name}.${column.name}: in the migrated table, not in the Drizzle schema`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
