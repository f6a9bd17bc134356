import { DatabaseInUseError, FolderInUseError, openDatabase } from '@helium/db';
import { ConfigError, embeddedDatabaseDir, loadConfig } from './config.ts';
import { createLogger } from './infra/logger.ts';

/**
 * Starts the whole product: database (migrated, seeded when empty), API and web app on one port. The embedded
 * database starts in its thread (over a second of PGlite's start) while this one loads the server's code and files.
 */
async function main() {
  const config = loadConfig();
  const log = await createLogger(config.logLevel);
  const opening = openDatabase({
    url: config.databaseUrl,
    pgliteDir: embeddedDatabaseDir(config.dataDir),
    // Nothing is answered 2xx without its database: stop, so that a supervisor restarts the server.
    onFailure: (error) => {
      log.fatal({ err: error }, 'the database stopped serving this process');
      process.exit(1);
    },
    onConnectionLost: (error) => log.warn({ err: error }, 'a database connection ended: another opens when needed'),
    onLockLost: (error) =>
      log.warn({ err: error }, 'the database lock was lost with its connection: taking it again once it answers'),
  });
  // A failure to open is reported by the await below, not as an unhandled rejection while the code loads.
  opening.catch(() => {});
  const server = await import('./server.ts');
  server.readServingFiles(config);
  await server.serve(config, await opening, log);
}

main().catch((error: unknown) => {
  // A second server on the same DATA_DIR or DATABASE_URL, or a setting it cannot start with: the reason is the
  // whole message.
  const known =
    error instanceof FolderInUseError || error instanceof DatabaseInUseError || error instanceof ConfigError;
  console.error(known ? error.message : error);
  process.exit(1);
});
