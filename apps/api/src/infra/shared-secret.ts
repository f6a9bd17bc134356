import { eq } from 'drizzle-orm';
import { sessionSecret, type Database } from '@helium/db';
import { generateSecret, readSecretFile, type AppConfig, type LoadedConfig } from '../config.ts';

/**
 * The session secret of every instance on this database: the row that the first one to start inserted (an
 * insert that does nothing when the row exists, so two instances starting at once agree on the first committed).
 * `candidate` is what this instance offers when there is none yet.
 */
export async function databaseSessionSecret(db: Database, candidate: string): Promise<string> {
  await db.insert(sessionSecret).values({ id: 1, secret: candidate }).onConflictDoNothing();
  const [row] = await db.select({ secret: sessionSecret.secret }).from(sessionSecret).where(eq(sessionSecret.id, 1));
  if (!row) throw new Error('The session secret could not be stored in the database');
  return row.secret;
}

/**
 * The configuration with its session secret: SESSION_SECRET or DATA_DIR's as loadConfig read them; else (with
 * DATABASE_URL) the database's. A server that kept its secret in DATA_DIR before offers that one, so that its
 * sessions, tokens and mailed hash-id links stay valid when the secret moves to the database.
 */
export async function withSessionSecret(config: LoadedConfig, db: Database): Promise<AppConfig> {
  const secret =
    config.sessionSecret ?? (await databaseSessionSecret(db, readSecretFile(config.dataDir) ?? generateSecret()));
  return { ...config, sessionSecret: secret, hashidsSalt: config.hashidsSalt ?? secret };
}
