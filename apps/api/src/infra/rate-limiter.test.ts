import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ManualClock } from './clock.ts';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore } from './rate-limiter.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 }) : null;

afterAll(() => {
  redis?.disconnect();
});

describe('rate limiter', () => {
  it('counts hits in fixed windows in memory', async () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const limiter = new RateLimiter(new MemoryRateLimitStore(clock));
    const rule = { limit: 2, windowMs: 1000 };
    expect([await limiter.allow('k', rule), await limiter.allow('k', rule), await limiter.allow('k', rule)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await limiter.allow('other', rule)).toBe(true);
    clock.advance(1000);
    expect(await limiter.allow('k', rule)).toBe(true);
  });

  it('counts failures only when told (record), and reads without counting (isExhausted)', async () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const limiter = new RateLimiter(new MemoryRateLimitStore(clock));
    const rule = { limit: 2, windowMs: 1000 };
    expect(await limiter.isExhausted('f', rule)).toBe(false);
    expect(await limiter.isExhausted('f', rule)).toBe(false);
    await limiter.record('f', rule);
    expect(await limiter.isExhausted('f', rule)).toBe(false);
    await limiter.record('f', rule);
    expect(await limiter.isExhausted('f', rule)).toBe(true);
    clock.advance(1000);
    expect(await limiter.isExhausted('f', rule)).toBe(false);
  });

  // Runs where a Redis server is given (CI sets TEST_REDIS_URL when one answers on 127.0.0.1:6379).
  it.runIf(redis)('shares counts through Redis between limiter instances', async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    const rule = { limit: 2, windowMs: 5000 };
    const first = new RateLimiter(new RedisRateLimitStore(redis as Redis));
    const second = new RateLimiter(new RedisRateLimitStore(redis as Redis));
    expect(await first.allow(key, rule)).toBe(true);
    expect(await second.allow(key, rule)).toBe(true);
    expect(await first.allow(key, rule)).toBe(false);
    const ttl = await (redis as Redis).pttl(`rl:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it.runIf(redis)('reads counts through Redis without adding to them', async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    const rule = { limit: 2, windowMs: 5000 };
    const first = new RateLimiter(new RedisRateLimitStore(redis as Redis));
    const second = new RateLimiter(new RedisRateLimitStore(redis as Redis));
    expect(await second.isExhausted(key, rule)).toBe(false);
    await first.record(key, rule);
    expect(await second.isExhausted(key, rule)).toBe(false);
    await first.record(key, rule);
    expect(await second.isExhausted(key, rule)).toBe(true);
    expect(await (redis as Redis).get(`rl:${key}`)).toBe('2');
  });
});
