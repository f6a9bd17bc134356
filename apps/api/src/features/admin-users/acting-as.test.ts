import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, gt } from 'drizzle-orm';
import { auditLog, sessions, users } from '@helium/db';
import { MINUTE_MS } from '@helium/domain';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { hashToken } from '../../infra/tokens.ts';
import { ACTING_MINUTES } from '../account/sessions.ts';
import { ACTING_RETURN_COOKIE, SESSION_COOKIE } from '../../http/session.ts';

/*
 * Acting as a user (docs/security.md): "Sign In ->" makes the browser's session the user's with the admin
 * remembered server-side; the user call says who acts; "Back to my account" (stop-acting-as) puts the admin's own
 * session back without a code; entering and leaving are audited; the acting session ends after ACTING_MINUTES.
 */

let t: TestApp;
let adminId: number;
let advertiserUserId: number;
let publisherUserId: number;

async function userIdOf(email: string): Promise<number> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

/** A fresh admin browser acting as `userId` through a "Sign In ->" link; answers it with the admin's own token. */
async function actingAs(userId: number): Promise<{ browser: TestClient; ownToken: string }> {
  const browser = t.client();
  await browser.signIn('admin@demo.test');
  const ownToken = browser.cookies.get(SESSION_COOKIE)!;
  const { url } = (await browser.post('/api/admin/create-signin-link', { userId })).json<{ url: string }>();
  const opened = await browser.get(url);
  expect(opened.statusCode).toBe(303);
  return { browser, ownToken };
}

async function sessionRow(token: string) {
  const [row] = await t.db
    .select()
    .from(sessions)
    .where(eq(sessions.id, hashToken(token)));
  return row!;
}

/** The last audit row's id: what a test wrote is after it (the manual clock does not move by itself). */
async function lastAuditId(): Promise<number> {
  const [row] = await t.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
}

async function auditsSince(since: number, targetId: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, targetId), gt(auditLog.id, since)))
    .orderBy(auditLog.id);
}

beforeAll(async () => {
  t = await buildTestApp();
  adminId = await userIdOf('admin@demo.test');
  advertiserUserId = await userIdOf('advertiser@demo.test');
  publisherUserId = await userIdOf('publisher@demo.test');
});

afterAll(async () => {
  await t?.close();
});

