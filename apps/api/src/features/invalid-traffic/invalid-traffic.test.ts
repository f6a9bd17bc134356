import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidTraffic } from '@helium/db';
import { DAY_MS } from '@helium/domain';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { BOT_UA, decide, publisherId } from '../../../test/serve-support.ts';

let t: TestApp;
let admin: TestClient;
let blog: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
  blog = await publisherId(t.db, 'Demo Blog');
});
afterAll(async () => {
  await t?.close();
});

describe('admin: invalid traffic', () => {
  it('counts what was set aside per publisher, UTC day, reason and kind, newest day first', async () => {
    const now = t.clock.now();
    const yesterday = new Date(now.getTime() - DAY_MS);
    const long = new Date(now.getTime() - 40 * DAY_MS);
    await t.db.insert(invalidTraffic).values([
      { kind: 'pageview', reason: 'ipVisitors', publisherId: blog, createdAt: yesterday },
      { kind: 'pageview', reason: 'ipVisitors', publisherId: blog, createdAt: yesterday },
      { kind: 'impression', reason: 'ipVisitors', publisherId: blog, createdAt: yesterday },
      { kind: 'click', reason: 'rate', publisherId: blog, createdAt: long },
    ]);
    // A real bot's decision request, filtered by the serving rules today.
    await decide(t, blog, { ip: '203.0.113.50', ua: BOT_UA });

    const response = await admin.post('/api/admin/get-invalid-traffic', { days: 7 });
    expect(response.statusCode).toBe(200);
    const { rows, total } = response.json() as {
      rows: Array<{ day: string; brand: string; reason: string; kind: string; count: number }>;
      total: number;
    };
    const today = now.toISOString().slice(0, 10);
    const before = yesterday.toISOString().slice(0, 10);
    expect(rows.find((row) => row.day === before && row.kind === 'pageview')).toMatchObject({
      brand: 'Demo Blog',
      reason: 'ipVisitors',
      count: 2,
    });
    expect(rows.find((row) => row.day === before && row.kind === 'impression')?.count).toBe(1);
    expect(rows.some((row) => row.day === today && row.reason === 'bot')).toBe(true);
    // 40 days ago is outside a 7-day window, inside a 90-day one.
    expect(rows.some((row) => row.reason === 'rate')).toBe(false);
    expect(total).toBe(rows.reduce((sum, row) => sum + row.count, 0));
    expect(rows.map((row) => row.day)).toEqual([...rows.map((row) => row.day)].sort().reverse());
    const wide = (await admin.post('/api/admin/get-invalid-traffic', { days: 90 })).json();
    expect(wide.rows.some((row: { reason: string }) => row.reason === 'rate')).toBe(true);
  });

  it('filters by publisher', async () => {
    const other = await publisherId(t.db, 'Cuisine Facile');
    const response = await admin.post('/api/admin/get-invalid-traffic', { days: 90, publisherId: other });
    expect(response.statusCode).toBe(200);
    expect(response.json().rows.every((row: { brand: string }) => row.brand === 'Cuisine Facile')).toBe(true);
  });

  it('refuses other roles and bad windows', async () => {
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    expect((await publisher.post('/api/admin/get-invalid-traffic', { days: 7 })).statusCode).toBe(403);
    expect((await t.client().post('/api/admin/get-invalid-traffic', { days: 7 })).statusCode).toBe(401);
    expect((await admin.post('/api/admin/get-invalid-traffic', { days: 0 })).statusCode).toBe(422);
    expect((await admin.post('/api/admin/get-invalid-traffic', { days: 91 })).statusCode).toBe(422);
  });
});
