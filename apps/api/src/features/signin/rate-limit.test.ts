import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { codeFrom } from '../../../test/smtp-catcher.ts';
import { INBOX_LIMIT_FACTOR, addressKey } from './signin-limits.ts';

const PER_EMAIL = 3;
const PER_IP = 8;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    signinLimits: { perEmail: { limit: PER_EMAIL, windowMs: 60_000 }, perIp: { limit: PER_IP, windowMs: 60_000 } },
  });
});
afterAll(async () => {
  await t?.close();
});

const step1 = (client: TestClient, email: string) => client.post('/api/common/signin', { step: 1, email });
const step2 = (client: TestClient, email: string, code: string) =>
  client.post('/api/common/signin', { step: 2, email, code });
const nextWindow = () => t.clock.advance(61_000);
/** The browser forgets its session (its anti-forgery token was bound to it), keeping its browser id. */
const forgetSession = (client: TestClient) => {
  client.cookies.delete('helium_session');
  client.cookies.delete('XSRF-TOKEN');
};

describe('sign-in rate limits', () => {
  it('answers 429 after too many codes asked for one e-mail from one address; another address still gets one', async () => {
    const client = t.client('10.0.0.1');
    const statuses = [];
    for (let i = 0; i <= PER_EMAIL; i += 1) statuses.push((await step1(client, 'admin@demo.test')).statusCode);
    expect(statuses).toEqual([...Array(PER_EMAIL).fill(200), 429]);
    expect((await step1(t.client('10.0.0.2'), 'admin@demo.test')).json().status).toBe('ok');
    nextWindow();
  });

  it('answers 429 after too many wrong codes for one e-mail from one address, and spares the owner elsewhere', async () => {
    const guesser = t.client('10.0.1.1');
    const statuses = [];
    for (let i = 0; i <= PER_EMAIL; i += 1)
      statuses.push((await step2(guesser, 'admin@demo.test', '123456')).statusCode);
    expect(statuses).toEqual([...Array(PER_EMAIL).fill(200), 429]);
    // The owner, at another address, asks for a code and signs in.
    const owner = t.client('10.0.1.2');
    const response = await owner.signIn('admin@demo.test');
    expect(response.json().status).toBe('ok');
    nextWindow();
  });

  it('counts only wrong codes: the owner signing in again and again is not slowed down', async () => {
    const owner = t.client('10.0.2.1');
    for (let i = 0; i < PER_EMAIL; i += 1) {
      forgetSession(owner);
      expect((await owner.signIn('publisher@demo.test')).json().status).toBe('ok');
    }
    nextWindow();
  });

  it(`caps the codes mailed to one inbox from all addresses together (${INBOX_LIMIT_FACTOR} × per e-mail)`, async () => {
    const inbox = INBOX_LIMIT_FACTOR * PER_EMAIL;
    const before = t.smtp.messages.length;
    const statuses = [];
    for (let i = 0; i <= inbox; i += 1)
      statuses.push((await step1(t.client(`10.0.3.${i + 1}`), 'advertiser@demo.test')).statusCode);
    expect(statuses).toEqual([...Array(inbox).fill(200), 429]);
    expect(t.smtp.messages.length - before).toBe(inbox);
    nextWindow();
  });

  it('exempts from the inbox cap an address the owner signed in from before', async () => {
    const owner = t.client('10.0.4.1');
    expect((await owner.signIn('advertiser@demo.test')).json().status).toBe('ok');
    nextWindow();
    // Someone floods the inbox from other addresses until the cap is reached.
    for (let i = 0; i < INBOX_LIMIT_FACTOR * PER_EMAIL; i += 1)
      await step1(t.client(`10.0.5.${i + 1}`), 'advertiser@demo.test');
    expect((await step1(t.client('10.0.5.200'), 'advertiser@demo.test')).statusCode).toBe(429);
    // The owner, at the address they used, still gets a code and signs in.
    const before = t.smtp.messages.length;
    forgetSession(owner);
    expect((await step1(owner, 'advertiser@demo.test')).statusCode).toBe(200);
    const code = codeFrom(await t.smtp.waitForMail('advertiser@demo.test', before));
    expect((await step2(owner, 'advertiser@demo.test', code)).json().status).toBe('ok');
    nextWindow();
  });

  it('counts an unknown e-mail as a known one: its 429 comes at the same try', async () => {
    const statuses = async (email: string, ip: string) => {
      const client = t.client(ip);
      const all = [];
      for (let i = 0; i <= PER_EMAIL; i += 1) all.push((await step1(client, email)).statusCode);
      return all;
    };
    expect(await statuses('nobody@demo.test', '10.0.6.1')).toEqual(await statuses('publisher@demo.test', '10.0.6.2'));
    nextWindow();
  });

  it('answers 429 after too many attempts from one IP, whatever the e-mail', async () => {
    const client = t.client('10.9.9.9');
    const statuses = [];
    for (let i = 0; i <= PER_IP; i += 1) statuses.push((await step1(client, `guess${i}@demo.test`)).statusCode);
    expect(statuses).toEqual([...Array(PER_IP).fill(200), 429]);
  });

  it('opens again when the window has passed', async () => {
    nextWindow();
    const response = await step1(t.client('10.9.9.9'), 'nobody@demo.test');
    expect(response.statusCode).toBe(200);
  });

  it('counts an IPv6 address by its /64, and an IPv4-mapped one as its IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::');
    expect(addressKey('2001:db8::1')).toBe('2001:db8::');
    expect(addressKey('::1')).toBe('::');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
  });
});
