import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditLog, sessions, signinLinks, users } from '@helium/db';
import { DAY_MS, MINUTE_MS } from '@helium/domain';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { SIGNIN_LINK_MINUTES } from './signin-links.ts';

/*
 * Admin: Users and "Sign In ->" on the demo users: admin@demo.test (Claire Dubois), publisher@demo.test,
 * advertiser@demo.test, multi@demo.test. A link works once, within its minutes, in its admin's browser; each use is
 * audited with the admin's id; every call is the admin's only.
 */

let t: TestApp;
let admin: TestClient;
let adminId: number;
let publisherUserId: number;
let advertiserUserId: number;

async function userIdOf(email: string): Promise<number> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

/** A fresh admin browser (each successful link replaces its session with the user's). */
async function adminBrowser(): Promise<TestClient> {
  const client = t.client();
  await client.signIn('admin@demo.test');
  return client;
}

async function linkFor(client: TestClient, userId: number): Promise<string> {
  const response = await client.post('/api/admin/create-signin-link', { userId });
  expect(response.statusCode).toBe(200);
  const { url } = response.json<{ url: string }>();
  expect(url).toMatch(/^\/signin-as\/[A-Za-z0-9_-]{40,}$/);
  return url;
}

async function impersonations(userId: number) {
  return t.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.impersonatorId, adminId)));
}

async function signinAsAudits(userId: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'user.signinAs'), eq(auditLog.targetId, userId)));
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminBrowser();
  adminId = await userIdOf('admin@demo.test');
  publisherUserId = await userIdOf('publisher@demo.test');
  advertiserUserId = await userIdOf('advertiser@demo.test');
});

afterAll(async () => {
  await t?.close();
});

