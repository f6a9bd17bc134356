import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Redis } from 'ioredis';
import { maintainEmbeddedDatabase, type Database, type DatabaseHandle } from '@helium/db';
import type { AppConfig, LoadedConfig } from './config.ts';
import { systemClock, type Clock } from './infra/clock.ts';
import { countedMailer, type Mailer } from './infra/mailer.ts';
import { Metrics } from './infra/metrics.ts';
import { expireValidationRequests } from './features/ad-validation/ad-validation.ts';
import { HashIds } from './infra/hash-ids.ts';
import type { MediaStorage } from './infra/media-storage.ts';
import { openMediaStorage } from './infra/database-media-storage.ts';
import { closeRedis, createRedis, createRedisSubscriber, subscriberLike, redisStatus } from './infra/redis.ts';
import { networkNamespace } from './features/delivery/shared/keys.ts';
import { withSessionSecret } from './infra/shared-secret.ts';
import { Scheduler } from './infra/scheduler.ts';
import { OutageLog } from './infra/outage-log.ts';
import { DatabaseJobClaims } from './infra/job-claims.ts';
import {
  pruneRawEvents,
  RAW_EVENT_RETENTION_EVERY_MS,
  RAW_EVENT_RETENTION_JOB,
} from './features/event-retention/raw-event-retention.ts';
import { DAILY_LEDGER_EVERY_MS, DAILY_LEDGER_JOB, DailyRevenueLedger } from './features/revenue-ledger/daily-ledger.ts';
import { MemoryCounts, RateLimiter, SharedCounts, type RateLimit } from './infra/rate-limiter.ts';
import type { SigninLimits } from './features/signin/signin-limits.ts';
import { AD_PREVIEWS_EVERY_MS, AD_PREVIEWS_JOB, fillMissingPreviews } from './features/ads/previews.ts';
import { MONEY_AUDIT_EVERY_MS, MONEY_AUDIT_JOB, MoneyAudit } from './features/money-audit/money-audit.ts';
import apiDocs from './http/api-docs.ts';
import compressAnswers from './http/compress-answers.ts';
import bearer, { API_TOKEN_RATE_LIMIT } from './http/bearer.ts';
import csrf from './http/csrf.ts';
import errors from './http/error-handler.ts';
import metricsRoute from './http/metrics-route.ts';
import session from './http/session.ts';
import webApp, { openToOtherSites, securityHeaders } from './http/web-app.ts';
import { requireContracts } from './http/route.ts';
import { DeliveryEngine, isStoreOutage } from './features/delivery/engine.ts';
import { IpRanges } from './features/delivery/ip-ranges.ts';
import type { TrafficLimits } from './features/delivery/traffic-filter.ts';
import servingRoutes from './features/delivery/serving-routes.ts';
import signinRoutes from './features/signin/routes.ts';
import accountRoutes from './features/account/routes.ts';
import userActivityRoutes from './features/user-activity/routes.ts';
import adminUsersRoutes from './features/admin-users/routes.ts';
import adsRoutes from './features/ads/routes.ts';
import uploadRoutes from './features/ads/upload-routes.ts';
import adminAdValidationRoutes from './features/ad-validation/admin-routes.ts';
import publisherAdValidationRoutes from './features/ad-validation/publisher-routes.ts';
import campaignActivityRoutes from './features/campaign-activity/routes.ts';
import adminActivityRoutes from './features/admin-activity/routes.ts';
import installationRoutes from './features/installation/routes.ts';
import performanceRoutes from './features/performance/routes.ts';
import mediaRoutes from './features/media/routes.ts';
import billingRoutes from './features/billing/routes.ts';
import adminBillingRoutes from './features/billing/admin-routes.ts';
import stripeRoutes from './features/stripe/routes.ts';
import stripeWebhookRoutes from './features/stripe/webhook-routes.ts';
import advertiserSettingsRoutes from './features/advertiser-settings/routes.ts';
import payoutRoutes from './features/payouts/routes.ts';
import adminPayoutRoutes from './features/payouts/admin-routes.ts';
import publisherStatsRoutes from './features/publisher-stats/routes.ts';
import adminStatsRoutes from './features/admin-stats/routes.ts';
import adminAccountsRoutes from './features/admin-accounts/routes.ts';
import networkSettingsRoutes from './features/network-settings/routes.ts';
import auditLogRoutes from './features/audit-log/routes.ts';
import invalidTrafficRoutes from './features/invalid-traffic/routes.ts';
import placementsRoutes from './features/placements/routes.ts';
import campaignCountriesRoutes from './features/campaign-countries/routes.ts';
import locationsRoutes from './features/locations/routes.ts';
import moneyAuditRoutes from './features/money-audit/routes.ts';
import apiTokensRoutes from './features/api-tokens/routes.ts';
import {
  LOW_CREDIT_ALERTS_JOB,
  MAIL_JOBS_EVERY_MS,
  MailReports,
  WEEKLY_REPORTS_JOB,
} from './features/mail-reports/mail-reports.ts';
import mailReportsRoutes from './features/mail-reports/routes.ts';
import unsubscribeRoutes from './features/mail-reports/unsubscribe-routes.ts';

