import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Redis } from 'ioredis';
import type { Database, DatabaseHandle } from '@helium/db';
import type { AppConfig } from './config.ts';
import { systemClock, type Clock } from './services/clock.ts';
import type { Mailer } from './services/mailer.ts';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore, type RateLimit } from './services/rate-limiter.ts';
import csrf from './plugins/csrf.ts';
import errors from './plugins/errors.ts';
import session from './plugins/session.ts';
import webApp from './plugins/web-app.ts';
import adminRoutes from './routes/admin/index.ts';
import commonRoutes from './routes/common/index.ts';
import signoutRoutes from './routes/common/signout.ts';

export interface SigninLimits {
  perIp: RateLimit;
  perEmail: RateLimit;
}

/** What every route can reach through `app.ctx`. */
export interface AppContext {
  config: AppConfig;
  db: Database;
  database: DatabaseHandle;
  mailer: Mailer;
  clock: Clock;
  limiter: RateLimiter;
  signinLimits: SigninLimits;
}

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  mailer: Mailer;
  clock?: Clock;
  redis?: Redis;
  signinLimits?: Partial<SigninLimits>;
  /** A pino logger; silent when absent (tests). */
  loggerInstance?: FastifyBaseLogger;
}

const SIGNIN_WINDOW_MS = 15 * 60_000;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database, mailer, redis } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
  });
  app.decorate('ctx', {
    config,
    db: database.db,
    database,
    mailer,
    clock,
    limiter: new RateLimiter(redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore(clock)),
    signinLimits: {
      perIp: { limit: config.signinLimitPerIp, windowMs: SIGNIN_WINDOW_MS },
      perEmail: { limit: config.signinLimitPerEmail, windowMs: SIGNIN_WINDOW_MS },
      ...options.signinLimits,
    },
  } satisfies AppContext);
  app.decorateRequest('actor', null);

  await app.register(errors);
  await app.register(fastifyCookie);
  await app.register(csrf);
  await app.register(session);

  app.get('/healthz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: database.kind };
    } catch {
      return reply.code(503).send({ status: 'databaseUnreachable' });
    }
  });

  await app.register(commonRoutes, { prefix: '/api/common' });
  await app.register(signoutRoutes, { prefix: '/api' });
  await app.register(adminRoutes, { prefix: '/api/admin' });

  await app.register(webApp);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
