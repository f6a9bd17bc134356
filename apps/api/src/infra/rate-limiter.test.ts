import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { MemoryCounts, RateLimiter, SharedCounts, type CountStore, type RateLimit } from './rate-limiter.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 }) : null;
const apps: Array<ReturnType<typeof Fastify>> = [];

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  redis?.disconnect();
});

/**
 * A server whose one route applies `rule` through RateLimiter as a feature does:
 * `allow`, `isExhausted` or `record` the key in the URL, answering what the rule answered.
 */
async function limitedServer(counts: CountStore, rule: RateLimit) {
  const app = Fastify();
  apps.push(app);
  const limits = (await RateLimiter.register(app, counts)).rule(rule);
  app.get<{ Params: { call: 'allow' | 'isExhausted' | 'record'; key: string } }>('/:call/:key', async (request) => ({
    answer: (await limits[request.params.call](request, request.params.key)) ?? null,
  }));
  await app.ready();
  const call = async (name: 'allow' | 'isExhausted' | 'record', key: string) =>
    (await app.inject({ method: 'GET', url: `/${name}/${key}` })).json().answer as boolean | null;
  return {
    allow: (key: string) => call('allow', key),
    isExhausted: (key: string) => call('isExhausted', key),
    record: (key: string) => call('record', key),
  };
}

describe('rate limiter (@fastify/rate-limit with the app clock or Redis)', () => {
  it('counts hits in fixed windows in memory, on the app clock', async () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const server = await limitedServer(new MemoryCounts(clock), { limit: 2, windowMs: 1000 });
    expect([await server.allow('k'), await server.allow('k'), await server.allow('k')]).toEqual([true, true, false]);
    expect(await server.allow('other')).toBe(true);
    clock.advance(999);
    expect(await server.allow('k')).toBe(false);
    clock.advance(1);
    expect(await server.allow('k')).toBe(true);
  });

  it('counts failures only when told (record), and reads without counting (isExhausted)', async () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const server = await limitedServer(new MemoryCounts(clock), { limit: 2, windowMs: 1000 });
    expect(await server.isExhausted('f')).toBe(false);
    expect(await server.isExhausted('f')).toBe(false);
    await server.record('f');
    expect(await server.isExhausted('f')).toBe(false);
    await server.record('f');
    expect(await server.isExhausted('f')).toBe(true);
    clock.advance(1000);
    expect(await server.isExhausted('f')).toBe(false);
  });

  it('counts in the process while Redis is not connected', async () => {
    const away = new Redis('redis://127.0.0.1:1', { lazyConnect: true });
    const counts = new SharedCounts(away, new MemoryCounts(new ManualClock()));
    const server = await limitedServer(counts, { limit: 1, windowMs: 60_000 });
    expect([await server.allow('k'), await server.allow('k')]).toEqual([true, false]);
    expect(counts.isFallingBack).toBe(true);
    away.disconnect();
  });

  // Runs where a Redis server is given (CI sets TEST_REDIS_URL when one answers on 127.0.0.1:6379).
  describe.runIf(redis)('through Redis', () => {
    const shared = async (rule: RateLimit) => {
      if (redis!.status === 'wait') await redis!.connect();
      const counts = new SharedCounts(redis!, new MemoryCounts(new ManualClock()));
      return { counts, server: await limitedServer(counts, rule) };
    };

    it('shares counts between servers, in a key that expires with its window', async () => {
      const key = `test:${Date.now()}:${Math.random()}`;
      const rule = { limit: 2, windowMs: 5000 };
      const [first, second] = [await shared(rule), await shared(rule)];
      expect(await first.server.allow(key)).toBe(true);
      expect(await second.server.allow(key)).toBe(true);
      expect(await first.server.allow(key)).toBe(false);
      expect(first.counts.isFallingBack).toBe(false);
      const ttl = await redis!.pttl(`rl:${key}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5000);
    });

    it('reads counts through Redis without adding to them', async () => {
      const key = `test:${Date.now()}:${Math.random()}`;
      const rule = { limit: 2, windowMs: 5000 };
      const [first, second] = [await shared(rule), await shared(rule)];
      expect(await second.server.isExhausted(key)).toBe(false);
      await first.server.record(key);
      expect(await second.server.isExhausted(key)).toBe(false);
      await first.server.record(key);
      expect(await second.server.isExhausted(key)).toBe(true);
      expect(await redis!.get(`rl:${key}`)).toBe('2');
    });
  });
});
