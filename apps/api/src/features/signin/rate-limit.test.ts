import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    signinLimits: { perEmail: { limit: 3, windowMs: 60_000 }, perIp: { limit: 5, windowMs: 60_000 } },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in rate limits', () => {
  it('answers 429 after too many attempts for one e-mail, whatever the IP', async () => {
    const tries = [];
    for (let i = 0; i < 4; i += 1) {
      tries.push(
        await t
          .client(`10.0.0.${i + 1}`)
          .post('/api/common/signin', { step: 2, email: 'admin@demo.test', code: '123456' }),
      );
    }
    expect(tries.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(tries[3]?.statusCode).toBe(429);
    expect(tries[3]?.json().status).toBe('tooManyAttempts');
  });

  it('answers 429 after too many attempts from one IP, whatever the e-mail', async () => {
    const client = t.client('10.9.9.9');
    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await client.post('/api/common/signin', { step: 1, email: `guess${i}@demo.test` })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('opens again when the window has passed', async () => {
    t.clock.advance(61_000);
    const response = await t.client('10.9.9.9').post('/api/common/signin', { step: 1, email: 'nobody@demo.test' });
    expect(response.statusCode).toBe(200);
  });
});
