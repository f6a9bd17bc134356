import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('who is signed in, without a 401 on the sign-in page (issue 26)', () => {
  it('answers 200 with a null user when nobody is signed in; /api/common/user keeps its 401', async () => {
    const client = t.client();
    const session = await client.post('/api/common/session');
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual({ user: null });
    expect((await client.post('/api/common/user')).statusCode).toBe(401);
  });

  it('answers the same user as /api/common/user once signed in, and null again after signing out', async () => {
    const client = t.client();
    await client.signIn('advertiser@demo.test');
    const session = await client.post('/api/common/session');
    expect(session.statusCode).toBe(200);
    const user = (await client.post('/api/common/user')).json();
    expect(session.json()).toEqual({ user });
    expect(user.email).toBe('advertiser@demo.test');
    await client.post('/api/common/signout');
    expect((await client.post('/api/common/session')).json()).toEqual({ user: null });
  });

  it('still refuses a request without the anti-forgery token (419)', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/common/session' });
    expect(response.statusCode).toBe(419);
  });
});
