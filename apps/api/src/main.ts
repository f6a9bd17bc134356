import { join } from 'node:path';
import { Redis } from 'ioredis';
import {
  DatabaseInUseError,
  FolderInUseError,
  isDatabaseEmpty,
  migrateDatabase,
  openDatabase,
  seedDemoData,
} from '@helium/db';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createMailer } from './infra/mailer.ts';
import { findFfmpeg } from './infra/media-probe.ts';
import { LocalMediaStorage } from './infra/media-storage.ts';
import pino from 'pino';

/** Starts the whole product: database (migrated, seeded when empty), API and web app on one port. */
async function main() {
  const config = loadConfig();
  const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: join(config.dataDir, 'db'),
    // Nothing is answered 2xx without its database: stop, so that a supervisor restarts the server.
    onFailure: (error) => {
      log.fatal({ err: error }, 'the database stopped serving this process');
      process.exit(1);
    },
  });
  // One server per database, before anything is migrated or served (a second one waits 15 s, then stops).
  await database.holdExclusive();
  await migrateDatabase(database);
  const media = new LocalMediaStorage(config.mediaDir);
  if (await isDatabaseEmpty(database.db)) {
    log.info('empty database: seeding demo data');
    await seedDemoData(database.db, { media });
  }
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false }) : undefined;
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    log,
  });
  const app = await buildApp({ config, database, mailer, media, redis, loggerInstance: log });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    await app.close();
    mailer.close();
    redis?.disconnect();
    await database.close();
    // app.close() wrote the delivery engine's queued events (its onClose hook); tests and supervisors read this line.
    log.info({ signal }, 'stopped cleanly: pending counts written, database closed');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(`Helium Ads is running on ${config.appUrl} (database: ${database.kind})`);
  if (!findFfmpeg()) {
    log.warn(
      'ffmpeg not found (FFMPEG_PATH, PATH): uploaded images are checked by their header only, videos get no poster',
    );
  }
}

main().catch((error: unknown) => {
  // A second server on the same DATA_DIR or DATABASE_URL, or a setting it cannot start with: the reason is the
  // whole message.
  const known =
    error instanceof FolderInUseError || error instanceof DatabaseInUseError || error instanceof ConfigError;
  console.error(known ? error.message : error);
  process.exit(1);
});
