import { count, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageviews } from '@helium/db';
import { MAX_UNDURABLE_EVENTS } from './pageviews.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { BROWSER_UA, campaignOfBrand, decide, onlyCampaign, publisherId } from '../../../test/serve-support.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    // No rate rule in the way: one office sends every pageview here.
    delivery: {
      limits: {
        pageviewsPerVisitorPerMinute: 1e9,
        pageviewsPerVisitorPerDay: 1e9,
        clicksPerVisitorPerMinute: 1e9,
        requestsPerIpPerMinute: 1e9,
        clicksPerIpPerMinute: 1e9,
        opensPerVisitorPerMinute: 1e9,
        opensPerVisitorPerDay: 1e9,
        opensPerIpPerDay: 1e9,
        mailProxyOpensPerReaderPerIssue: 1e9,
        mailProxyOpensPerIssuePerDay: 1e9,
        oneIpShare: 1,
        oneIpMinVisitors: 1e9,
        visitorsPerIpPerMinute: 1e9,
        visitorsPerIpPerHour: 1e9,
      },
    },
  });
});
afterAll(async () => t.close());

/** A decision as the script asks it, without waiting for its records (unlike serve-support's `decide`). */
const ask = (blog: number, index: number) =>
  t.app.inject({
    method: 'GET',
    url: `/serve/d?p=${blog}&w=1280&u=${encodeURIComponent(`http://localhost:8080/backlog/${index}`)}`,
    remoteAddress: '127.0.0.1',
    headers: {
      'user-agent': BROWSER_UA,
      'x-forwarded-for': `10.77.${index >> 8}.${index & 255}`,
      origin: 'http://localhost:8080',
    },
  });

const answeredWithin = (request: Promise<unknown>, ms: number) =>
  Promise.race([request.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('decisions under a database that cannot keep up', () => {
  it(`are answered at once until ${MAX_UNDURABLE_EVENTS} events wait, then only once written, and none is lost`, async () => {
    const blog = await publisherId(t.db, 'Demo Blog');
    await onlyCampaign(t, await campaignOfBrand(t.db, 'velo-urbain.example'), { impressions: 1_000_000 });
    // Served once before the database is held: the serving index is loaded, nothing left to read.
    expect((await decide(t, blog, { ip: '10.76.0.1' })).ads).toHaveLength(1);
    // The database is held: no batch can be written until the lock goes.
    let unlock!: () => void;
    const held = new Promise<void>((resolve) => (unlock = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table pageviews in exclusive mode`);
      locked();
      await held;
    });
    await isLocked;

    const pending: Array<Promise<unknown>> = [];
    let answeredAtOnce = 0;
    let queuedWhenBlocked = 0;
    try {
      for (let index = 0; index < 2_000; index++) {
        const request = ask(blog, index);
        pending.push(request);
        if (!(await answeredWithin(request, 500))) break;
        answeredAtOnce++;
        // A turn of the event loop, as between a server's requests: the recorder takes its batches then.
        await new Promise((resolve) => setImmediate(resolve));
      }
      queuedWhenBlocked = t.app.delivery.recorder.pending;
    } finally {
      unlock();
      await holding;
    }
    // Each decision queues a pageview and a decision record: the answers stop at the bound, not before.
    expect(queuedWhenBlocked).toBeGreaterThan(MAX_UNDURABLE_EVENTS);
    // (Besides the batches already handed to the database: two at most, each of the decisions of at most the
    // recorder's deferral delay, a few dozen at this pace.)
    expect(answeredAtOnce).toBeGreaterThanOrEqual(MAX_UNDURABLE_EVENTS / 2);
    expect(answeredAtOnce).toBeLessThanOrEqual(MAX_UNDURABLE_EVENTS / 2 + 60);

    const answers = (await Promise.all(pending)) as Array<{ statusCode: number }>;
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    await t.app.delivery.recorder.flush();
    const [written] = await t.db
      .select({ total: count() })
      .from(pageviews)
      .where(like(pageviews.url, 'http://localhost:8080/backlog/%'));
    expect(written?.total).toBe(pending.length);
  }, 60_000);
});
