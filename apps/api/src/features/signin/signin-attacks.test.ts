import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { loginCodes, users } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { codeFrom } from '../../../test/smtp-catcher.ts';
import { LoginCodes } from './login-codes.ts';

const WINDOW_MS = 15 * 60_000;
let t: TestApp;
beforeAll(async () => {
  // The limits the server has by default (SIGNIN_LIMIT_PER_EMAIL=10, SIGNIN_LIMIT_PER_IP=100).
  t = await buildTestApp({
    signinLimits: { perEmail: { limit: 10, windowMs: WINDOW_MS }, perIp: { limit: 100, windowMs: WINDOW_MS } },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  // Each test starts with fresh rate-limit windows.
  t.clock.advance(WINDOW_MS + 1000);
});
afterAll(async () => {
  await t?.close();
});

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const step1 = (client: TestClient, email: string) => client.post('/api/common/signin', { step: 1, email });
const step2 = (client: TestClient, email: string, code: string, hasUserAgreed?: boolean) =>
  client.post('/api/common/signin', { step: 2, email, code, ...(hasUserAgreed ? { hasUserAgreed } : {}) });

/** Step 1, and the code of the mail it sent. */
async function askCode(client: TestClient, email: string): Promise<string> {
  const before = t.smtp.messages.length;
  const response = await step1(client, email);
  expect(response.statusCode).toBe(200);
  return codeFrom(await t.smtp.waitForMail(email, before));
}

async function userId(email: string) {
  const [row] = await t.db.select().from(users).where(eq(users.email, email));
  return row!.id;
}

describe('step 1 says nothing about the e-mail (issue 21, point 7)', () => {
  it('answers a known, an unknown, and a not-yet-agreed e-mail alike; mails only the known ones', async () => {
    const before = t.smtp.messages.length;
    const answers = [];
    for (const email of ['admin@demo.test', 'nobody-here@demo.test', 'multi@demo.test', 'advertiser@demo.test']) {
      const response = await step1(t.client(), email);
      answers.push({ status: response.statusCode, body: response.json() });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 200,
      body: { status: 'ok', step: 2, hasUserAgreed: true, userType: null, redirectTo: null },
    });
    // Each known address's mail (they may arrive in any order), then time for a mail that should not come.
    for (const known of ['admin@demo.test', 'multi@demo.test', 'advertiser@demo.test']) {
      await t.smtp.waitForMail(known, before);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const recipients = t.smtp.messages.slice(before).map((mail) => mail.to);
    expect(recipients).toHaveLength(3);
    expect(recipients.join(' ')).not.toContain('nobody-here');
  });

  it('answers a code for an unknown e-mail as a wrong code for a known one', async () => {
    const known = await step2(t.client(), 'admin@demo.test', '000000');
    const unknown = await step2(t.client(), 'nobody-here@demo.test', '000000');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json()).toEqual({
      status: 'wrongCredentialsWrongToken',
      step: 1,
      hasUserAgreed: true,
      userType: null,
      redirectTo: null,
    });
  });

  it('asks for the agreement only once the code is right: a wrong code without it says nothing about the user', async () => {
    const client = t.client();
    const code = await askCode(client, 'multi@demo.test');
    const guess = await step2(t.client(), 'multi@demo.test', wrongOf(code));
    const other = await step2(t.client(), 'admin@demo.test', wrongOf(code));
    expect(guess.json()).toEqual(other.json());
    // The owner's code was asked for in the owner's browser: the guesses elsewhere did not spend it.
    const right = await step2(client, 'multi@demo.test', code);
    expect(right.json()).toEqual({
      status: 'agreementRequired',
      step: 2,
      hasUserAgreed: false,
      userType: null,
      redirectTo: null,
    });
    // The same code, now with the agreement, signs in.
    const agreed = await step2(client, 'multi@demo.test', code, true);
    expect(agreed.json()).toMatchObject({ status: 'ok', step: 3, redirectTo: '/publisher/accounting' });
  });
});

describe('failed guesses cannot lock the owner out (issue 21, point 5)', () => {
  it('lets the owner ask for a code and sign in after ten wrong codes from ten addresses', async () => {
    for (let i = 1; i <= 10; i += 1) {
      const response = await step2(t.client(`203.0.113.${i}`), 'admin@demo.test', '123456');
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('wrongCredentialsWrongToken');
    }
    const owner = t.client('198.51.100.7');
    const code = await askCode(owner, 'admin@demo.test');
    const signedIn = await step2(owner, 'admin@demo.test', code);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ status: 'ok', redirectTo: '/admin/stats' });
  });

  it("does not spend the owner's open code with other people's wrong guesses", async () => {
    const owner = t.client('198.51.100.8');
    const code = await askCode(owner, 'advertiser@demo.test');
    for (let i = 1; i <= 10; i += 1) {
      const attacker = t.client(`203.0.113.${20 + i}`);
      await step1(attacker, 'advertiser@demo.test');
      expect((await step2(attacker, 'advertiser@demo.test', wrongOf(code))).json().status).toBe(
        'wrongCredentialsWrongToken',
      );
    }
    expect((await step2(owner, 'advertiser@demo.test', code)).json()).toMatchObject({ status: 'ok' });
  });

  it('still stops one address that keeps guessing: 429 after 10 wrong codes for one e-mail', async () => {
    const attacker = t.client('203.0.113.99');
    const statuses = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await step2(attacker, 'publisher@demo.test', '654321')).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // The owner, elsewhere, is not concerned.
    const owner = t.client('198.51.100.9');
    expect((await step2(owner, 'publisher@demo.test', await askCode(owner, 'publisher@demo.test'))).json().status).toBe(
      'ok',
    );
  });
});

