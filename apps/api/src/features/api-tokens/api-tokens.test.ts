import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiTokens, auditLog, users } from '@helium/db';
import { API_TOKEN_PREFIX, API_TOKENS_PER_USER } from '@helium/contracts';
import { MINUTE_MS } from '@helium/domain';
import { buildTestApp, postWithToken, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint, demoIds, type DemoIds } from '../../../test/call-samples.ts';
import { hashToken } from '../../infra/tokens.ts';

/*
 * Personal API tokens (issue 35, point 3): create, list and revoke on a session; a token reads what its user's session
 * reads, with no cookie and no anti-forgery token, and nothing else. The generic part (every call, every role) is in
 * http/access-matrix.test.ts.
 */

/** Calls per token per window in this file: small, so that the limit is reached in a few calls. */
const LIMIT = 12;

let t: TestApp;
let ids: DemoIds;
let advertiser: TestClient;
let publisher: TestClient;
let admin: TestClient;
/** multi@demo.test working as its advertiser Atelier Céramique: another tenant than Nordvik Outdoor. */
let otherAdvertiser: TestClient;

async function userIdOf(email: string): Promise<number> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

async function signedIn(email: string): Promise<TestClient> {
  const client = t.client();
  await client.signIn(email, { agree: true });
  return client;
}

async function createToken(client: TestClient, name = 'Spreadsheet'): Promise<{ id: number; token: string }> {
  const response = await client.post('/api/common/create-api-token', { name });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function tokensOf(client: TestClient) {
  const response = await client.post('/api/common/get-api-tokens');
  expect(response.statusCode).toBe(200);
  return response.json<{
    tokens: Array<{
      id: number;
      name: string;
      createdAt: string;
      lastUsedAt: string | null;
      account: { type: number; brand: string | null } | null;
    }>;
  }>().tokens;
}

async function auditsOf(action: string, tokenId: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, tokenId)));
}