/** The embedded database's upkeep: checkpoint, and vacuum when due (scheduler job name). */
export const EMBEDDED_MAINTENANCE_JOB = 'embedded-database-maintenance';

export type { SigninLimits };

/** What every route can reach through `app.ctx`. */
export interface AppContext {
  config: AppConfig;
  db: Database;
  database: DatabaseHandle;
  mailer: Mailer;
  clock: Clock;
  limiter: RateLimiter;
  signinLimits: SigninLimits;
  /** Uploaded media (MEDIA_STORAGE: DATA_DIR/media, or the database's media table). */
  media: MediaStorage;
  /** The Redis connection (REDIS_URL; infra/redis.ts: calls fail fast while Redis is away), if any. */
  redis: Redis | undefined;
  /** Hash ids for public links. */
  hashIds: HashIds;
  /** Timed jobs (started when the app is ready, stopped when it closes). */
  scheduler: Scheduler;
  /** The standing audit of the money: daily, and on an admin's demand. */
  moneyAudit: MoneyAudit;
  /** The weekly reports and low-credit alerts by e-mail (docs/emails.md). */
  mailReports: MailReports;
  /** This app's Prometheus metrics (GET /metrics). */
  metrics: Metrics;
}

export interface BuildAppOptions {
  /** The session secret, when loadConfig left it to the database, is read from it (infra/shared-secret.ts). */
  config: LoadedConfig;
  database: DatabaseHandle;
  mailer: Mailer;
  clock?: Clock;
  /** A Redis connection of the caller's (who closes it); else one to REDIS_URL, if set, closed with the app. */
  redis?: Redis;
  signinLimits?: Partial<SigninLimits>;
  /** Where uploaded media go; the storage MEDIA_STORAGE names when absent. */
  media?: MediaStorage;
  /** A pino logger; silent when absent (tests). */
  loggerInstance?: FastifyBaseLogger;
  /** Ad delivery: a fixed random source and traffic limits (tests), timers off. */
  delivery?: { random?: () => number; limits?: TrafficLimits; timers?: boolean };
  /** Timed jobs (tests): how often shared jobs look whether they are due, and how long a run's claim holds. */
  scheduler?: { pollMs?: number; leaseMs?: number };
  /** The app's metrics, when the caller shares them with a cluster's primary (main.ts); a new set by default. */
  metrics?: Metrics;
  /** Calls one personal API token may make per window (http/bearer.ts); API_TOKEN_RATE_LIMIT by default. */
  apiTokenLimit?: RateLimit;
}

