import fastifyRateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';

export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** What @fastify/rate-limit asks of a store: add one hit (`incr`) or read (`read`) a key's count in its window. */
type StoreAnswer = (error: Error | null, result?: { current: number; ttl: number }) => void;
export interface CountStore {
  incr(key: string, answer: StoreAnswer, windowMs: number, max: number): void;
  read(key: string, answer: StoreAnswer, windowMs: number, max: number): void;
  /** The store of one rule (the library asks for one per rule): this one, the keys naming their rule. */
  child(): CountStore;
}

/**
 * This process's counts, in fixed windows on the app's clock. The library's LocalStore reads `Date.now()`,
 * while every timed rule of the product runs on its Clock (tests move it to open the next window).
 */
export class MemoryCounts implements CountStore {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  constructor(private readonly clock: Clock) {}

  child(): CountStore {
    return this;
  }

  incr(key: string, answer: StoreAnswer, windowMs: number): void {
    const now = this.clock.now().getTime();
    let current = this.windows.get(key);
    if (!current || now - current.startedAt >= windowMs) {
      if (this.windows.size > 100_000) this.evictExpired(now, windowMs);
      current = { startedAt: now, count: 0 };
      this.windows.set(key, current);
    }
    current.count += 1;
    answer(null, { current: current.count, ttl: current.startedAt + windowMs - now });
  }

  read(key: string, answer: StoreAnswer, windowMs: number): void {
    const now = this.clock.now().getTime();
    const current = this.windows.get(key);
    const alive = current && now - current.startedAt < windowMs;
    answer(null, alive ? { current: current.count, ttl: current.startedAt + windowMs - now } : { current: 0, ttl: 0 });
  }

  private evictExpired(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (now - window.startedAt >= windowMs) this.windows.delete(key);
  }
}

/** How long the limits stay in the process after a Redis call failed on a connection that is up. */
export const RETRY_SHARED_AFTER_MS = 2_000;

/**
 * The library's RedisStore while Redis answers, this process's own counts while it does not: a limit keeps working
 * (per process) instead of answering 500, with one warning per outage, and the counts are shared again once Redis
 * answers (docs/decisions.md, "Redis going away"). The library's `skipOnError` would let every call through instead.
 */
export class SharedCounts implements CountStore {
  private usingFallback = false;
  /** After a call that failed on a connection still up (a timeout): Redis is not asked again before then. */
  private skipSharedUntil = 0;
  private readonly shared: CountStore;

  constructor(
    private readonly redis: Redis,
    private readonly fallback: CountStore,
    private readonly log?: { warn(object: object, message: string): void; info(message: string): void },
  ) {
    // The library's store, its counting script run by Redis; keys under `rl:`, as before it.
    this.shared = new RedisStore(false, false, redis, 'rl:');
  }

  /** True while the counts are kept in this process (for tests and diagnosis). */
  get isFallingBack(): boolean {
    return this.usingFallback;
  }

  child(): CountStore {
    return this;
  }

  incr(key: string, answer: StoreAnswer, windowMs: number, max: number): void {
    this.use('incr', key, answer, windowMs, max);
  }

  read(key: string, answer: StoreAnswer, windowMs: number, max: number): void {
    this.use('read', key, answer, windowMs, max);
  }

  private use(method: 'incr' | 'read', key: string, answer: StoreAnswer, windowMs: number, max: number): void {
    const inProcess = () => this.fallback[method](key, answer, windowMs, max);
    // Not connected: no call is tried (it would fail at once anyway, see infra/redis.ts). Connected but timing
    // out: each request would wait the command timeout, so Redis is asked again only after a pause.
    if (this.redis.status !== 'ready') {
      this.fallBack(new Error(`Redis connection ${this.redis.status}`));
      return inProcess();
    }
    if (Date.now() < this.skipSharedUntil) return inProcess();
    this.shared[method](
      key,
      (error, result) => {
        if (error) {
          this.skipSharedUntil = Date.now() + RETRY_SHARED_AFTER_MS;
          this.fallBack(error);
          return inProcess();
        }
        if (this.usingFallback) {
          this.usingFallback = false;
          this.log?.info('rate limits: counted in Redis again, shared by every process');
        }
        answer(null, result);
      },
      windowMs,
      max,
    );
  }

  private fallBack(error: unknown): void {
    if (this.usingFallback) return;
    this.usingFallback = true;
    this.log?.warn({ err: error }, 'rate limits: Redis unavailable, counting in this process until it answers');
  }
}

/** The key a rule counts under, carried to the library's keyGenerator on a view of the request. */
const LIMIT_KEY = Symbol('rate limit key');
type KeyedRequest = FastifyRequest & { [LIMIT_KEY]: string };

/** One limit (count and window), counted per key by @fastify/rate-limit. */
export interface RateLimitRule {
  /** Counts this hit, and answers whether the key is still within its limit. */
  allow(request: FastifyRequest, key: string): Promise<boolean>;
  /**
   * Whether the key has used up its limit, without counting anything: for what is counted only when it turns out
   * to be a failure (`record` afterwards), such as a wrong sign-in code.
   */
  isExhausted(request: FastifyRequest, key: string): Promise<boolean>;
  /** Counts one hit without asking (see `isExhausted`). */
  record(request: FastifyRequest, key: string): Promise<void>;
}

/**
 * The app's rate limits, through @fastify/rate-limit's `createRateLimit` (its Redis store's script when REDIS_URL
 * is set, shared by every process). Keys are named by the features (sign-in's per address, per e-mail and per
 * inbox, uploads' per advertiser), not the plugin's per-route hook: a refusal is answered by the call in its shape.
 */
export class RateLimiter {
  private constructor(
    private readonly app: FastifyInstance,
    /** Where the counts are (SharedCounts with Redis). */
    readonly counts: CountStore,
  ) {}

  static async register(app: FastifyInstance, counts: CountStore): Promise<RateLimiter> {
    // The library builds its store with `new`: this "constructor" answers ours, and every rule shares it.
    const store = function theCounts() {
      return counts;
    } as unknown as FastifyRateLimitStoreCtor;
    await app.register(fastifyRateLimit, { global: false, store });
    return new RateLimiter(app, counts);
  }

  rule(rule: RateLimit): RateLimitRule {
    const check = this.app.createRateLimit({
      max: rule.limit,
      timeWindow: rule.windowMs,
      keyGenerator: (request) => (request as KeyedRequest)[LIMIT_KEY],
    });
    const keyed = (request: FastifyRequest, key: string) =>
      Object.create(request, { [LIMIT_KEY]: { value: key } }) as FastifyRequest;
    return {
      async allow(request, key) {
        const answer = await check(keyed(request, key));
        return answer.isAllowed || !answer.isExceeded;
      },
      async isExhausted(request, key) {
        const answer = await check(keyed(request, key), { increment: false });
        return !answer.isAllowed && answer.remaining === 0;
      },
      async record(request, key) {
        await check(keyed(request, key));
      },
    };
  }
}
