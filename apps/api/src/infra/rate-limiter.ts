import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';

/** Counts hits per key in fixed windows; shared through Redis when several API processes run. */
export interface RateLimitStore {
  /** Adds one hit and answers how many the key has in the current window. */
  hit(key: string, windowMs: number): Promise<number>;
  /** How many hits the key has in the current window, without adding one. */
  count(key: string, windowMs: number): Promise<number>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  constructor(private readonly clock: Clock) {}

  async hit(key: string, windowMs: number): Promise<number> {
    const now = this.clock.now().getTime();
    const current = this.windows.get(key);
    if (!current || now - current.startedAt >= windowMs) {
      if (this.windows.size > 100_000) this.evictExpired(now, windowMs);
      this.windows.set(key, { startedAt: now, count: 1 });
      return 1;
    }
    current.count += 1;
    return current.count;
  }

  async count(key: string, windowMs: number): Promise<number> {
    const current = this.windows.get(key);
    return current && this.clock.now().getTime() - current.startedAt < windowMs ? current.count : 0;
  }

  private evictExpired(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (now - window.startedAt >= windowMs) this.windows.delete(key);
  }
}

/** The counts in Redis, so that every API process sees the same ones. Its calls throw while Redis is away. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowMs: number): Promise<number> {
    const redisKey = `rl:${key}`;
    const results = await this.redis.multi().incr(redisKey).pexpire(redisKey, windowMs, 'NX').exec();
    return Number(results?.[0]?.[1] ?? 0);
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(`rl:${key}`)) ?? 0);
  }
}

/** How long the limits stay in the process after a Redis call failed on a connection that is up. */
export const RETRY_SHARED_AFTER_MS = 2_000;

/**
 * Redis while it answers, this process's own counts while it does not: a rate limit keeps working (per process)
 * instead of answering 500, with one warning per outage, and the counts are shared again once Redis answers
 * (docs/decisions.md, "Redis going away"). Counts made during the outage stay in the process.
 */
export class SharedRateLimitStore implements RateLimitStore {
  private usingFallback = false;
  /** After a call that failed on a connection still up (a timeout): Redis is not asked again before then. */
  private skipSharedUntil = 0;
  private readonly shared: RedisRateLimitStore;

  constructor(
    private readonly redis: Redis,
    private readonly fallback: RateLimitStore,
    private readonly log?: { warn(object: object, message: string): void; info(message: string): void },
  ) {
    this.shared = new RedisRateLimitStore(redis);
  }

  /** True while the counts are kept in this process (for tests and diagnosis). */
  get isFallingBack(): boolean {
    return this.usingFallback;
  }

  hit(key: string, windowMs: number): Promise<number> {
    return this.use((store) => store.hit(key, windowMs));
  }

  count(key: string, windowMs: number): Promise<number> {
    return this.use((store) => store.count(key, windowMs));
  }

  private async use(call: (store: RateLimitStore) => Promise<number>): Promise<number> {
    // Not connected: no call is tried (it would fail at once anyway, see infra/redis.ts). Connected but timing
    // out: each request would wait the command timeout, so Redis is asked again only after a pause.
    if (this.redis.status !== 'ready') {
      this.fallBack(new Error(`Redis connection ${this.redis.status}`));
    } else if (Date.now() >= this.skipSharedUntil) {
      try {
        const answer = await call(this.shared);
        if (this.usingFallback) {
          this.usingFallback = false;
          this.log?.info('rate limits: counted in Redis again, shared by every process');
        }
        return answer;
      } catch (error) {
        this.skipSharedUntil = Date.now() + RETRY_SHARED_AFTER_MS;
        this.fallBack(error);
      }
    }
    return call(this.fallback);
  }

  private fallBack(error: unknown): void {
    if (this.usingFallback) return;
    this.usingFallback = true;
    this.log?.warn({ err: error }, 'rate limits: Redis unavailable, counting in this process until it answers');
  }
}

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export class RateLimiter {
  constructor(readonly store: RateLimitStore) {}

  /** True when the key is still within its limit after counting this hit. */
  async allow(key: string, rule: RateLimit): Promise<boolean> {
    return (await this.store.hit(key, rule.windowMs)) <= rule.limit;
  }

  /**
   * True when the key has used up its limit, without counting anything: for what is counted only when it
   * turns out to be a failure (`record` afterwards), such as a wrong sign-in code.
   */
  async isExhausted(key: string, rule: RateLimit): Promise<boolean> {
    return (await this.store.count(key, rule.windowMs)) >= rule.limit;
  }

  /** Counts one hit without asking (see `isExhausted`). */
  async record(key: string, rule: RateLimit): Promise<void> {
    await this.store.hit(key, rule.windowMs);
  }
}
