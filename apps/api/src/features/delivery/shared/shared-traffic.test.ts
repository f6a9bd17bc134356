import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, waitForRedis } from '../../../infra/redis.ts';
import { TEST_DRIVER } from '../../../../test/test-database.ts';
import { DEFAULT_TRAFFIC_LIMITS, TrafficFilter, type OpenRequest, type TrafficLimits } from '../traffic-filter.ts';
import { MailProxyRanges } from '../mail-proxies.ts';
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

  // The connection fails fast while not ready (no queue of commands): wait for it, unless it is ready already (its
  // 'ready' event may have gone by before this hook: waiting for the event alone timed out under load).
  beforeAll(async () => {
    expect(await waitForRedis(redis, 10_000)).toBe(true);
  });
  afterAll(async () => {
    const keys = await redis.keys(`hd:${namespace}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  describe('judges as the in-process filter does, verdict for verdict', () => {
    const GMAIL = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
    const READER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Thunderbird/133.0';
    // Documentation addresses standing for Google's published proxy ranges.
    const RANGES = MailProxyRanges.parse('[google]\n192.0.2.0/24\n');
    const LIMITS: TrafficLimits = {
      ...DEFAULT_TRAFFIC_LIMITS,
      requestsPerIpPerMinute: 12,
      pageviewsPerVisitorPerMinute: 3,
      pageviewsPerVisitorPerDay: 5,
      mailProxyOpensPerReaderPerIssue: 5,
      mailProxyOpensPerIssuePerDay: 10,
      opensPerVisitorPerMinute: 3,
      opensPerVisitorPerDay: 5,
    };
    const both = () => ({
      local: new TrafficFilter(LIMITS, 2 ** 20, undefined, undefined, RANGES),
      shared: new SharedTrafficFilter(
        new RedisScripts(redis),
        new SharedKeys(`${namespace}-${newId(4)}`),
        LIMITS,
        RANGES,
      ),
    });
    const at = (minute: number) => nowMs + minute * 60_000;

    it("newsletter opens: a proxy address over its own cap spends none of the issue's, a reader's refused opens none of the day's", async () => {
      const { local, shared } = both();
      const opens: Array<Omit<OpenRequest, 'publisherId' | 'day'>> = [
        // Proxy address 1 opens the issue 20 times (5 its cap), then address 2 once: the issue has spent 5 of 10.
        ...Array.from({ length: 20 }, () => ({
          ip: '192.0.2.1',
          ipHash: 'p1',
          visitor: 'p1',
          issue: 'i',
          userAgent: GMAIL,
          nowMs: at(0),
        })),
        { ip: '192.0.2.2', ipHash: 'p2', visitor: 'p2', issue: 'i', userAgent: GMAIL, nowMs: at(1) },
        // A reader opens 8 times in a minute (3 counted), then 4 times the next (2 more: 5 a day).
        ...Array.from({ length: 8 }, () => ({
          ip: '203.0.113.9',
          ipHash: 'r',
          visitor: 'r',
          issue: 'i',
          userAgent: READER,
          nowMs: at(2),
        })),
        ...Array.from({ length: 4 }, () => ({
          ip: '203.0.113.9',
          ipHash: 'r',
          visitor: 'r',
          issue: 'i',
          userAgent: READER,
          nowMs: at(3),
        })),
      ];
      const verdicts = { local: [] as unknown[], shared: [] as unknown[] };
      for (const open of opens) {
        verdicts.local.push(local.open({ ...open, publisherId: 7, day }));
        verdicts.shared.push(await shared.open({ ...open, publisherId: 7, day }));
      }
      expect(verdicts.local.slice(20, 21)).toEqual([null]);
      expect(verdicts.local.slice(21).filter((verdict) => verdict === null)).toHaveLength(5);
      expect(verdicts.shared).toEqual(verdicts.local);
    });

    it("pageviews: a pageview the address's or the visitor's minute refused counts for none of the visitor's day", async () => {
      const { local, shared } = both();
      const pageviews = [
        // 20 requests from one address in a minute (12 allowed), of which the visitor's own 3 a minute count.
        ...Array.from({ length: 20 }, () => ({ ipHash: 'a', visitor: 'v', nowMs: at(0) })),
        // The next minutes, from another address: the visitor's day (5) still has 2 left.
        ...Array.from({ length: 4 }, (_, index) => ({ ipHash: 'b', visitor: 'v', nowMs: at(1 + index) })),
      ];
      const verdicts = { local: [] as unknown[], shared: [] as unknown[] };
      for (const view of pageviews) {
        const request = { ...view, publisherId: 7, userAgent: 'Mozilla/5.0 Firefox/133.0', day };
        verdicts.local.push(local.pageview(request));
        verdicts.shared.push(await shared.pageview(request));
      }
      expect(verdicts.local.slice(20).filter((verdict) => verdict === null)).toHaveLength(2);
      expect(verdicts.shared).toEqual(verdicts.local);
    });
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