describe('get-users', () => {
  it('answers the first page without a body, with badges ids and a sign-in address for non-admins', async () => {
    const response = await admin.post('/api/admin/get-users');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.total).toBeGreaterThanOrEqual(5);
    expect(body.page).toBe(1);
    const claire = body.users.find((user: { email: string }) => user.email === 'admin@demo.test');
    expect(claire).toMatchObject({ isAdmin: true, signinUrl: null });
    const publisher = body.users.find((user: { email: string }) => user.email === 'publisher@demo.test');
    expect(publisher.publisher_ids.length).toBeGreaterThan(0);
    expect(publisher.signinUrl).toBe(`/admin/users/${publisherUserId}/signin`);
    // By name, case-insensitive.
    const names = body.users.map((user: { name: string }) => user.name.toLowerCase());
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('searches names and e-mails anywhere, case-insensitive, and pages', async () => {
    const byEmail = (await admin.post('/api/admin/get-users', { search: 'ADVERTISER@DEMO' })).json();
    expect(byEmail.users.map((user: { email: string }) => user.email)).toEqual(['advertiser@demo.test']);
    const byName = (await admin.post('/api/admin/get-users', { search: 'dubois' })).json();
    expect(byName.users.map((user: { email: string }) => user.email)).toEqual(['admin@demo.test']);
    // LIKE's wildcards are matched literally.
    expect((await admin.post('/api/admin/get-users', { search: '%' })).json().total).toBe(0);
    expect((await admin.post('/api/admin/get-users', { search: '_' })).json().total).toBe(0);

    const all = (await admin.post('/api/admin/get-users', { search: '@demo.test', pageSize: 200 })).json();
    const first = (await admin.post('/api/admin/get-users', { search: '@demo.test', pageSize: 2, page: 1 })).json();
    const second = (await admin.post('/api/admin/get-users', { search: '@demo.test', pageSize: 2, page: 2 })).json();
    expect(first.total).toBe(all.total);
    expect([...first.users, ...second.users].map((user: { id: number }) => user.id)).toEqual(
      all.users.slice(0, 4).map((user: { id: number }) => user.id),
    );
    const beyond = (await admin.post('/api/admin/get-users', { search: '@demo.test', page: 999 })).json();
    expect(beyond.users).toEqual([]);
  });

  it('refuses bad paging with a 422', async () => {
    for (const body of [{ page: 0 }, { pageSize: 1000 }, { search: 'x'.repeat(101) }, { page: 'two' }]) {
      expect((await admin.post('/api/admin/get-users', body)).statusCode).toBe(422);
    }
  });
});

describe('Sign In ->', () => {
  it('opens the user session once, with the admin as impersonator, audited with the admin id', async () => {
    const browser = await adminBrowser();
    const url = await linkFor(browser, publisherUserId);
    const before = (await impersonations(publisherUserId)).length;

    const opened = await browser.get(url);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/publisher/accounting');
    expect(opened.headers['cache-control']).toBe('no-store');
    const me = (await browser.post('/api/common/user')).json();
    expect(me.email).toBe('publisher@demo.test');
    expect(await impersonations(publisherUserId)).toHaveLength(before + 1);

    const audits = await signinAsAudits(publisherUserId);
    expect(audits.at(-1)).toMatchObject({ actorUserId: adminId, targetType: 'user', targetId: publisherUserId });
    const [link] = await t.db.select().from(signinLinks).where(eq(signinLinks.userId, publisherUserId));
    expect(link!.usedAt).not.toBeNull();
    // Only the hash of the token is stored.
    expect(url).not.toContain(link!.tokenHash);

    // Used: refused, even back in the admin's browser, and nothing more is written.
    const again = await admin.get(url);
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('cannot be used');
    expect(await impersonations(publisherUserId)).toHaveLength(before + 1);
    expect(await signinAsAudits(publisherUserId)).toHaveLength(audits.length);
    expect((await admin.post('/api/common/user')).json().email).toBe('admin@demo.test');
  });

  it('refuses an expired link, and a link opened in another browser, a forged one, without spending it', async () => {
    const url = await linkFor(admin, advertiserUserId);
    const auditsBefore = (await signinAsAudits(advertiserUserId)).length;

    // Another browser (signed out, or signed in as someone else) gets nothing and does not spend the link.
    expect((await t.client().get(url)).statusCode).toBe(410);
    const publisherBrowser = t.client();
    await publisherBrowser.signIn('publisher@demo.test');
    expect((await publisherBrowser.get(url)).statusCode).toBe(410);
    expect((await publisherBrowser.post('/api/common/user')).json().email).toBe('publisher@demo.test');

    // Forged: a token of the right shape never issued, a tampered one, nonsense.
    expect((await admin.get(`/signin-as/${'A'.repeat(43)}`)).statusCode).toBe(410);
    expect((await admin.get(`${url.slice(0, -1)}${url.endsWith('A') ? 'B' : 'A'}`)).statusCode).toBe(410);
    expect((await admin.get('/signin-as/..%2f..%2fapi')).statusCode).toBe(410);

    t.clock.advance(SIGNIN_LINK_MINUTES * MINUTE_MS + 1);
    try {
      expect((await admin.get(url)).statusCode).toBe(410);
    } finally {
      t.clock.advance(-(SIGNIN_LINK_MINUTES * MINUTE_MS + 1));
    }
    expect((await admin.post('/api/common/user')).json().email).toBe('admin@demo.test');
    expect(await signinAsAudits(advertiserUserId)).toHaveLength(auditsBefore);
    expect(await impersonations(advertiserUserId)).toHaveLength(0);
  });

  it('sweeps links expired for a day when a new one is made, and keeps the recent ones', async () => {
    await linkFor(admin, advertiserUserId);
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(signinLinks))[0]!.n;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    t.clock.advance(DAY_MS + SIGNIN_LINK_MINUTES * MINUTE_MS + 1);
    try {
      await linkFor(admin, advertiserUserId);
      expect(await count()).toBe(1);
    } finally {
      t.clock.advance(-(DAY_MS + SIGNIN_LINK_MINUTES * MINUTE_MS + 1));
    }
  });

  it('lets one of two concurrent uses win: one session, one audit row', async () => {
    const browser = await adminBrowser();
    const url = await linkFor(browser, advertiserUserId);
    const sessionsBefore = (await impersonations(advertiserUserId)).length;
    const auditsBefore = (await signinAsAudits(advertiserUserId)).length;
    const answers = await Promise.all([browser.get(url), browser.get(url), browser.get(url)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 410, 410]);
    expect(await impersonations(advertiserUserId)).toHaveLength(sessionsBefore + 1);
    expect(await signinAsAudits(advertiserUserId)).toHaveLength(auditsBefore + 1);
  });

  it('signs nobody in as an admin, and a user it signed in cannot mint links', async () => {
    expect((await admin.post('/api/admin/create-signin-link', { userId: adminId })).statusCode).toBe(403);
    expect((await admin.post('/api/admin/create-signin-link', { userId: 999_999 })).statusCode).toBe(404);
    expect((await admin.post('/api/admin/create-signin-link', { userId: -1 })).statusCode).toBe(422);
  });

  it('refuses every admin call to publishers, advertisers and signed-out callers', async () => {
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    const calls: Array<[string, unknown]> = [
      ['/api/admin/get-users', {}],
      ['/api/admin/create-signin-link', { userId: publisherUserId }],
      ['/api/admin/get-audit-log', {}],
    ];
    const linksBefore = (await t.db.select({ n: sql<number>`count(*)::int` }).from(signinLinks))[0]!.n;
    for (const [path, body] of calls) {
      expect((await publisher.post(path, body)).statusCode).toBe(403);
      expect((await advertiser.post(path, body)).statusCode).toBe(403);
      expect((await t.client().post(path, body)).statusCode).toBe(401);
    }
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(signinLinks))[0]!.n).toBe(linksBefore);
  });

  it('makes nobody an admin through a call a user can make', async () => {
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    const switched = await publisher.post('/api/common/update-user', { key: 'type', value: '0' });
    expect(switched.statusCode).toBeGreaterThanOrEqual(400);
    expect((await publisher.post('/api/admin/get-users')).statusCode).toBe(403);
    const [row] = await t.db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, publisherUserId));
    expect(row!.isAdmin).toBe(false);
  });
});

