import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '@helium/db';
import { pgliteTemplate, postgresTemplate, retryWhileInUse } from './database-template.ts';

/** Which database the API tests run on: PGlite by default, PostgreSQL when the project runs them so. */
export const TEST_DRIVER = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export type TestDatabase = DatabaseHandle & {
  /** The PostgreSQL database's URL (undefined for the embedded one). */
  url: string | undefined;
  drop(): Promise<void>;
};

/**
 * A fresh migrated and seeded database for one test file, copied from a template (database-template.ts); left
 * empty with `seed: false`, without tables too with `migrate: false`. On PostgreSQL each file gets its own
 * database, dropped afterwards, so files can run in
 * parallel without seeing each other's rows.
 */
export async function createTestDatabase({ seed = true, migrate = true } = {}): Promise<TestDatabase> {
  if (TEST_DRIVER === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `helium_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      if (seed && migrate) {
        const template = await postgresTemplate(admin, adminUrl);
        await retryWhileInUse(() => admin.query(`create database ${name} template ${template}`));
      } else {
        await admin.query(`create database ${name}`);
      }
    } finally {
      await admin.end();
    }
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ url: url.toString() });
    if (migrate && !seed) await migrateDatabase(handle);
    return {
      ...handle,
      url: url.toString(),
      drop: async () => {
        await handle.close();
        const cleaner = new pg.Client({ connectionString: adminUrl });
        await cleaner.connect();
        // Closed pool connections may take a moment to go; dropping them by force would make them emit errors.
        for (let attempt = 0; ; attempt++) {
          try {
            await cleaner.query(`drop database if exists ${name}${attempt < 40 ? '' : ' with (force)'}`);
            break;
          } catch (error) {
            if (attempt >= 40) throw error;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        await cleaner.end();
      },
    };
  }
  const fromTemplate = seed && migrate;
  const handle = await openDatabase(fromTemplate ? { pgliteImage: await pgliteTemplate() } : {});
  if (migrate && !seed) await migrateDatabase(handle);
  return { ...handle, url: undefined, drop: () => handle.close() };
}

/**
 * The same PostgreSQL test database through a connection pool of its own, as a second server instance (on another
 * machine) has it; its `drop` only closes it, the database's creator deletes it.
 */
export async function openTestDatabaseAgain(database: TestDatabase): Promise<TestDatabase> {
  if (!database.url) throw new Error('Only a PostgreSQL test database can be shared by two instances');
  const handle = await openDatabase({ url: database.url });
  return { ...handle, url: database.url, drop: () => handle.close() };
}
