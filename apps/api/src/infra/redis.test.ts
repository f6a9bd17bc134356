import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { freePort, HAS_REDIS_SERVER, TestRedisServer, waitFor } from '../../test/redis-server.ts';
import {
  closeRedis,
  createRedis,
  createRedisSubscriber,
  reconnectDelayMs,
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_MAX_RECONNECT_DELAY_MS,
  redisStatus,
  subscriberLike,
  waitForRedis,
  type RedisLog,
} from './redis.ts';

const opened: Redis[] = [];
const track = (redis: Redis) => {
  opened.push(redis);
  return redis;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((redis) => closeRedis(redis)));
});

/** A log that keeps what is written to it. */
function recordingLog() {
  const lines: string[] = [];
  const log: RedisLog = {
    warn: (_object, message) => lines.push(`warn ${message}`),
    info: (message) => lines.push(`info ${message}`),
  };
  return { log, lines };
}

/**
 * "At once": well under the command timeout a queued call would wait for, with room for a CI machine loaded by the
 * browser tests (100 ms left little).
 */
const AT_ONCE_MS = REDIS_COMMAND_TIMEOUT_MS / 2;

/** How long a promise takes to settle, whichever way. */
async function settleTime(promise: Promise<unknown>): Promise<number> {
  const started = Date.now();
  await promise.catch(() => undefined);
  return Date.now() - started;
}

describe('the Redis connection (infra/redis.ts): calls fail fast while Redis is away', () => {
  it('on a closed port: a call fails at once instead of waiting in a queue, and the status says unavailable', async () => {
    const { log, lines } = recordingLog();
    const redis = track(createRedis(`redis://127.0.0.1:${await freePort()}`, { log }));
    expect(await waitForRedis(redis, 300)).toBe(false);
    await expect(redis.incr('k')).rejects.toThrow();
    expect(await settleTime(redis.get('k'))).toBeLessThan(AT_ONCE_MS);
    expect(await redisStatus(redis)).toBe('unavailable');
    // Reconnecting all the while, but said once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(1);
  });

  it('on a server that answers the connection check, then nothing: a call fails within the command timeout', async () => {
    // Stands for a Redis cut off by the network after connecting: only the connection check of ioredis answered, its
    // CLIENT SETINFO and the INFO of its ready check, each command once (they may come in one packet or several).
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket.on('close', () => sockets.delete(socket)));
      socket.on('data', (data) => {
        for (const [, command] of data.toString().matchAll(/\*\d+\r\n\$\d+\r\n(\w+)\r\n/g)) {
          const info = '# Server\r\nloading:0\r\n';
          if (/^client$/i.test(command!)) socket.write('+OK\r\n');
          if (/^info$/i.test(command!)) socket.write(`$${info.length}\r\n${info}\r\n`);
        }
      });
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const redis = track(createRedis(`redis://127.0.0.1:${(silent.address() as { port: number }).port}`));
      expect(await waitForRedis(redis)).toBe(true);
      const started = Date.now();
      await expect(redis.get('k')).rejects.toThrow(/timed out/i);
      expect(Date.now() - started).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 50);
      expect(Date.now() - started).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 2_000);
      expect(await redisStatus(redis)).toBe('unavailable');
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('reconnects quicker at first, then every 2 s at most, for ever', () => {
    expect([1, 5, 20, 1000].map(reconnectDelayMs)).toEqual([100, 500, 2000, REDIS_MAX_RECONNECT_DELAY_MS]);
  });
});

describe.runIf(HAS_REDIS_SERVER)('the Redis connection, with a Redis server killed and started again', () => {
  let server: TestRedisServer;
  beforeAll(async () => {
    server = await TestRedisServer.start();
  });
  afterAll(async () => {
    await server?.kill();
  });

  it('answers ok, then unavailable while the server is down, then ok again by itself; the log says each once', async () => {
    const { log, lines } = recordingLog();
    const redis = track(createRedis(server.url, { log }));
    expect(await waitForRedis(redis)).toBe(true);
    expect(await redisStatus(redis)).toBe('ok');
    await server.kill();
    await waitFor(async () => (await redisStatus(redis)) === 'unavailable', 'Redis reported unavailable');
    expect(await settleTime(redis.set('k', '1'))).toBeLessThan(AT_ONCE_MS);
    await server.start();
    await waitFor(async () => (await redisStatus(redis)) === 'ok', 'Redis reported ok again');
    expect(await redis.set('k', '2')).toBe('OK');
    expect(lines).toEqual([
      'warn redis: Redis is unavailable; reconnecting until it answers',
      'info redis: Redis answers again',
    ]);
  });

  it('a subscriber connection (pub/sub) hears messages again after the server came back', async () => {
    const publisher = track(createRedis(server.url));
    const subscriber = track(createRedisSubscriber(server.url));
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    await subscriber.subscribe('changes');
    await waitForRedis(publisher);
    await publisher.publish('changes', 'before');
    await waitFor(() => heard.includes('before'), 'the first message');

    await server.kill();
    await server.start();
    // Subscribed again by itself once reconnected: a message published then is heard.
    await waitFor(
      async () => (await redisStatus(publisher)) === 'ok' && (await publisher.publish('changes', 'after')) > 0,
      'the subscription to be renewed',
    );
    await waitFor(() => heard.includes('after'), 'the message after the restart');
  });

  it("a subscriber made from a command connection while Redis is down subscribes once it is up (server.ts's case)", async () => {
    await server.kill();
    const { log, lines } = recordingLog();
    const commands = track(createRedis(server.url, { log }));
    const subscriber = track(subscriberLike(commands, { log }));
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    // Made at start, with Redis away: it must wait, not fail (a fail-fast copy gave up and never subscribed).
    const subscribed = subscriber.subscribe('changes');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.start();
    await subscribed;
    const publisher = track(createRedis(server.url));
    await waitForRedis(publisher);
    await publisher.publish('changes', 'after a start without Redis');
    await waitFor(() => heard.includes('after a start without Redis'), 'the message');
    // Its outage was logged as a line of the server's log, not printed by ioredis.
    expect(lines.every((line) => line.startsWith('warn') || line.startsWith('info'))).toBe(true);
  });
});
