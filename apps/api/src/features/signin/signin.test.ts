import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, loginCodes, users } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { codeFrom } from '../../../test/smtp-catcher.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function userRow(email: string) {
  const [row] = await t.db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row;
}

describe('anti-forgery', () => {
  it('sets a readable XSRF-TOKEN cookie', async () => {
    const response = await t.client().csrf();
    expect(response.statusCode).toBe(204);
    const cookie = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(cookie?.httpOnly).toBeFalsy();
  });

  it('answers 419 to a state-changing call without the token, and changes nothing', async () => {
    const client = t.client();
    const before = t.smtp.messages.length;
    const response = await client.post('/api/common/signin', { step: 1, email: 'admin@demo.test' }, { xsrf: false });
    expect(response.statusCode).toBe(419);
    expect(response.json().status).toBe('csrfTokenMismatch');
    expect(t.smtp.messages.length).toBe(before);
  });

  it('answers 419 to a forged token that matches a forged cookie', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/common/user',
      headers: { cookie: 'XSRF-TOKEN=abc.def', 'x-xsrf-token': 'abc.def', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(419);
  });
});

describe('sign-in', () => {
  it('answers 401 to /api/common/user before sign-in', async () => {
    const response = await t.client().post('/api/common/user');
    expect(response.statusCode).toBe(401);
    expect(response.json().status).toBe('unauthenticated');
  });

  it('answers an unknown e-mail as a known one at step 1, and sends no mail', async () => {
    const before = t.smtp.messages.length;
    const response = await t.client().post('/api/common/signin', { step: 1, email: 'nobody@demo.test' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', step: 2, hasUserAgreed: true, userType: null, redirectTo: null });
    expect(t.smtp.messages.length).toBe(before);
  });

  it('refuses a malformed e-mail with a 422 naming the field', async () => {
    const response = await t.client().post('/api/common/signin', { step: 1, email: 'not-an-email' });
    expect(response.statusCode).toBe(422);
    expect(response.json().issues[0].path).toBe('email');
  });

  it('mails a 6-digit code in the user language and signs in with it', async () => {
    const client = t.client();
    const before = t.smtp.messages.length;
    const step1 = await client.post('/api/common/signin', { step: 1, email: 'admin@demo.test' });
    expect(step1.json()).toEqual({ status: 'ok', step: 2, hasUserAgreed: true, userType: null, redirectTo: null });
    const mail = await t.smtp.waitForMail('admin@demo.test', before);
    const code = codeFrom(mail);
    expect(mail.subject).toBe(`Your Helium Ads sign-in code: ${code}`);
    expect(mail.text).toContain(code);
    const step2 = await client.post('/api/common/signin', { step: 2, email: 'admin@demo.test', code });
    expect(step2.json()).toEqual({
      status: 'ok',
      step: 3,
      hasUserAgreed: true,
      userType: 0,
      redirectTo: '/admin/stats',
    });
    const session = step2.cookies.find((c) => c.name === 'helium_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    const user = await client.post('/api/common/user');
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({ email: 'admin@demo.test', type: 0, isAdmin: true, locale: 'en' });
  });

  it.each([
    ['/advertiser/activity?addCredits=1&advertiser=3', '/advertiser/activity?addCredits=1&advertiser=3'],
    ['https://evil.example/', '/advertiser/activity'],
    ['//evil.example/', '/advertiser/activity'],
    ['/signin', '/advertiser/activity'],
  ])('returns to the page asked for before signing in (next %s), else goes home', async (next, redirectTo) => {
    const client = t.client();
    const before = t.smtp.messages.length;
    await client.post('/api/common/signin', { step: 1, email: 'advertiser@demo.test' });
    const code = codeFrom(await t.smtp.waitForMail('advertiser@demo.test', before));
    const step2 = await client.post('/api/common/signin', { step: 2, email: 'advertiser@demo.test', code, next });
    expect(step2.json()).toMatchObject({ status: 'ok', step: 3, redirectTo });
  });

  it('refuses a page to return to longer than a link (422 naming next), signing in no one', async () => {
    const client = t.client();
    const next = `/advertiser/activity?${'x'.repeat(2048)}`;
    const response = await client.post('/api/common/signin', { step: 2, email: 'a@demo.test', code: '123456', next });
    expect(response.statusCode).toBe(422);
    expect(response.json().issues[0]).toMatchObject({ path: 'next', key: 'tooLong' });
    expect((await client.post('/api/common/user')).statusCode).toBe(401);
  });

  it('mails the French code e-mail to a French user', async () => {
    const before = t.smtp.messages.length;
    await t.client().post('/api/common/signin', { step: 1, email: 'multi@demo.test' });
    const mail = await t.smtp.waitForMail('multi@demo.test', before);
    expect(mail.subject).toMatch(/^Votre code de connexion Helium Ads\u202f: \d{6}$/);
    expect(mail.text).toContain('Votre code de connexion est');
  });

  it('sends a wrong code back to step 1 and voids the mailed code', async () => {
    const client = t.client();
    const before = t.smtp.messages.length;
    await client.post('/api/common/signin', { step: 1, email: 'publisher@demo.test' });
    const code = codeFrom(await t.smtp.waitForMail('publisher@demo.test', before));
    const wrong = code === '000000' ? '111111' : '000000';
    const response = await client.post('/api/common/signin', { step: 2, email: 'publisher@demo.test', code: wrong });
    expect(response.json()).toMatchObject({ status: 'wrongCredentialsWrongToken', step: 1 });
    expect(response.cookies.find((c) => c.name === 'helium_session')).toBeUndefined();
    const retry = await client.post('/api/common/signin', { step: 2, email: 'publisher@demo.test', code });
    expect(retry.json().status).toBe('expiredCode');
    expect((await client.post('/api/common/user')).statusCode).toBe(401);
  });

  it('refuses a code after 15 minutes with expiredCode', async () => {
    const client = t.client();
    const before = t.smtp.messages.length;
    await client.post('/api/common/signin', { step: 1, email: 'advertiser@demo.test' });
    const code = codeFrom(await t.smtp.waitForMail('advertiser@demo.test', before));
    t.clock.advance(15 * 60_000 + 1000);
    const response = await client.post('/api/common/signin', { step: 2, email: 'advertiser@demo.test', code });
    expect(response.json()).toMatchObject({ status: 'expiredCode', step: 1 });
    expect((await client.post('/api/common/user')).statusCode).toBe(401);
  });

  it('refuses a code used twice, and a code in another browser than the one that asked for it', async () => {
    const first = t.client();
    const before = t.smtp.messages.length;
    await first.post('/api/common/signin', { step: 1, email: 'advertiser@demo.test' });
    const code = codeFrom(await t.smtp.waitForMail('advertiser@demo.test', before));
    const second = t.client();
    const elsewhere = await second.post('/api/common/signin', { step: 2, email: 'advertiser@demo.test', code });
    expect(elsewhere.json()).toMatchObject({ status: 'wrongCredentialsWrongToken', step: 1 });
    expect((await second.post('/api/common/user')).statusCode).toBe(401);
    const ok = await first.post('/api/common/signin', { step: 2, email: 'advertiser@demo.test', code });
    expect(ok.json().status).toBe('ok');
    first.cookies.delete('helium_session');
    first.cookies.delete('XSRF-TOKEN');
    const reused = await first.post('/api/common/signin', { step: 2, email: 'advertiser@demo.test', code });
    expect(reused.json()).toMatchObject({ status: 'expiredCode', step: 1 });
    expect((await first.post('/api/common/user')).statusCode).toBe(401);
  });

  it('stores only a hash of the code', async () => {
    const rows = await t.db.select().from(loginCodes);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.codeHash).not.toMatch(/^\d{6}$/);
  });

  it('asks a user who has not agreed to agree, and stores the agreement with its date', async () => {
    const client = t.client();
    const before = t.smtp.messages.length;
    const step1 = await client.post('/api/common/signin', { step: 1, email: 'multi@demo.test' });
    // Step 1 does not tell (issue 21, point 7): the agreement is asked for once the code is right.
    expect(step1.json()).toEqual({ status: 'ok', step: 2, hasUserAgreed: true, userType: null, redirectTo: null });
    const code = codeFrom(await t.smtp.waitForMail('multi@demo.test', before));
    const refused = await client.post('/api/common/signin', { step: 2, email: 'multi@demo.test', code });
    expect(refused.json()).toMatchObject({ status: 'agreementRequired', step: 2, hasUserAgreed: false });
    expect((await userRow('multi@demo.test')).agreedAt).toBeNull();
    const agreed = await client.post('/api/common/signin', {
      step: 2,
      email: 'multi@demo.test',
      code,
      hasUserAgreed: true,
    });
    expect(agreed.json()).toMatchObject({ status: 'ok', step: 3, redirectTo: '/publisher/accounting' });
    const row = await userRow('multi@demo.test');
    expect(row.agreedAt).toBeInstanceOf(Date);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.actorUserId, row.id));
    expect(audit.map((a) => a.action)).toContain('signin.agreed');
  });

  it('signs each demo user in and lands on the home of their type', async () => {
    const expected = {
      'admin@demo.test': '/admin/stats',
      'publisher@demo.test': '/publisher/accounting',
      'advertiser@demo.test': '/advertiser/activity',
    };
    for (const [email, redirectTo] of Object.entries(expected)) {
      const response = await t.client().signIn(email);
      expect(response.json()).toMatchObject({ status: 'ok', redirectTo });
    }
  });
});