beforeAll(async () => {
  t = await buildTestApp({ apiTokenLimit: { limit: LIMIT, windowMs: MINUTE_MS } });
  ids = await demoIds(t.db);
  [advertiser, publisher, admin, otherAdvertiser] = await Promise.all([
    signedIn('advertiser@demo.test'),
    signedIn('publisher@demo.test'),
    signedIn('admin@demo.test'),
    signedIn('multi@demo.test'),
  ]);
  const user = (await otherAdvertiser.post('/api/common/user')).json();
  const atelier = user.advertisers.find((a: { brand: string }) => a.brand === 'Atelier Céramique');
  const switched = await otherAdvertiser.post('/api/common/update-user', { key: 'type', value: `2,${atelier.id}` });
  expect(switched.statusCode).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

describe('create, list, revoke', () => {
  it('creates a named token shown once, stores only its hash, lists it without it, and audits it', async () => {
    const created = await createToken(advertiser, '  Weekly sheet  ');
    expect(created.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    // 32 random bytes in base64url after the prefix.
    expect(created.token).toMatch(/^hat_[A-Za-z0-9_-]{43}$/);

    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row).toMatchObject({ userId: await userIdOf('advertiser@demo.test'), name: 'Weekly sheet' });
    expect(row!.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(API_TOKEN_PREFIX.length));

    const listResponse = await advertiser.post('/api/common/get-api-tokens');
    expect(listResponse.body).not.toContain(created.token.slice(API_TOKEN_PREFIX.length));
    const listed = (await tokensOf(advertiser)).find((token) => token.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      name: 'Weekly sheet',
      createdAt: t.clock.now().toISOString(),
      lastUsedAt: null,
      account: { type: 2, brand: 'Nordvik Outdoor' },
    });
    expect(await auditsOf('apiToken.create', created.id)).toHaveLength(1);
  });

  it('lists newest first, and only the caller’s own live tokens', async () => {
    const first = await createToken(publisher, 'First');
    t.clock.advance(1_000);
    const second = await createToken(publisher, 'Second');
    const mine = (await tokensOf(publisher)).map((token) => token.id);
    expect(mine.indexOf(second.id)).toBeLessThan(mine.indexOf(first.id));
    const theirs = (await tokensOf(advertiser)).map((token) => token.id);
    expect(theirs).not.toContain(first.id);
    expect(theirs).not.toContain(second.id);
  });

  it('revokes a token: gone from the list, refused from then on, audited once', async () => {
    const created = await createToken(advertiser, 'To revoke');
    expect((await postWithToken(t, created.token, '/api/advertiser/get-ads')).statusCode).toBe(200);
    const revoked = await advertiser.post('/api/common/revoke-api-token', { id: created.id });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ status: 'ok' });
    expect((await tokensOf(advertiser)).map((token) => token.id)).not.toContain(created.id);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row!.revokedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect(await auditsOf('apiToken.revoke', created.id)).toHaveLength(1);

    const refused = await postWithToken(t, created.token, '/api/advertiser/get-ads');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().status).toBe('invalidApiToken');
    // A second revocation finds no live token.
    expect((await advertiser.post('/api/common/revoke-api-token', { id: created.id })).statusCode).toBe(404);
    expect(await auditsOf('apiToken.revoke', created.id)).toHaveLength(1);
  });

  it("answers 404 for another user's token, which keeps working", async () => {
    const theirs = await createToken(publisher, 'Not yours');
    const before = await databaseFingerprint(t.db);
    const response = await advertiser.post('/api/common/revoke-api-token', { id: theirs.id });
    expect(response.statusCode).toBe(404);
    expect((await advertiser.post('/api/common/revoke-api-token', { id: 999_999 })).statusCode).toBe(404);
    expect(await databaseFingerprint(t.db)).toEqual(before);
    expect((await postWithToken(t, theirs.token, '/api/publisher/get-stats')).statusCode).toBe(200);
  });

  it(`holds at most ${API_TOKENS_PER_USER} live tokens per user (409 past it), one more once one is revoked`, async () => {
    const user = t.client();
    await user.signIn('multi@demo.test', { agree: true });
    const live = (await tokensOf(user)).length;
    const created: number[] = [];
    for (let n = live; n < API_TOKENS_PER_USER; n++) created.push((await createToken(user, `Tool ${n}`)).id);
    const refused = await user.post('/api/common/create-api-token', { name: 'One too many' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().status).toBe('tooManyApiTokens');
    expect(await tokensOf(user)).toHaveLength(API_TOKENS_PER_USER);

    expect((await user.post('/api/common/revoke-api-token', { id: created[0] })).statusCode).toBe(200);
    expect((await user.post('/api/common/create-api-token', { name: 'One more' })).statusCode).toBe(200);
    // Leave the other tests room.
    for (const token of await tokensOf(user)) await user.post('/api/common/revoke-api-token', { id: token.id });
  });

  it('refuses a bad name or id with a 422, creating nothing', async () => {
    const before = await t.db.select().from(apiTokens);
    for (const name of ['', '   ', 'x'.repeat(81), 'two\nlines', 'tab\there', 'nul\u0000', 'bell\u0007', 'c1\u0085']) {
      const response = await advertiser.post('/api/common/create-api-token', { name });
      expect(response.statusCode, JSON.stringify(name)).toBe(422);
      expect(response.json().issues[0].path).toBe('name');
    }
    for (const body of [{}, { name: 42 }]) {
      expect((await advertiser.post('/api/common/create-api-token', body)).statusCode).toBe(422);
    }
    for (const body of [{}, { id: 0 }, { id: 'one' }, { id: 1.5 }]) {
      expect((await advertiser.post('/api/common/revoke-api-token', body)).statusCode).toBe(422);
    }
    expect(await t.db.select().from(apiTokens)).toEqual(before);
    // 80 characters is the longest name.
    expect((await advertiser.post('/api/common/create-api-token', { name: 'y'.repeat(80) })).statusCode).toBe(200);
  });

  it('needs a session: signed out 401; an admin signed in as the user may not create one (403)', async () => {
    expect((await t.client().post('/api/common/create-api-token', { name: 'x' })).statusCode).toBe(401);
    expect((await t.client().post('/api/common/get-api-tokens')).statusCode).toBe(401);

    // The link works only in the browser of the admin who asked for it, and replaces its session with the user's.
    const adminBrowser = t.client();
    await adminBrowser.signIn('admin@demo.test');
    const freshLink = (
      await adminBrowser.post('/api/admin/create-signin-link', { userId: await userIdOf('publisher@demo.test') })
    ).json().url as string;
    expect((await adminBrowser.get(freshLink)).statusCode).toBe(303);
    expect((await adminBrowser.post('/api/common/user')).json().email).toBe('publisher@demo.test');
    const refused = await adminBrowser.post('/api/common/create-api-token', { name: 'Sneaky' });
    expect(refused.statusCode).toBe(403);
    // The list stays readable, to help the user.
    expect((await adminBrowser.post('/api/common/get-api-tokens')).statusCode).toBe(200);
  });
});

