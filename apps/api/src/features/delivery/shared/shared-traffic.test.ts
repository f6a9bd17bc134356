import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../../infra/redis.ts';
import { TEST_DRIVER } from '../../../../test/test-database.ts';
import { DEFAULT_TRAFFIC_LIMITS } from '../traffic-filter.ts';
import { newId } from '../tokens.ts';
import { SharedKeys } from './keys.ts';
import { RedisScripts } from './redis-scripts.ts';
import { SharedTrafficFilter } from './shared-traffic.ts';

/*
 * The traffic filter's counters in Redis, on the machine's Redis under a namespace of their own: each key a pageview
 * writes expires, and the one-address rule still trips, though the publisher's visitors are only counted once an
 * address brings more than one.
 */

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(TEST_DRIVER === 'postgres' && redisUrl)('the shared traffic filter', () => {
  const redis = createRedis(redisUrl!);
  const namespace = `test-${newId(6)}`;
  const filter = new SharedTrafficFilter(new RedisScripts(redis), new SharedKeys(namespace), {
    ...DEFAULT_TRAFFIC_LIMITS,
    oneIpMinVisitors: 4,
    oneIpShare: 0.4,
  });
  const day = '2026-11-27';
  const nowMs = Date.parse(`${day}T10:00:30Z`);
  const pageview = (ipHash: string, visitor: string) =>
    filter.pageview({ publisherId: 7, visitor, ipHash, userAgent: 'Mozilla/5.0 Firefox/133.0', day, nowMs });

  // The connection fails fast while not ready (no queue of commands): wait for it.
  beforeAll(() => new Promise((resolve) => redis.once('ready', resolve)));
  afterAll(async () => {
    const keys = await redis.keys(`hd:${namespace}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('gives every key a pageview writes an expiry, the same visitor again included', async () => {
    expect(await pageview('ip-a', 'visitor-1')).toBeNull();
    expect(await pageview('ip-a', 'visitor-1')).toBeNull();
    const keys = await redis.keys(`hd:${namespace}:*`);
    expect(keys.length).toBeGreaterThanOrEqual(7);
    const ttls = await Promise.all(keys.map((key) => redis.ttl(key)));
    expect(ttls.every((ttl) => ttl > 0)).toBe(true);
  });

  it("sets aside an address that brings too large a share of the publisher's visitors (oneIp)", async () => {
    expect(await pageview('ip-b', 'visitor-2')).toBeNull();
    expect(await pageview('ip-c', 'visitor-3')).toBeNull();
    // ip-a: visitor-1, then visitor-4: 2 of the publisher's 4 visitors, a share of 0.5 over 0.4.
    expect(await pageview('ip-a', 'visitor-4')).toBe('oneIp');
    expect(await pageview('ip-a', 'visitor-5')).toBe('oneIp');
    expect(await pageview('ip-b', 'visitor-6')).toBeNull();
  });
});