describe('the signed-in user', () => {
  it('answers the fields of the User entity', async () => {
    const client = t.client();
    await client.signIn('publisher@demo.test');
    const user = (await client.post('/api/common/user')).json();
    expect(user).toMatchObject({
      name: 'Julien Martin',
      type: 1,
      accountBrand: 'Demo Blog',
      locale: 'en',
      currency: 'eur',
      isAdmin: false,
      isMultiType: false,
      publishers: [
        { id: expect.any(Number), brand: 'Demo Blog' },
        { id: expect.any(Number), brand: 'La Lettre Tech' },
      ],
      advertisers: [],
      advertiser_ids: [],
    });
    expect(user.usd_to_eur).toBeGreaterThan(0);
    expect(user.btc_to_eur).toBeGreaterThan(1000);
    expect(user.publisher_ids).toEqual(user.publishers.map((p: { id: number }) => p.id));
  });

  it('marks a user holding both publisher and advertiser accounts as multi-type', async () => {
    const client = t.client();
    await client.signIn('multi@demo.test');
    const user = (await client.post('/api/common/user')).json();
    expect(user.isMultiType).toBe(true);
    expect(user.publishers).toHaveLength(2);
    expect(user.advertisers).toHaveLength(2);
  });
});

describe('update-user', () => {
  it('switches to an account the user holds, and back', async () => {
    const client = t.client();
    await client.signIn('multi@demo.test');
    const before = (await client.post('/api/common/user')).json();
    const advertiser = before.advertisers[1];
    const switched = await client.post('/api/common/update-user', { key: 'type', value: `2,${advertiser.id}` });
    expect(switched.json()).toEqual({ status: 'ok' });
    const after = (await client.post('/api/common/user')).json();
    expect(after).toMatchObject({ type: 2, accountId: advertiser.id, accountBrand: advertiser.brand });
    await client.post('/api/common/update-user', { key: 'type', value: `1,${before.publishers[1].id}` });
    expect((await client.post('/api/common/user')).json()).toMatchObject({
      type: 1,
      accountId: before.publishers[1].id,
    });
  });

  it('refuses an account of another user (403) and changes nothing', async () => {
    const owner = t.client();
    await owner.signIn('advertiser@demo.test');
    const foreignId = (await owner.post('/api/common/user')).json().advertisers[0].id;
    const client = t.client();
    await client.signIn('multi@demo.test');
    const before = (await client.post('/api/common/user')).json();
    const response = await client.post('/api/common/update-user', { key: 'type', value: `2,${foreignId}` });
    expect(response.statusCode).toBe(403);
    expect(response.json().status).toBe('notYourAccount');
    const admin = await client.post('/api/common/update-user', { key: 'type', value: '0' });
    expect(admin.statusCode).toBe(403);
    const after = (await client.post('/api/common/user')).json();
    expect(after).toMatchObject({ type: before.type, accountId: before.accountId });
  });

  it('switches an admin to the admin entry', async () => {
    const client = t.client();
    await client.signIn('admin@demo.test');
    expect((await client.post('/api/common/update-user', { key: 'type', value: '0' })).json().status).toBe('ok');
  });

  it('changes locale and currency', async () => {
    const client = t.client();
    await client.signIn('advertiser@demo.test');
    expect((await client.post('/api/common/update-user', { key: 'locale', value: 'fr' })).statusCode).toBe(200);
    expect((await client.post('/api/common/update-user', { key: 'currency', value: 'btc' })).statusCode).toBe(200);
    expect((await client.post('/api/common/user')).json()).toMatchObject({ locale: 'fr', currency: 'btc' });
    await client.post('/api/common/update-user', { key: 'locale', value: 'en' });
    await client.post('/api/common/update-user', { key: 'currency', value: 'eur' });
  });

  it.each([
    [{ key: 'locale', value: 'de' }],
    [{ key: 'currency', value: 'gbp' }],
    [{ key: 'type', value: 'admin' }],
    [{ key: 'type', value: '3,1' }],
    [{ key: 'colour', value: 'red' }],
    [{}],
  ])('refuses %j with a 422 and changes nothing', async (body) => {
    const client = t.client();
    await client.signIn('publisher@demo.test');
    const before = (await client.post('/api/common/user')).json();
    const response = await client.post('/api/common/update-user', body);
    expect(response.statusCode).toBe(422);
    expect(response.json().status).toBe('invalidRequest');
    expect((await client.post('/api/common/user')).json()).toEqual(before);
  });

  it('answers 401 when signed out', async () => {
    const response = await t.client().post('/api/common/update-user', { key: 'locale', value: 'fr' });
    expect(response.statusCode).toBe(401);
  });
});