describe('acting as a user', () => {
  it('remembers the admin server-side, says who acts, and goes back without a code, audited both ways', async () => {
    const since = await lastAuditId();
    const { browser, ownToken } = await actingAs(advertiserUserId);
    const actingToken = browser.cookies.get(SESSION_COOKIE)!;
    expect(actingToken).not.toBe(ownToken);

    // The session row remembers the admin and the admin's own session, which stays live.
    const acting = await sessionRow(actingToken);
    expect(acting).toMatchObject({ userId: advertiserUserId, impersonatorId: adminId });
    expect(acting.actingFromSessionId).toBe(hashToken(ownToken));
    expect(acting.expiresAt.getTime() - acting.createdAt.getTime()).toBe(ACTING_MINUTES * MINUTE_MS);
    expect((await sessionRow(ownToken)).revokedAt).toBeNull();

    const me = (await browser.post('/api/common/user')).json();
    expect(me).toMatchObject({ email: 'advertiser@demo.test', type: 2 });
    expect(me.actingAs).toEqual({
      adminName: 'Claire Dubois',
      adminEmail: 'admin@demo.test',
      adminLocale: 'en',
      until: acting.expiresAt.toISOString(),
    });
    expect((await browser.post('/api/common/session')).json().user.actingAs.adminEmail).toBe('admin@demo.test');
    // The user's screens work; the admin's do not, while acting.
    expect((await browser.post('/api/advertiser/get-campaignex', {})).statusCode).toBe(200);
    expect((await browser.post('/api/admin/get-users')).statusCode).toBe(403);

    const mailsBefore = t.smtp.messages.length;
    const back = await browser.post('/api/common/stop-acting-as');
    expect(back.statusCode).toBe(200);
    expect(back.json()).toEqual({ status: 'restored' });
    // The admin's own session, the very one, without a new code; the acting session is over for good.
    expect(t.smtp.messages.length).toBe(mailsBefore);
    expect(browser.cookies.get(SESSION_COOKIE)).toBe(ownToken);
    expect(browser.cookies.has(ACTING_RETURN_COOKIE)).toBe(false);
    const admin = (await browser.post('/api/common/user')).json();
    expect(admin).toMatchObject({ email: 'admin@demo.test', actingAs: null });
    expect((await browser.post('/api/admin/get-users')).statusCode).toBe(200);
    expect((await sessionRow(actingToken)).revokedAt).not.toBeNull();
    const stale = t.client();
    stale.cookies.set(SESSION_COOKIE, actingToken);
    expect((await stale.post('/api/common/user')).statusCode).toBe(401);

    const audits = await auditsSince(since, advertiserUserId);
    expect(audits.map((row) => [row.action, row.actorUserId, row.targetType])).toEqual([
      ['user.signinAs', adminId, 'user'],
      ['user.signinAsEnded', adminId, 'user'],
    ]);
    expect(audits[1]!.details).toEqual({ reason: 'back', minutes: 0 });

    // Back in the admin's own session: going back again is a 409, and a new "Sign In ->" works.
    expect((await browser.post('/api/common/stop-acting-as')).statusCode).toBe(409);
    const { url } = (await browser.post('/api/admin/create-signin-link', { userId: publisherUserId })).json();
    expect((await browser.get(url)).statusCode).toBe(303);
    expect((await browser.post('/api/common/user')).json().actingAs.adminName).toBe('Claire Dubois');
  });

  it('answers 409 to stop-acting-as in a session nobody acts in, 401 signed out, and changes nothing', async () => {
    const admin = t.client();
    await admin.signIn('admin@demo.test');
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    const since = await lastAuditId();
    for (const client of [admin, advertiser]) {
      const token = client.cookies.get(SESSION_COOKIE)!;
      const answer = await client.post('/api/common/stop-acting-as');
      expect(answer.statusCode).toBe(409);
      expect(answer.json().status).toBe('notActing');
      expect(client.cookies.get(SESSION_COOKIE)).toBe(token);
      expect((await client.post('/api/common/user')).statusCode).toBe(200);
    }
    expect((await t.client().post('/api/common/stop-acting-as')).statusCode).toBe(401);
    expect(await auditsSince(since, advertiserUserId)).toEqual([]);
  });

  it('lets no one but an admin start acting', async () => {
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    const before = await t.db.select().from(sessions).where(eq(sessions.userId, advertiserUserId));
    const refused = await publisher.post('/api/admin/create-signin-link', { userId: advertiserUserId });
    expect(refused.statusCode).toBe(403);
    // Nor an admin acting as someone (the session is the user's), nor anyone with an admin's link.
    const { browser } = await actingAs(publisherUserId);
    expect((await browser.post('/api/admin/create-signin-link', { userId: advertiserUserId })).statusCode).toBe(403);
    const admin = t.client();
    await admin.signIn('admin@demo.test');
    const { url } = (await admin.post('/api/admin/create-signin-link', { userId: advertiserUserId })).json();
    expect((await publisher.get(url)).statusCode).toBe(410);
    expect((await browser.get(url)).statusCode).toBe(410);
    expect((await publisher.post('/api/common/user')).json()).toMatchObject({
      email: 'publisher@demo.test',
      actingAs: null,
    });
    const after = await t.db.select().from(sessions).where(eq(sessions.userId, advertiserUserId));
    expect(after).toHaveLength(before.length);
  });

  it('falls back to the admin when the acting time is up, audited as expired', async () => {
    const since = await lastAuditId();
    const { browser, ownToken } = await actingAs(advertiserUserId);
    t.clock.advance(ACTING_MINUTES * MINUTE_MS + 1);
    try {
      // The call that finds it over is answered as signed out; the browser is the admin's again.
      expect((await browser.post('/api/common/session')).json()).toEqual({ user: null });
      expect(browser.cookies.get(SESSION_COOKIE)).toBe(ownToken);
      expect(browser.cookies.has(ACTING_RETURN_COOKIE)).toBe(false);
      expect((await browser.post('/api/common/user')).json()).toMatchObject({
        email: 'admin@demo.test',
        actingAs: null,
      });
      const ended = (await auditsSince(since, advertiserUserId)).filter((row) => row.action === 'user.signinAsEnded');
      expect(ended.map((row) => row.details)).toEqual([{ reason: 'expired', minutes: ACTING_MINUTES }]);
    } finally {
      t.clock.advance(-(ACTING_MINUTES * MINUTE_MS + 1));
    }
  });

  it('signs the browser out entirely on a sign-out while acting, audited', async () => {
    const since = await lastAuditId();
    const { browser, ownToken } = await actingAs(advertiserUserId);
    const actingToken = browser.cookies.get(SESSION_COOKIE)!;
    expect((await browser.post('/api/common/signout')).statusCode).toBe(200);
    expect((await sessionRow(actingToken)).revokedAt).not.toBeNull();
    expect((await sessionRow(ownToken)).revokedAt).not.toBeNull();
    expect(browser.cookies.has(ACTING_RETURN_COOKIE)).toBe(false);
    expect((await browser.post('/api/common/user')).statusCode).toBe(401);
    const ended = (await auditsSince(since, advertiserUserId)).filter((row) => row.action === 'user.signinAsEnded');
    expect(ended.map((row) => (row.details as { reason: string }).reason)).toEqual(['signOut']);
  });

  it("ends the acting session with the admin's own, and trusts no other token as the way back", async () => {
    // The admin's own session revoked (signed out elsewhere): the acting one is over too.
    const first = await actingAs(advertiserUserId);
    await t.db
      .update(sessions)
      .set({ revokedAt: t.clock.now() })
      .where(eq(sessions.id, hashToken(first.ownToken)));
    expect((await first.browser.post('/api/common/user')).statusCode).toBe(401);
    expect(first.browser.cookies.has(ACTING_RETURN_COOKIE)).toBe(false);

    // The way back must be the session the acting one came from, not another admin session.
    const other = t.client();
    await other.signIn('admin@demo.test');
    const { browser } = await actingAs(advertiserUserId);
    browser.cookies.set(ACTING_RETURN_COOKIE, other.cookies.get(SESSION_COOKIE)!);
    const back = await browser.post('/api/common/stop-acting-as');
    expect(back.json()).toEqual({ status: 'signedOut' });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await browser.post('/api/common/user')).statusCode).toBe(401);
  });

  it('refuses, while acting, what only the user may decide: payouts and where they go', async () => {
    const { browser } = await actingAs(publisherUserId);
    expect((await browser.post('/api/publisher/get-settings')).statusCode).toBe(200);
    const save = await browser.post('/api/publisher/save-settings', {
      field: 'paypal',
      data: { email: 'someone-else@example.com' },
    });
    expect(save.statusCode).toBe(403);
    expect(save.json().status).toBe('notWhileActing');
    expect(save.json().message).toMatch(/acting as this user/);
    const payout = await browser.post('/api/publisher/request-payout', {});
    expect(payout.statusCode).toBe(403);
    expect(payout.json().status).toBe('notWhileActing');
  });
});
