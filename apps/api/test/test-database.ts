import { createThrowAwayDatabase, migrateDatabase, openDatabase, type DatabaseHandle } from '@helium/db';
import { pgliteTemplate, postgresTemplate } from './database-template.ts';

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
    const template = seed && migrate ? await postgresTemplate(adminUrl) : undefined;
    const database = await createThrowAwayDatabase(adminUrl, { prefix: 'helium_test', template });
    const handle = await openDatabase({ url: database.url });
    if (migrate && !seed) await migrateDatabase(handle);
    return {
      ...handle,
      url: database.url,
      drop: async () => {
        await handle.close();
        await database.drop();
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
