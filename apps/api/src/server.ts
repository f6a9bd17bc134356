import { join } from 'node:path';
import { isDatabaseEmpty, migrateDatabase, seedDemoData, type DatabaseHandle } from '@helium/db';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { LoadedConfig } from './config.ts';
import { createMailer } from './infra/mailer.ts';
import { findFfmpeg } from './infra/media-probe.ts';
import { copyFolderMediaToDatabase, DatabaseMediaStorage, openMediaStorage } from './infra/database-media-storage.ts';
import { createRedis, waitForRedis } from './infra/redis.ts';
import type { MediaStorage } from './infra/media-storage.ts';
import { GeoLocator } from './features/delivery/geo.ts';
import { MailProxyRanges } from './features/delivery/mail-proxies.ts';
import { answerForAllWorkers, gatherWorkersMetrics } from './infra/cluster-metrics.ts';
import { Metrics } from './infra/metrics.ts';
import { isWorker, superviseWorkers } from './workers.ts';

/** Migrations, the media of DATA_DIR for a database storage, and the demo data of an empty database. */
async function prepareDatabase(database: DatabaseHandle, media: MediaStorage, mediaDir: string, log: Logger) {
  await migrateDatabase(database);
  if (media instanceof DatabaseMediaStorage) {
    // Uploads kept in DATA_DIR/media before MEDIA_STORAGE=postgres: copied once, so every instance serves them.
    const { copied, skipped } = await copyFolderMediaToDatabase(mediaDir, media);
    if (copied > 0) log.info({ copied, from: mediaDir }, 'media copied from DATA_DIR/media into the database');
    if (skipped.length > 0)
      log.warn({ skipped }, 'media files not copied: bytes not matching their name, or larger than an upload');
  }
  if (await isDatabaseEmpty(database.db)) {
    log.info('empty database: seeding demo data');
    await seedDemoData(database.db, { media });
  }
}

/**
 * Reads what serving reads from files (the IP database, the mail proxies' ranges: a third of a second), while the
 * embedded database starts in its thread rather than after. Not in the process that only supervises WORKERS.
 */
export function readServingFiles(config: LoadedConfig): void {
  if (config.workers > 1 && !isWorker()) return;
  new GeoLocator().load();
  MailProxyRanges.published();
}

/**
 * Serves the product on an open database: migrated and seeded when empty (by the first process), then the API
 * and web app on one port, or WORKERS processes that do.
 */
export async function serve(config: LoadedConfig, database: DatabaseHandle, log: Logger): Promise<void> {
  // Several instances serve one network only with PostgreSQL and Redis, where they share what delivery decides by
  // (docs/scaling.md). Otherwise one server per database, before anything is migrated or served (a second one
  // waits 15 s, then stops).
  const shared = Boolean(config.databaseUrl && config.redisUrl);
  // A lock lost and taken again (PostgreSQL restarted): what serving counts in memory is read again from it.
  let lockRegained = () => {};
  if (!shared) await database.holdExclusive({ onRegained: () => lockRegained() });
  const media = openMediaStorage(config, database);
  // The API processes of WORKERS find the database prepared by the process that started them.
  if (!isWorker()) await database.oneStartAtATime(() => prepareDatabase(database, media, config.mediaDir, log));
  if (config.workers > 1 && !isWorker()) {
    await database.close();
    superviseWorkers(config.workers, log);
    gatherWorkersMetrics();
    return;
  }
  const redis = config.redisUrl ? createRedis(config.redisUrl, { log }) : undefined;
  if (redis && !(await waitForRedis(redis))) {
    log.warn('Redis (REDIS_URL) does not answer: rate limits are kept in this process until it does');
  }
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    log,
  });
  const metrics = new Metrics();
  if (isWorker()) answerForAllWorkers(metrics);
  const app = await buildApp({ config, database, mailer, media, redis, loggerInstance: log, metrics });
  lockRegained = () => {
    log.warn('the database lock is held again: serving reads its counts from the database again');
    app.delivery.refresh({ counters: true }).catch((error: unknown) => log.error({ err: error }, 'reload failed'));
  };

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
  log.info(
    `Helium Ads is running on ${config.appUrl} (database: ${database.kind}${shared ? ', state shared through Redis' : ''}${isWorker() ? `, process ${process.pid}` : ''})`,
  );
  if (!config.stripe.secretKey) {
    // The demo's default: right on a laptop, free credits for any advertiser on a network that takes real money.
    log.warn(
      'no STRIPE_SECRET_KEY: card payments go to the test checkout, whose Pay button credits campaigns without any payment; set STRIPE_SECRET_KEY before taking real advertisers',
    );
  }
  if (!findFfmpeg()) {
    log.warn(
      'ffmpeg not found (FFMPEG_PATH, PATH): uploaded images are checked by their header only, videos get no poster',
    );
  }
}
