import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database made on a PostgreSQL server for one test file or benchmark, and dropped after it. */
export type ThrowAwayDatabase = { name: string; url: string; drop(): Promise<void> };

/** PostgreSQL's "being accessed by other users": a closed pool connection's session has not ended yet. */
const IN_USE = '55006';

/**
 * Runs `statement` again while PostgreSQL refuses it because a closed connection's session has not ended yet; a
 * pool's closed connections take a moment to go.
 */
export async function retryWhileInUse<T>(statement: () => Promise<T>, attempts = 100): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (attempt >= attempts || (error as { code?: string }).code !== IN_USE) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Creates `<prefix>_<random>` on the server `serverUrl` points to (a copy of `template` when given). `drop` waits
 * for the database's connections to go (dropping them by force would make a closing pool emit errors), then
 * forces after about two seconds.
 */
export async function createThrowAwayDatabase(
  serverUrl: string,
  { prefix, template }: { prefix: string; template?: string },
): Promise<ThrowAwayDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (admin) =>
    retryWhileInUse(() => admin.query(`create database ${name}${template ? ` template ${template}` : ''}`)),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withClient(serverUrl, async (admin) => {
        await retryWhileInUse(() => admin.query(`drop database if exists ${name}`), 40).catch(() =>
          admin.query(`drop database if exists ${name} with (force)`),
        );
      }),
  };
}

async function withClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}
