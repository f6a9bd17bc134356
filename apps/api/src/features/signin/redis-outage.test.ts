import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { freePort, HAS_REDIS_SERVER, TestRedisServer, waitFor } from '../../../test/redis-server.ts';
import type { SharedCounts } from '../../infra/rate-limiter.ts';

/** Sign-in calls one address may make in these tests' window: the limit every test below runs into. */
const PER_IP = 3;
const LIMITS = {
  perIp: { limit: PER_IP, windowMs: 60_000 },
  perEmail: { limit: 100, windowMs: 60_000 },
};

/** A logger whose lines the test reads. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines, said: (text: string) => lines.filter((line) => line.msg.includes(text)).length };
}

/**
 * A sign-in that waits on Redis is slow: ioredis's defaults queued the call until a connection came, 10 s of
 * reconnection attempts on a closed port, then answered 500. Fail-fast calls take milliseconds; this leaves room
 * for a loaded machine.
 */
const PROMPT_MS = 2000;

/** Step 1 of sign-in, with how long it took (its anti-forgery token fetched before). */
async function askForCode(client: TestClient, email = 'nobody@demo.test') {
  if (!client.cookies.has('XSRF-TOKEN')) await client.csrf();
  const started = Date.now();
  const response = await client.post('/api/common/signin', { step: 1, email });
  return { status: response.statusCode, body: response.json(), ms: Date.now() - started };
}

/** The statuses of `count` step-1 calls from `client`, one after the other. */
async function statuses(client: TestClient, count: number) {
  const answers = [];
  for (let i = 0; i < count; i += 1) answers.push((await askForCode(client, `user${i}@demo.test`)).status);
  return answers;
}

const health = async (t: TestApp) => (await t.app.inject({ method: 'GET', url: '/healthz' })).json();
const isFallingBack = (t: TestApp) => (t.app.ctx.limiter.counts as SharedCounts).isFallingBack;

describe('with REDIS_URL set and nothing listening there', () => {
  let t: TestApp;
  const log = recordingLogger();
  beforeAll(async () => {
    t = await buildTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
      signinLimits: LIMITS,
      loggerInstance: log.logger,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sign-in step 1 answers at once as usual (not 500), and its limits still hold, counted in the process', async () => {
    const client = t.client('10.9.0.1');
    const first = await askForCode(client, 'admin@demo.test');
    expect(first).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(first.ms).toBeLessThan(PROMPT_MS);
    expect(await statuses(client, PER_IP)).toEqual([...Array(PER_IP - 1).fill(200), 429]);
    expect(isFallingBack(t)).toBe(true);
    // Another address is not affected.
    expect((await askForCode(t.client('10.9.0.2'))).status).toBe(200);
  });

  it('says so once in the log, not once per request', () => {
    expect(log.said('rate limits: Redis unavailable, counting in this process')).toBe(1);
    // Once per connection: the command one, and on PostgreSQL the pub/sub one that shares serving changes.
    expect(log.said('redis: Redis is unavailable; reconnecting')).toBe(1);
    expect(log.said('redis subscriber: Redis is unavailable; reconnecting')).toBeLessThanOrEqual(1);
  });

  it('/healthz answers 200 "degraded" with redis unavailable, so that serving stays in rotation', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'degraded', redis: 'unavailable', mail: 'ok' });
  });
});

/**
 * Two instances (each its own process state) on one database and one Redis server of the test's own, which is
 * killed and started again (empty) in the middle.
 */
describe.runIf(HAS_REDIS_SERVER)('with a Redis shared by two instances, that goes away and comes back', () => {
  let redis: TestRedisServer;
  let first: TestApp;
  let second: TestApp;
  const log = recordingLogger();
  beforeAll(async () => {
    redis = await TestRedisServer.start();
    first = await buildTestApp({ env: { REDIS_URL: redis.url }, signinLimits: LIMITS, loggerInstance: log.logger });
    second = await buildTestApp({ shareDatabaseWith: first, env: { REDIS_URL: redis.url }, signinLimits: LIMITS });
    await waitFor(async () => (await health(first)).redis === 'ok' && (await health(second)).redis === 'ok', 'Redis');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await redis?.kill();
  });

  /** Calls from one address spread over both instances: the last is refused only if they share the count. */
  async function spreadOverBoth(ip: string) {
    return [
      (await askForCode(first.client(ip))).status,
      (await askForCode(second.client(ip))).status,
      (await askForCode(first.client(ip))).status,
      (await askForCode(second.client(ip))).status,
    ];
  }

  it('shares the limits between instances while Redis answers; /healthz says ok', async () => {
    expect(await spreadOverBoth('10.8.0.1')).toEqual([200, 200, 200, 429]);
    expect(await health(first)).toMatchObject({ status: 'ok', redis: 'ok' });
  });

  it('Redis killed: sign-in answers at once, limits per instance, /healthz degraded on both', async () => {
    await redis.kill();
    const answer = await askForCode(first.client('10.8.1.1'));
    expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(answer.ms).toBeLessThan(PROMPT_MS);
    // Each instance counts on its own: the address reaches the limit on neither by spreading its calls.
    expect(await spreadOverBoth('10.8.1.2')).toEqual([200, 200, 200, 200]);
    expect(await statuses(first.client('10.8.1.3'), PER_IP + 1)).toEqual([...Array(PER_IP).fill(200), 429]);
    for (const t of [first, second]) {
      const response = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'degraded', redis: 'unavailable' });
    }
  });

  it('Redis back: /healthz ok again and the limits shared again, by themselves', async () => {
    await redis.start();
    await waitFor(
      async () => (await health(first)).status === 'ok' && (await health(second)).status === 'ok',
      'both instances to see Redis again',
    );
    // A first call on each instance after a failed one may still be counted in the process (RETRY_SHARED_AFTER_MS).
    await waitFor(async () => {
      await askForCode(first.client('10.8.2.0'));
      await askForCode(second.client('10.8.2.0'));
      return !isFallingBack(first) && !isFallingBack(second);
    }, 'the limits to be counted in Redis again');
    expect(await spreadOverBoth('10.8.2.1')).toEqual([200, 200, 200, 429]);
    expect(log.said('rate limits: counted in Redis again')).toBe(1);
  });
});
