import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_MAINTENANCE_JOB } from '../app.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('health and errors', () => {
  it('answers /healthz with 200 while the database is reachable', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: t.databaseKind, mail: 'ok', redis: 'notConfigured' });
  });

  it('answers an unknown API call with a JSON 404', async () => {
    const response = await t.client().post('/api/common/no-such-call');
    expect(response.statusCode).toBe(404);
    expect(response.json().status).toBe('notFound');
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const client = t.client();
    await client.csrf();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/common/signin',
      headers: {
        cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-xsrf-token': client.cookies.get('XSRF-TOKEN') ?? '',
        'content-type': 'application/json',
      },
      payload: '{"step":1,',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('database maintenance', () => {
  it('keeps the embedded database up on a schedule (checkpoint, vacuum when due); leaves PostgreSQL to itself', async () => {
    if (t.databaseKind === 'pglite') {
      const result = await t.app.ctx.scheduler.runNow(EMBEDDED_MAINTENANCE_JOB);
      // A fresh database is far from the threshold: checked, nothing to freeze yet.
      expect(result).toMatchObject({ vacuumed: false });
      expect((result as { checkpointMs: number }).checkpointMs).toBeGreaterThanOrEqual(0);
      expect((result as { ageBefore: number }).ageBefore).toBeGreaterThan(0);
    } else {
      await expect(t.app.ctx.scheduler.runNow(EMBEDDED_MAINTENANCE_JOB)).rejects.toThrow(/No job/);
    }
  });

  it('when mail cannot go out: sign-in answers a clear 503 and /healthz says degraded, not ok', async () => {
    const client = t.client();
    await client.csrf();
    await t.smtp.close();
    const signin = await client.post('/api/common/signin', { step: 1, email: 'admin@demo.test' });
    expect(signin.statusCode).toBe(503);
    expect(signin.json().status).toBe('mailUnavailable');
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'degraded', mail: 'unavailable' });
  });
});
