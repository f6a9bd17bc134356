import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrateDatabase, openDatabase, retryWhileInUse, seedDemoData } from '@helium/db';

/*
 * Migrating and seeding a database takes seconds; most test files want the same seeded database. It is made
 * once and copied: PostgreSQL clones a template database, PGlite starts from a dump of one's files. The template
 * is made again when the migrations, the seed or the domain change, and every hour, because the demo data are
 * placed relative to the time they are seeded ("2 hours ago"): a copy is at most an hour older than a fresh seed.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TEMPLATE_SOURCES = ['packages/db/migrations', 'packages/db/src', 'packages/domain/src'];
/** Template files older than this are removed when a new one is made (no test run still reads them). */
const STALE_TEMPLATE_MS = 3 * 60 * 60_000;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Names this hour's template of today's sources: any change of theirs makes a new one. */
function templateKey(): string {
  const hash = createHash('sha256').update(new Date().toISOString().slice(0, 13));
  for (const source of TEMPLATE_SOURCES) {
    for (const file of filesUnder(join(ROOT, source))) hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

async function seededDatabaseImage(): Promise<Uint8Array> {
  const handle = await openDatabase();
  try {
    await migrateDatabase(handle);
    await seedDemoData(handle.db);
    return await handle.dumpImage!();
  } finally {
    await handle.close();
  }
}

/** The files of a migrated and seeded embedded database (a tar archive), made once per key in the temp folder. */
export async function pgliteTemplate(): Promise<Uint8Array> {
  const name = `helium-test-template-${templateKey()}.tar`;
  const file = join(tmpdir(), name);
  try {
    return readFileSync(file);
  } catch {
    // not made yet (or removed by another run meanwhile): make it
  }
  const image = await seededDatabaseImage();
  // Written whole under another name, then renamed: a reader never sees half a file.
  const partial = `${file}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, image);
  renameSync(partial, file);
  for (const other of readdirSync(tmpdir())) {
    if (!other.startsWith('helium-test-template-') || other === name) continue;
    const path = join(tmpdir(), other);
    // Another run may have removed it meanwhile.
    const made = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (made !== undefined && Date.now() - made > STALE_TEMPLATE_MS) rmSync(path, { force: true });
  }
  return image;
}

/** Held while a template database is made, so that parallel test files make it once. */
const TEMPLATE_LOCK_KEY = '4841494c49554d54';

/**
 * The name of a migrated and seeded PostgreSQL database to clone (`create database ... template ...`), made once
 * per key by whichever test file asks first while the others wait.
 */
export async function postgresTemplate(adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await makePostgresTemplate(admin, adminUrl);
  } finally {
    await admin.end();
  }
}

async function makePostgresTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const name = `helium_template_${templateKey()}`;
  await admin.query(`select pg_advisory_lock(x'${TEMPLATE_LOCK_KEY}'::bigint)`);
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return name;
    const building = `${name}_making`;
    await admin.query(`drop database if exists ${building}`);
    await admin.query(`create database ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const handle = await openDatabase({ url: url.toString() });
    try {
      await migrateDatabase(handle);
      await seedDemoData(handle.db);
    } finally {
      await handle.close();
    }
    await retryWhileInUse(() => admin.query(`alter database ${building} rename to ${name}`));
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like 'helium\\_template\\_%' and datname <> $1`,
      [name],
    );
    // An older template still being cloned by another run stays: it goes next time.
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname}`).catch(() => {});
    return name;
  } finally {
    await admin.query(`select pg_advisory_unlock(x'${TEMPLATE_LOCK_KEY}'::bigint)`);
  }
}