describe('a login code is spent atomically (issue 21, point 5)', () => {
  it('signs in once when the right code is sent five times at once', async () => {
    const client = t.client('198.51.100.20');
    const code = await askCode(client, 'advertiser@demo.test');
    const answers = await Promise.all(Array.from({ length: 5 }, () => step2(client, 'advertiser@demo.test', code)));
    expect(answers.filter((answer) => answer.json().status === 'ok')).toHaveLength(1);
  });

  it('spends the codes exactly once among 4 wrong and the right one sent at once; the right one wins only if it spent them', async () => {
    const client = t.client('198.51.100.21');
    const email = 'publisher@demo.test';
    const code = await askCode(client, email);
    const checks = vi.spyOn(LoginCodes.prototype, 'check');
    const spends = vi.spyOn(LoginCodes.prototype, 'spendOpen');
    const guesses = ['000001', '000002', '000003', '000004'].filter((guess) => guess !== code).slice(0, 4);
    const answers = await Promise.all([...guesses, code].map((guess) => step2(client, email, guess)));
    const statuses = answers.map((answer) => answer.json().status);
    expect(statuses.filter((status) => status === 'ok').length).toBeLessThanOrEqual(1);
    // Each check spends the open codes as its first step (the call orders agree).
    expect(checks.mock.calls).toHaveLength(5);
    const spent = await Promise.all(spends.mock.results.map(async (result) => (await result.value).length));
    const outcomes = await Promise.all(checks.mock.results.map((result) => result.value));
    expect(spent.reduce((sum, count) => sum + count, 0)).toBe(1);
    checks.mock.calls.forEach((call, i) => {
      const isRight = call[2] === code;
      expect(outcomes[i] === 'ok').toBe(isRight && spent[i] === 1);
    });
    // Whoever came first, the code is consumed once and no other stays open.
    const rows = await t.db
      .select()
      .from(loginCodes)
      .where(eq(loginCodes.userId, await userId(email)));
    expect(rows.every((row) => row.consumedAt !== null)).toBe(true);
  });
});
