import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const cookieHeader = (cookies: Map<string, string>) =>
  [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** A POST with exactly these cookies and this anti-forgery header (none when null). */
function postWith(url: string, cookies: Map<string, string>, token: string | null, body: unknown = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: cookieHeader(cookies),
      'content-type': 'application/json',
      ...(token === null ? {} : { 'x-xsrf-token': token }),
    },
    payload: JSON.stringify(body),
  });
}

async function signedIn(email: string): Promise<TestClient> {
  const client = t.client();
  const response = await client.signIn(email);
  expect(response.json().status).toBe('ok');
  return client;
}

describe('anti-forgery and the session apply to the route the router matched, not to a spelling of its URL', () => {
  // Issue 21, point 4: the hooks tested `request.url`, the router decodes it.
  it.each(['/%61pi/common/signin', '/api/common/%73ignin', '/%61%70%69/common/signin'])(
    'answers 419 to %s without a token, and mails nothing',
    async (url) => {
      const before = t.smtp.messages.length;
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ step: 1, email: 'admin@demo.test' }),
      });
      expect(response.statusCode).toBe(419);
      expect(response.json().status).toBe('csrfTokenMismatch');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(t.smtp.messages.length).toBe(before);
    },
  );

  it.each(['/API/common/signin', '/Api/common/signin', '//api/common/signin', '/api/common/signin/'])(
    'matches no call at %s (the router is case- and slash-exact): 404, never the call',
    async (url) => {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ step: 1, email: 'admin@demo.test' }),
      });
      expect(response.statusCode).toBe(404);
    },
  );

  it('finds the session of a call whose path is percent-encoded', async () => {
    const client = await signedIn('publisher@demo.test');
    const response = await client.post('/%61pi/common/user');
    expect(response.statusCode).toBe(200);
    expect(response.json().email).toBe('publisher@demo.test');
  });
});

describe('the anti-forgery token is bound to the session (or, before sign-in, to the browser)', () => {
  it("refuses session A's token sent with session B's cookies (419), and changes nothing", async () => {
    const a = await signedIn('advertiser@demo.test');
    const b = await signedIn('multi@demo.test');
    const before = (await b.post('/api/common/user')).json();
    const response = await postWith('/api/common/update-user', b.cookies, a.cookies.get('XSRF-TOKEN') ?? '', {
      key: 'locale',
      value: before.locale === 'fr' ? 'en' : 'fr',
    });
    expect(response.statusCode).toBe(419);
    // The attacker's cookie jar holding A's token as its XSRF-TOKEN cookie too: still refused.
    const planted = new Map(b.cookies).set('XSRF-TOKEN', a.cookies.get('XSRF-TOKEN') ?? '');
    const alsoRefused = await postWith('/api/common/update-user', planted, a.cookies.get('XSRF-TOKEN') ?? '', {
      key: 'locale',
      value: before.locale === 'fr' ? 'en' : 'fr',
    });
    expect(alsoRefused.statusCode).toBe(419);
    expect((await b.post('/api/common/user')).json().locale).toBe(before.locale);
  });

  it("refuses one browser's pre-sign-in token with another browser's cookies", async () => {
    const a = t.client();
    const b = t.client();
    await a.csrf();
    await b.csrf();
    const planted = new Map(b.cookies).set('XSRF-TOKEN', a.cookies.get('XSRF-TOKEN') ?? '');
    const response = await postWith('/api/common/signin', planted, a.cookies.get('XSRF-TOKEN') ?? '', {
      step: 1,
      email: 'admin@demo.test',
    });
    expect(response.statusCode).toBe(419);
  });

  it('refuses a token alone, without the cookie it is bound to', async () => {
    const a = t.client();
    await a.csrf();
    const token = a.cookies.get('XSRF-TOKEN') ?? '';
    const response = await postWith('/api/common/signin', new Map([['XSRF-TOKEN', token]]), token, {
      step: 1,
      email: 'admin@demo.test',
    });
    expect(response.statusCode).toBe(419);
  });

  it('issues a fresh token at sign-in: the pre-sign-in one no longer works with the new session', async () => {
    const client = t.client();
    await client.csrf();
    const preSignIn = client.cookies.get('XSRF-TOKEN') ?? '';
    const response = await client.signIn('admin@demo.test');
    const fresh = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(preSignIn);
    expect((await postWith('/api/common/user', client.cookies, preSignIn)).statusCode).toBe(419);
    expect((await postWith('/api/common/user', client.cookies, fresh ?? '')).statusCode).toBe(200);
  });

  it('issues a token bound to the session from /sanctum/csrf-cookie when signed in (the 419 retry of the web app)', async () => {
    const client = await signedIn('publisher@demo.test');
    client.cookies.delete('XSRF-TOKEN');
    await client.csrf();
    expect((await client.post('/api/common/user')).statusCode).toBe(200);
  });

  it('answers 419, not 500, to a header that is not valid percent-encoding', async () => {
    const client = t.client();
    await client.csrf();
    const response = await postWith('/api/common/signin', client.cookies, '%E0%A4%A', { step: 1, email: 'a@b.test' });
    expect(response.statusCode).toBe(419);
  });
});