describe('get-audit-log', () => {
  it('shows the sign-in-as with the admin, filtered by user and action, newest first', async () => {
    const response = await admin.post('/api/admin/get-audit-log', { action: 'user.signinAs' });
    expect(response.statusCode).toBe(200);
    const log = response.json();
    expect(log.actions).toEqual(expect.arrayContaining(['signin', 'user.signinAs']));
    expect(log.entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of log.entries) {
      expect(entry).toMatchObject({ action: 'user.signinAs', actorId: adminId, actorEmail: 'admin@demo.test' });
      expect(entry.actorName).toBe('Claire Dubois');
      expect(entry.details).toMatch(/^link: #\d+$/);
    }
    const times = log.entries.map((entry: { when: string }) => entry.when);
    expect(times).toEqual([...times].sort().reverse());

    const forPublisher = (
      await admin.post('/api/admin/get-audit-log', { userId: publisherUserId, action: 'user.signinAs' })
    ).json();
    expect(forPublisher.entries.length).toBeGreaterThanOrEqual(1);
    expect(forPublisher.entries.every((entry: { targetId: number }) => entry.targetId === publisherUserId)).toBe(true);

    // The publisher's own sign-ins are found by its id as the actor.
    const signins = (
      await admin.post('/api/admin/get-audit-log', { userId: publisherUserId, action: 'signin' })
    ).json();
    expect(signins.entries.every((entry: { actorId: number }) => entry.actorId === publisherUserId)).toBe(true);
    expect((await admin.post('/api/admin/get-audit-log', { page: 0 })).statusCode).toBe(422);
  });
});
