import { Redis, type RedisOptions } from 'ioredis';

/** A command not answered within this time fails: a caller then uses its fallback rather than wait. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** A connection attempt that takes longer is given up (and tried again: `reconnectDelayMs`). */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** Reconnection attempts come quicker at first, then every 2 s for as long as Redis is away. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 2_000;

export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 100, REDIS_MAX_RECONNECT_DELAY_MS);
}

/** What the connections report of Redis going away and coming back (pino and Fastify's loggers fit). */
export interface RedisLog {
  warn(object: object, message: string): void;
  info(message: string): void;
}

/**
 * Options of a command connection that fails fast while Redis is away: no queue of commands waiting for a
 * connection (they fail at once), no retry of a command cut by a disconnection, a timeout on every command. It
 * reconnects by itself for ever, so a feature only has to fall back while calls fail.
 */
const FAIL_FAST: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  retryStrategy: reconnectDelayMs,
};

/** A subscriber's SUBSCRIBE waits for a connection, however long Redis is away (no retry limit): it is made once. */
const SUBSCRIBER: RedisOptions = {
  ...FAIL_FAST,
  maxRetriesPerRequest: null,
  enableOfflineQueue: true,
  // No timeout either: a SUBSCRIBE that timed out while queued would never be made again.
  commandTimeout: undefined,
  autoResubscribe: true,
};

/**
 * Logs one warning when the connection is lost or cannot be made (ioredis reports every failed attempt, about
 * one every 2 s), and one line when it is ready again. Without an `error` listener ioredis would print each.
 */
function reportOutages(redis: Redis, name: string, log: RedisLog | undefined): Redis {
  let away = false;
  const goneAway = (details: object) => {
    if (away) return;
    away = true;
    log?.warn(details, `${name}: Redis is unavailable; reconnecting until it answers`);
  };
  redis.on('error', (error: Error) => goneAway({ err: error }));
  // A connection lost, to be made again (not one closed on purpose): a server back within the first attempt's
  // delay reports no error.
  redis.on('reconnecting', (delayMs: number) => goneAway({ reconnectInMs: delayMs }));
  redis.on('ready', () => {
    if (!away) return;
    away = false;
    log?.info(`${name}: Redis answers again`);
  });
  return redis;
}

/**
 * The one way the server connects to Redis (REDIS_URL) for commands: rate limits, and whatever state the
 * instances share. Calls fail within REDIS_COMMAND_TIMEOUT_MS when Redis is away; see FAIL_FAST.
 */
export function createRedis(url: string, options: { log?: RedisLog; name?: string } = {}): Redis {
  return reportOutages(new Redis(url, FAIL_FAST), options.name ?? 'redis', options.log);
}

/**
 * A second connection, for pub/sub: a subscribed connection takes no other commands. Its SUBSCRIBE calls wait for
 * the connection (they are made once, not per request), and ioredis subscribes again after each reconnection.
 */
export function createRedisSubscriber(url: string, options: { log?: RedisLog; name?: string } = {}): Redis {
  return reportOutages(new Redis(url, SUBSCRIBER), options.name ?? 'redis subscriber', options.log);
}

/** The same, on the server of a command connection (a test's own, or one the caller made). */
export function subscriberLike(redis: Redis, options: { log?: RedisLog; name?: string } = {}): Redis {
  return reportOutages(redis.duplicate(SUBSCRIBER), options.name ?? 'redis subscriber', options.log);
}

export type RedisStatus = 'ok' | 'unavailable';

/** For /healthz: `ok` when the connection is ready and answers a PING in time, `unavailable` otherwise. */
export async function redisStatus(redis: Redis): Promise<RedisStatus> {
  if (redis.status !== 'ready') return 'unavailable';
  try {
    return (await redis.ping()) === 'PONG' ? 'ok' : 'unavailable';
  } catch {
    return 'unavailable';
  }
}

/** Waits (at most `timeoutMs`) for the first connection, so that a start does not begin on the fallbacks. */
export async function waitForRedis(redis: Redis, timeoutMs = REDIS_CONNECT_TIMEOUT_MS): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}

/** Closes a connection at the end: QUIT when it is up (pending replies are read), else at once. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}
