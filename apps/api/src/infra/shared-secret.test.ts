import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sessionSecret } from '@helium/db';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { createTestDatabase, TEST_DRIVER } from '../../test/test-database.ts';
import { loadConfig } from '../config.ts';
import { databaseSessionSecret, withSessionSecret } from './shared-secret.ts';

const NO_SECRET = { SESSION_SECRET: '' };
const candidate = (letter: string) => letter.repeat(40);

/** Two instances on one PostgreSQL database, without SESSION_SECRET, each with its own DATA_DIR (two machines). */
describe.runIf(TEST_DRIVER === 'postgres')('the session secret shared through the database', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await buildTestApp({ env: NO_SECRET });
    second = await buildTestApp({ shareDatabaseWith: first, env: NO_SECRET });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('is generated once into the database, not into either DATA_DIR, and both instances use it', async () => {
    const rows = await first.db.select().from(sessionSecret);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret.length).toBeGreaterThanOrEqual(32);
    for (const t of [first, second]) {
      expect(t.app.ctx.config.sessionSecret).toBe(rows[0]!.secret);
      expect(t.app.ctx.config.hashidsSalt).toBe(rows[0]!.secret);
      expect(existsSync(join(t.app.ctx.config.dataDir, 'session-secret'))).toBe(false);
    }
  });

  it("lets each instance accept the other's session cookie and anti-forgery token", async () => {
    const browser = first.client();
    expect((await browser.signIn('advertiser@demo.test')).json().status).toBe('ok');
    const elsewhere = second.client();
    for (const [name, value] of browser.cookies) elsewhere.cookies.set(name, value);
    // The token issued by the first, echoed to the second, for a call that needs the session.
    const user = await elsewhere.post('/api/common/user');
    expect(user.statusCode).toBe(200);
    expect(user.json().email).toBe('advertiser@demo.test');
    // And back: a token the second issues works on the first.
    await elsewhere.csrf();
    browser.cookies.set('XSRF-TOKEN', elsewhere.cookies.get('XSRF-TOKEN')!);
    expect((await browser.post('/api/common/user')).statusCode).toBe(200);
  });

  it('is the same for instances starting at once with different candidates (the first committed wins)', async () => {
    const fresh = await createTestDatabase({ seed: false });
    const others = await Promise.all([1, 2, 3].map(() => openDatabase({ url: fresh.url })));
    try {
      const agreed = await Promise.all(
        [fresh, ...others].map((handle, index) => databaseSessionSecret(handle.db, candidate('abcd'[index]!))),
      );
      expect(new Set(agreed).size).toBe(1);
      expect(['a', 'b', 'c', 'd'].map(candidate)).toContain(agreed[0]);
      expect(await databaseSessionSecret(fresh.db, candidate('z'))).toBe(agreed[0]);
    } finally {
      await Promise.all(others.map((handle) => handle.close()));
      await fresh.drop();
    }
  });

  it('takes over the DATA_DIR secret a server kept before (its links and sessions stay valid); SESSION_SECRET wins', async () => {
    const fresh = await createTestDatabase({ seed: false });
    try {
      const dataDir = mkdtempSync(join(tmpdir(), 'helium-secret-'));
      writeFileSync(join(dataDir, 'session-secret'), `${candidate('k')}\n`);
      const loaded = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: fresh.url });
      expect(loaded.sessionSecret).toBeUndefined();
      expect((await withSessionSecret(loaded, fresh.db)).sessionSecret).toBe(candidate('k'));
      // Another machine, with no secret file of its own, gets the same.
      const elsewhere = loadConfig({
        DATA_DIR: mkdtempSync(join(tmpdir(), 'helium-secret-')),
        DATABASE_URL: fresh.url,
      });
      expect((await withSessionSecret(elsewhere, fresh.db)).sessionSecret).toBe(candidate('k'));
      const given = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: fresh.url, SESSION_SECRET: candidate('s') });
      expect(await withSessionSecret(given, fresh.db)).toMatchObject({
        sessionSecret: candidate('s'),
        hashidsSalt: candidate('s'),
      });
      const salted = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: fresh.url, HASHIDS_SALT: 'salt' });
      expect(await withSessionSecret(salted, fresh.db)).toMatchObject({
        sessionSecret: candidate('k'),
        hashidsSalt: 'salt',
      });
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a secret under 32 characters in the table (the database checks)', async () => {
    await expect(first.db.update(sessionSecret).set({ secret: 'short' })).rejects.toThrow();
  });
});