describe('sign-out', () => {
  it.each(['/api/signout', '/api/common/signout'])('%s revokes the session', async (path) => {
    const client = t.client();
    await client.signIn('publisher@demo.test');
    const token = client.cookies.get('helium_session');
    expect((await client.post(path)).json()).toEqual({ status: 'ok' });
    expect((await client.post('/api/common/user')).statusCode).toBe(401);
    // The old cookie, replayed (with an anti-forgery token bound to it), no longer signs anyone in.
    const replay = t.client();
    replay.cookies.set('helium_session', token ?? '');
    await replay.csrf();
    expect((await replay.post('/api/common/user')).statusCode).toBe(401);
  });
});

describe('admin gate', () => {
  it('lets an admin list users', async () => {
    const client = t.client();
    await client.signIn('admin@demo.test');
    const response = await client.post('/api/admin/get-users');
    expect(response.statusCode).toBe(200);
    const multi = response.json().users.find((u: { email: string }) => u.email === 'multi@demo.test');
    expect(multi.publisher_ids).toHaveLength(2);
    expect(multi.advertiser_ids).toHaveLength(2);
  });

  it.each(['publisher@demo.test', 'advertiser@demo.test'])('refuses %s with 403', async (email) => {
    const client = t.client();
    await client.signIn(email);
    const response = await client.post('/api/admin/get-users');
    expect(response.statusCode).toBe(403);
    expect(response.json().status).toBe('forbidden');
  });

  it('refuses a signed-out caller with 401', async () => {
    expect((await t.client().post('/api/admin/get-users')).statusCode).toBe(401);
  });
});