describe('Authorization: Bearer', () => {
  it("reads the advertiser's campaign stats and ads as the session does, with no cookie and no anti-forgery token", async () => {
    const { token } = await createToken(advertiser);
    const body = { campaignId: ids.campaignId, doIncludeRealTimeHits: false };
    const byToken = await postWithToken(t, token, '/api/advertiser/get-campaignex', body);
    expect(byToken.statusCode, byToken.body).toBe(200);
    const bySession = await advertiser.post('/api/advertiser/get-campaignex', body);
    expect(byToken.json()).toEqual(bySession.json());
    expect(byToken.headers['set-cookie']).toBeUndefined();

    const ads = await postWithToken(t, token, '/api/advertiser/get-ads');
    expect(ads.statusCode).toBe(200);
    expect(ads.json()).toEqual((await advertiser.post('/api/advertiser/get-ads')).json());
    const countries = await postWithToken(t, token, '/api/advertiser/get-campaign-countries', {
      campaignId: ids.campaignId,
      from: '2026-01-01',
      to: '2026-12-31',
    });
    expect(countries.statusCode).toBe(200);
  });

  it("reads the publisher's stats, performance and accounting", async () => {
    const { token } = await createToken(publisher);
    for (const path of [
      '/api/publisher/get-stats',
      '/api/publisher/get-realtime-performance',
      '/api/publisher/get-performance-history',
      '/api/publisher/get-accounting',
    ]) {
      const byToken = await postWithToken(t, token, path);
      expect(byToken.statusCode, `${path}: ${byToken.body.slice(0, 200)}`).toBe(200);
      expect(byToken.json(), path).toEqual((await publisher.post(path)).json());
    }
  });

  it('reads the account in use when it was made, whichever the user chooses in the web app since', async () => {
    const user = (await otherAdvertiser.post('/api/common/user')).json();
    const atelier = user.advertisers.find((a: { brand: string }) => a.brand === 'Atelier Céramique');
    const site = user.publishers[0] as { id: number; brand: string };
    const forAtelier = await createToken(otherAdvertiser, 'Atelier figures');
    const use = async (value: string) =>
      expect((await otherAdvertiser.post('/api/common/update-user', { key: 'type', value })).statusCode).toBe(200);
    try {
      await use(`1,${site.id}`);
      const forSite = await createToken(otherAdvertiser, 'Site figures');
      // The web app is on the site now: the advertiser's token still reads the advertiser, and only it.
      expect((await postWithToken(t, forAtelier.token, '/api/advertiser/get-ads')).statusCode).toBe(200);
      expect((await postWithToken(t, forAtelier.token, '/api/publisher/get-stats')).statusCode).toBe(403);
      const siteStats = await postWithToken(t, forSite.token, '/api/publisher/get-stats');
      expect(siteStats.statusCode).toBe(200);
      expect(siteStats.json()).toEqual((await otherAdvertiser.post('/api/publisher/get-stats')).json());
      await use(`2,${atelier.id}`);
      expect((await postWithToken(t, forSite.token, '/api/publisher/get-stats')).statusCode).toBe(200);
      expect((await postWithToken(t, forSite.token, '/api/advertiser/get-ads')).statusCode).toBe(403);
      const listed = await tokensOf(otherAdvertiser);
      expect(listed.find((token) => token.id === forAtelier.id)?.account).toEqual({
        type: 2,
        brand: 'Atelier Céramique',
      });
      expect(listed.find((token) => token.id === forSite.id)?.account).toEqual({ type: 1, brand: site.brand });
    } finally {
      await use(`2,${atelier.id}`);
    }
  });

  it("is refused once its account is no longer the user's; a token made before tokens kept one reads the account in use", async () => {
    const { id, token } = await createToken(publisher, 'Older');
    await t.db
      .update(apiTokens)
      .set({ accountId: ids.publisherId + 10_000 })
      .where(eq(apiTokens.id, id));
    expect((await postWithToken(t, token, '/api/publisher/get-stats')).statusCode).toBe(403);
    await t.db.update(apiTokens).set({ accountType: null, accountId: null }).where(eq(apiTokens.id, id));
    expect((await postWithToken(t, token, '/api/publisher/get-stats')).statusCode).toBe(200);
  });

  it("reads the admin's stats and activity", async () => {
    const { token } = await createToken(admin);
    for (const [path, body] of [
      ['/api/admin/get-stats', {}],
      ['/api/admin/get-activity', { sortBy: 'advertiser' }],
      ['/api/admin/get-activity', { sortBy: 'publisher' }],
    ] as const) {
      const byToken = await postWithToken(t, token, path, body);
      expect(byToken.statusCode, `${path}: ${byToken.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('is held to its user’s account types: an advertiser’s token gets 403 on publisher and admin calls', async () => {
    const { token } = await createToken(advertiser);
    for (const path of ['/api/publisher/get-stats', '/api/admin/get-stats']) {
      const response = await postWithToken(t, token, path);
      expect(response.statusCode).toBe(403);
      expect(response.json().status).toBe('forbidden');
    }
  });

  it("refuses another tenant's campaign as the session does", async () => {
    const { token } = await createToken(otherAdvertiser);
    for (const path of ['/api/advertiser/get-campaignex', '/api/advertiser/get-campaign-countries']) {
      const body = { campaignId: ids.campaignId, from: '2026-01-01', to: '2026-12-31' };
      const bySession = await otherAdvertiser.post(
        path,
        path.endsWith('campaignex') ? { campaignId: ids.campaignId } : body,
      );
      const byToken = await postWithToken(
        t,
        token,
        path,
        path.endsWith('campaignex') ? { campaignId: ids.campaignId } : body,
      );
      expect([403, 404]).toContain(byToken.statusCode);
      expect(byToken.statusCode).toBe(bySession.statusCode);
    }
    // Its own ads, not Nordvik's.
    const theirs = (await postWithToken(t, token, '/api/advertiser/get-ads')).json();
    const nordvik = (await advertiser.post('/api/advertiser/get-ads')).json();
    expect(theirs).not.toEqual(nordvik);
  });

  it('acts as the token’s user even beside another user’s session cookie', async () => {
    const { token } = await createToken(advertiser);
    const cookie = [...publisher.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await postWithToken(t, token, '/api/advertiser/get-ads', {}, { cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual((await advertiser.post('/api/advertiser/get-ads')).json());
  });

  it('is read-only: a call that changes something answers 403 and changes nothing', async () => {
    const { token } = await createToken(advertiser);
    const before = await databaseFingerprint(t.db);
    for (const [path, body] of [
      ['/api/advertiser/update-campaign-pause', { campaignId: ids.campaignId, pauseDailyImpressions: 1000 }],
      ['/api/advertiser/update-or-delete-ad', { action: 'delete', ad: { id: ids.adId } }],
      ['/api/common/update-user', { key: 'locale', value: 'fr' }],
      ['/api/common/create-api-token', { name: 'Minted by a token' }],
      ['/api/common/revoke-api-token', { id: 1 }],
      ['/api/common/get-api-tokens', {}],
      ['/api/common/user', {}],
      ['/api/signout', {}],
    ] as const) {
      const response = await postWithToken(t, token, path, body);
      expect(response.statusCode, path).toBe(403);
      expect(response.json()).toMatchObject({
        status: 'apiTokenReadOnly',
        message: expect.stringContaining('read-only'),
      });
    }
    // Even with a genuine anti-forgery header alongside.
    const xsrf = advertiser.cookies.get('XSRF-TOKEN')!;
    const withXsrf = await postWithToken(
      t,
      token,
      '/api/advertiser/update-campaign-pause',
      { campaignId: ids.campaignId, pauseDailyImpressions: 1000 },
      { 'x-xsrf-token': xsrf, cookie: `XSRF-TOKEN=${xsrf}` },
    );
    expect(withXsrf.statusCode).toBe(403);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('answers 401 to an unknown, malformed or empty token, naming the scheme', async () => {
    for (const value of [`${API_TOKEN_PREFIX}${'A'.repeat(43)}`, 'not-a-token', '']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/advertiser/get-ads',
        headers: { authorization: `Bearer ${value}`, 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(response.statusCode, value).toBe(401);
      expect(response.json().status).toBe('invalidApiToken');
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    // Another scheme is not a token: the request is one without a session.
    const basic = await t.app.inject({
      method: 'POST',
      url: '/api/advertiser/get-ads',
      headers: { authorization: 'Basic dXNlcjpwYXNz', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(basic.statusCode).toBe(419);
  });

  it('is not asked for where no call is: the reference and its page answer, a path that is none answers 404', async () => {
    const { token } = await createToken(advertiser, 'Everywhere');
    for (const value of [token, `${API_TOKEN_PREFIX}${'B'.repeat(43)}`]) {
      const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${value}` } });
      expect((await get('/api/openapi.json')).statusCode).toBe(200);
      expect((await get('/api/docs')).statusCode).toBe(200);
      expect((await get('/api/no-such-call')).statusCode).toBe(404);
    }
  });

  it('records the last use at most once a minute', async () => {
    const { id, token } = await createToken(advertiser, 'Dashboard');
    const lastUse = async () => (await tokensOf(advertiser)).find((listed) => listed.id === id)!.lastUsedAt;
    expect(await lastUse()).toBeNull();
    const first = t.clock.now().toISOString();
    await postWithToken(t, token, '/api/advertiser/get-ads');
    expect(await lastUse()).toBe(first);
    t.clock.advance(30_000);
    await postWithToken(t, token, '/api/advertiser/get-ads');
    expect(await lastUse()).toBe(first);
    t.clock.advance(31_000);
    await postWithToken(t, token, '/api/advertiser/get-ads');
    expect(await lastUse()).toBe(t.clock.now().toISOString());
    // A refused call is no use.
    t.clock.advance(2 * MINUTE_MS);
    const used = await lastUse();
    await postWithToken(t, token, '/api/common/update-user', { key: 'locale', value: 'fr' });
    expect(await lastUse()).toBe(used);
  });

  it(`is rate-limited per token (${LIMIT} a minute here): 429 past it, other tokens unaffected, open again next window`, async () => {
    t.clock.advance(MINUTE_MS);
    const { token } = await createToken(publisher, 'Busy');
    const { token: other } = await createToken(publisher, 'Quiet');
    for (let n = 0; n < LIMIT; n++) {
      expect((await postWithToken(t, token, '/api/publisher/get-realtime-performance')).statusCode).toBe(200);
    }
    const refused = await postWithToken(t, token, '/api/publisher/get-realtime-performance');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().status).toBe('tooManyRequests');
    expect(refused.headers['retry-after']).toBe('60');
    expect((await postWithToken(t, other, '/api/publisher/get-realtime-performance')).statusCode).toBe(200);
    // The session is not counted against the token.
    expect((await publisher.post('/api/publisher/get-realtime-performance')).statusCode).toBe(200);
    t.clock.advance(MINUTE_MS);
    expect((await postWithToken(t, token, '/api/publisher/get-realtime-performance')).statusCode).toBe(200);
  });

  it('leaves the session path as it was: a session without the anti-forgery token still gets 419', async () => {
    const response = await advertiser.post('/api/advertiser/get-ads', {}, { xsrf: false });
    expect(response.statusCode).toBe(419);
  });
});