const SIGNIN_WINDOW_MS = 15 * 60_000;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { database } = options;
  const metrics = options.metrics ?? new Metrics();
  const mailer = countedMailer(options.mailer, (outcome) => metrics.mail(outcome));
  const config = await withSessionSecret(options.config, database.db);
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
  });
  // Every answer counted by its route's pattern (added first: it covers every route registered below).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestAnswered(request.method, request.routeOptions.url, reply.statusCode);
    done();
  });
  const redis = options.redis ?? (config.redisUrl ? createRedis(config.redisUrl, { log: app.log }) : undefined);
  if (redis && !options.redis) app.addHook('onClose', async () => closeRedis(redis));
  // With Redis, limits are shared by every process, and kept per process while Redis is away (no 500).
  const limiter = await RateLimiter.register(
    app,
    redis ? new SharedCounts(redis, new MemoryCounts(clock), app.log) : new MemoryCounts(clock),
  );
  const hashIds = new HashIds(config.hashidsSalt);
  app.decorate('ctx', {
    config,
    db: database.db,
    database,
    mailer,
    clock,
    limiter,
    signinLimits: {
      perIp: { limit: config.signinLimitPerIp, windowMs: SIGNIN_WINDOW_MS },
      perEmail: { limit: config.signinLimitPerEmail, windowMs: SIGNIN_WINDOW_MS },
      ...options.signinLimits,
    },
    media: options.media ?? openMediaStorage(config, database),
    redis,
    hashIds,
    // On PostgreSQL several instances may share the database: each due run of a job is claimed by one of them.
    // The embedded database has one process (its folder lock), which runs every job itself.
    scheduler: new Scheduler({
      log: app.log,
      claims: database.kind === 'postgres' ? new DatabaseJobClaims(database.db, options.scheduler?.leaseMs) : undefined,
      pollMs: options.scheduler?.pollMs,
      onRun: (job, outcome, milliseconds) => metrics.jobRan(job, outcome, milliseconds),
    }),
    moneyAudit: new MoneyAudit({ db: database.db, mailer, clock, log: app.log, appUrl: config.appUrl }),
    mailReports: new MailReports({
      db: database.db,
      mailer,
      clock,
      log: app.log,
      appUrl: config.appUrl,
      secret: config.sessionSecret,
      hashIds,
    }),
    metrics,
  } satisfies AppContext);
  // A publisher request not answered within 24 hours counts as approved.
  // Approvals change which ads may be served: the delivery index is refreshed when any request expired.
  app.ctx.scheduler.every('ad-validation-timeouts', 60_000, async () => {
    const expired = await expireValidationRequests(database.db, clock.now());
    if (expired > 0) await app.delivery.servingChanged();
    return expired;
  });
  // Previews missing from ads stored before they existed (or whose upload could not make one), in the background.
  app.ctx.scheduler.every(
    AD_PREVIEWS_JOB,
    AD_PREVIEWS_EVERY_MS,
    () => fillMissingPreviews(database.db, app.ctx.media),
    {
      atStart: true,
    },
  );
  // One revenue entry per publisher per closed UTC day, soon after midnight and at start for missed days. It
  // first waits for the invalid-traffic set-asides already queued, so that a closed day's revenue never
  // includes traffic set aside just before midnight.
  const dailyLedger = new DailyRevenueLedger(database.db, clock);
  app.ctx.scheduler.every(
    DAILY_LEDGER_JOB,
    DAILY_LEDGER_EVERY_MS,
    async () => {
      await app.delivery.settle();
      return dailyLedger.run();
    },
    { atStart: true },
  );
  // Raw event rows older than RAW_EVENT_DAYS go, in chunks; the daily summaries stay (docs/configuration.md).
  app.ctx.scheduler.every(RAW_EVENT_RETENTION_JOB, RAW_EVENT_RETENTION_EVERY_MS, (signal) =>
    pruneRawEvents(database.db, { now: clock.now(), rawEventDays: config.rawEventDays, signal }),
  );
  // The money audit once a day, after the daily ledger has posted the day that closed (issue 32).
  app.ctx.scheduler.every(MONEY_AUDIT_JOB, MONEY_AUDIT_EVERY_MS, async () => {
    if (!(await app.ctx.moneyAudit.isDue())) return null;
    await app.ctx.scheduler.runNow(DAILY_LEDGER_JOB);
    return app.ctx.moneyAudit.run('schedule');
  });
  // The reports by e-mail (docs/emails.md): each mail recorded once, so an hourly look sends what is due. The weekly
  // reports are due once the week closed (Monday, UTC), after the daily ledger posted its Sunday (the balances).
  app.ctx.scheduler.every(WEEKLY_REPORTS_JOB, MAIL_JOBS_EVERY_MS, async () => {
    await app.ctx.scheduler.runNow(DAILY_LEDGER_JOB);
    return app.ctx.mailReports.run(WEEKLY_REPORTS_JOB);
  });
  app.ctx.scheduler.every(LOW_CREDIT_ALERTS_JOB, MAIL_JOBS_EVERY_MS, () =>
    app.ctx.mailReports.run(LOW_CREDIT_ALERTS_JOB),
  );
  // The embedded database has no checkpointer and no autovacuum (maintenance.ts says why it matters): its
  // upkeep runs at start and every 5 minutes, as a PostgreSQL server's checkpoints do by default. Per process:
  // the database lives in this one.
  if (database.kind === 'pglite') {
    app.ctx.scheduler.every(
      EMBEDDED_MAINTENANCE_JOB,
      5 * 60_000,
      async () => {
        const result = await maintainEmbeddedDatabase(database);
        if (result?.vacuumed) app.log.info(result, 'embedded database: old transaction ids frozen');
        else app.log.debug(result, 'embedded database: checkpoint');
        return result;
      },
      { atStart: true, eachProcess: true },
    );
  }
  app.addHook('onReady', async () => app.ctx.scheduler.start());
  app.addHook('onClose', async () => app.ctx.scheduler.stop());
  app.decorateRequest('actor', null);
  // PostgreSQL and Redis: several instances may serve this network, and share what delivery decides by.
  const shared =
    database.kind === 'postgres' && redis
      ? {
          redis,
          // Waiting for Redis however long it is away (a fail-fast copy of the command connection would give up
          // its one SUBSCRIBE if Redis is down at start, and never hear another instance's changes).
          subscriber:
            config.redisUrl && !options.redis
              ? createRedisSubscriber(config.redisUrl, { log: app.log })
              : subscriberLike(redis, { log: app.log }),
          namespace: await networkNamespace(database.db, config.sessionSecret),
        }
      : undefined;
  if (shared) app.addHook('onClose', async () => shared.subscriber.disconnect());
  // Redis or the database away fails every batch and every beacon: the log says so once a minute.
  const deliveryOutages = new OutageLog({ isOutage: isStoreOutage });
  const delivery = new DeliveryEngine({
    db: database.db,
    executePrepared: database.executePrepared,
    clock,
    secret: config.sessionSecret,
    baseUrl: config.appUrl,
    random: options.delivery?.random,
    limits: options.delivery?.limits,
    // Read once at start: a file that cannot be read or parsed stops the start with its path and line.
    dataCentres: config.datacenterIpRangesFile ? IpRanges.load(config.datacenterIpRangesFile) : undefined,
    onError: (error) => {
      if (deliveryOutages.shouldLog(error, 'delivery'))
        app.log.error({ err: error }, 'ad delivery: reading or writing events failed');
    },
    // PGlite's one thread runs statements in the order received; a PostgreSQL pool does not.
    batchesInFlight: database.kind === 'pglite' ? 2 : 1,
    shared,
    metrics,
  });
  metrics.watchReservations(() => delivery.reservationsHeld());
  await delivery.start({ timers: options.delivery?.timers });
  app.decorate('delivery', delivery);
  // Graceful stop: every queued event is written before the database closes.
  app.addHook('onClose', async () => delivery.close());

  requireContracts(app);
  await app.register(errors);
  await app.register(fastifyCookie);
  // Outside the product's scope: a scraper needs no session, anti-forgery token or web app.
  await app.register(metricsRoute);

  // The product's own pages and calls, with its security headers (CSP, no framing, HSTS under https). The
  // public serving routes below are outside this scope: publishers' pages load them from other origins, and
  // they are the hot path, where helmet's per-request work would only cost time.
  await app.register(async function product(scope) {
    await scope.register(securityHeaders);

    // 503 only without a database (nothing can be served then); mail that cannot go out, or a configured Redis
    // that does not answer, is reported as "degraded", without taking the ad serving out of a load balancer's
    // rotation (docs/configuration.md, "Health").
    scope.get('/healthz', async (_request, reply) => {
      try {
        await database.ping();
      } catch {
        return reply.code(503).send({ status: 'databaseUnreachable' });
      }
      const [mail, redisState] = await Promise.all([
        mailer.isHealthy().then((healthy) => (healthy ? 'ok' : 'unavailable')),
        redis ? redisStatus(redis) : 'notConfigured',
      ]);
      const degraded = mail !== 'ok' || redisState === 'unavailable';
      return { status: degraded ? 'degraded' : 'ok', database: database.kind, mail, redis: redisState };
    });

    // The API calls, in one scope whose hooks run on every route the router matched in it, however its URL
    // was spelled (`/%61pi/...` matches `/api/...`): a personal API token (Authorization: Bearer, read calls only),
    // else the anti-forgery check, then the session lookup.
    // requireContracts refuses at start any /api route registered outside it. Each feature registers its
    // calls from their contracts (http/route.ts), with the gate each contract names.
    await scope.register(async function apiCalls(api) {
      await api.register(compressAnswers);
      await api.register(bearer, { limit: options.apiTokenLimit ?? API_TOKEN_RATE_LIMIT });
      await api.register(csrf);
      await api.register(session);
      for (const feature of [
        signinRoutes,
        accountRoutes,
        userActivityRoutes,
        adminUsersRoutes,
        adsRoutes,
        uploadRoutes,
        adminAdValidationRoutes,
        publisherAdValidationRoutes,
        campaignActivityRoutes,
        adminActivityRoutes,
        installationRoutes,
        performanceRoutes,
        billingRoutes,
        adminBillingRoutes,
        stripeRoutes,
        stripeWebhookRoutes,
        advertiserSettingsRoutes,
        payoutRoutes,
        adminPayoutRoutes,
        publisherStatsRoutes,
        adminStatsRoutes,
        adminAccountsRoutes,
        networkSettingsRoutes,
        auditLogRoutes,
        invalidTrafficRoutes,
        placementsRoutes,
        campaignCountriesRoutes,
        locationsRoutes,
        moneyAuditRoutes,
        apiTokensRoutes,
        mailReportsRoutes,
      ]) {
        await api.register(feature);
      }
      // GET /api/openapi.json, generated from the contracts, and its reference page GET /api/docs.
      await api.register(apiDocs);
    });

    // The reports' one-click unsubscribe address: no session, no anti-forgery token (RFC 8058).
    await scope.register(unsubscribeRoutes);

    // The built web app, and index.html for any other address (its not-found handler covers the whole app).
    await scope.register(webApp);
  });

  // Public serving and media: no session, no anti-forgery, loaded by publishers' pages from other origins.
  await app.register(async function publicServing(open) {
    openToOtherSites(open);
    await open.register(servingRoutes);
    await open.register(mediaRoutes);
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    delivery: DeliveryEngine;
  }
}
