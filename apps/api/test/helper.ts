import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions, type SigninLimits } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/infra/clock.ts';
import { createMailer } from '../src/infra/mailer.ts';
import { codeFrom, startSmtpCatcher } from './smtp-catcher.ts';
import { createTestDatabase, openTestDatabaseAgain, type TestDatabase } from './test-database.ts';

const GENEROUS_LIMITS: SigninLimits = {
  perIp: { limit: 10_000, windowMs: 60_000 },
  perEmail: { limit: 10_000, windowMs: 60_000 },
};

export interface TestAppOptions {
  signinLimits?: Partial<SigninLimits>;
  /** Ad delivery options (random source, traffic limits); its timers are off in tests. */
  delivery?: BuildAppOptions['delivery'];
  /** More environment variables for the configuration, as the server would read them. */
  env?: Record<string, string>;
  /** A logger to read what the server logs (none by default). */
  loggerInstance?: BuildAppOptions['loggerInstance'];
  /**
   * Another instance of the server on the database of `t` (standing for a second machine): its own DATA_DIR,
   * mail catcher and, on PostgreSQL, its own connections. Close it before `t`, which drops the database.
   */
  shareDatabaseWith?: { database: TestDatabase };
  /**
   * The database, for instances sharing one: its creator's handle (createTestDatabase) and handles opened again
   * (openTestDatabaseAgain). A fresh one by default. `close()` calls its `drop`: the creator's deletes the
   * database, so close the other instances first.
   */
  database?: TestDatabase;
  /** Timed jobs' polling and lease (BuildAppOptions['scheduler']). */
  scheduler?: BuildAppOptions['scheduler'];
  /** Calls one personal API token may make per window (BuildAppOptions['apiTokenLimit']). */
  apiTokenLimit?: BuildAppOptions['apiTokenLimit'];
}

/** The database of a test app: a fresh one, or another connection to the one `t` created (see shareDatabaseWith). */
async function testDatabase(shared: { database: TestDatabase } | undefined): Promise<TestDatabase> {
  if (!shared) return createTestDatabase();
  // The embedded database has one connection, in this process: the second instance shares it.
  if (!shared.database.url) return { ...shared.database, close: async () => {}, drop: async () => {} };
  return openTestDatabaseAgain(shared.database);
}

/**
 * Builds the real app on a fresh database with real SMTP to a local catcher and a controllable clock.
 * Calls go through app.inject (no open port). The configuration is read as the server reads it, with
 * DATABASE_URL naming the PostgreSQL test database (so uploads go to its media table, MEDIA_STORAGE's default).
 */
export async function buildTestApp(options: TestAppOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'helium-api-test-'));
  const smtp = await startSmtpCatcher();
  const database = options.database ?? (await testDatabase(options.shareDatabaseWith));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    SESSION_SECRET: 'test-secret-'.padEnd(40, 'x'),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const clock = new ManualClock(new Date());
  const log = pino({ level: 'silent' });
  const mailer = createMailer({ smtpUrl: smtp.url, from: config.mailFrom, outboxDir: join(dataDir, 'outbox'), log });
  // Generous limits by default so that many sign-ins in one file are not refused; rate-limit.test.ts sets tight ones.
  const signinLimits = { ...GENEROUS_LIMITS, ...options.signinLimits };
  const app = await buildApp({
    config,
    database,
    mailer,
    clock,
    signinLimits,
    delivery: { timers: false, ...options.delivery },
    loggerInstance: options.loggerInstance,
    scheduler: options.scheduler,
    apiTokenLimit: options.apiTokenLimit,
  });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    databaseKind: database.kind,
    smtp,
    clock,
    client: (ip = '127.0.0.1') => new TestClient(app, smtp, ip),
    async close() {
      await app.close();
      mailer.close();
      await smtp.close();
      await database.drop();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/** A client signed in as `email` (the demo publisher by default), working as publisher `accountId` when given. */
export async function signedInPublisher(t: TestApp, accountId?: number, email = 'publisher@demo.test') {
  const client = t.client();
  await client.signIn(email);
  if (accountId) {
    const switched = await client.post('/api/common/update-user', { key: 'type', value: `1,${accountId}` });
    expect(switched.json()).toEqual({ status: 'ok' });
  }
  return client;
}

/** A browser-like caller: keeps cookies, echoes the anti-forgery token, signs in by reading the e-mail. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly smtp: Awaited<ReturnType<typeof startSmtpCatcher>>,
    private readonly ip: string,
  ) {}

  private remember(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      const expired = cookie.expires instanceof Date && cookie.expires.getTime() <= Date.now();
      if (cookie.value === '' || expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string, headers: Record<string, string> = {}) {
    const response = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.ip,
      headers: { ...headers, cookie: this.cookieHeader() },
    });
    this.remember(response);
    return response;
  }

  async csrf() {
    return this.get('/sanctum/csrf-cookie');
  }

  /** POSTs JSON with the anti-forgery header (unless `xsrf: false`), as the web app does. */
  async post(url: string, body: unknown = {}, options: { xsrf?: boolean; headers?: Record<string, string> } = {}) {
    if (options.xsrf !== false && !this.cookies.has('XSRF-TOKEN')) await this.csrf();
    const headers: Record<string, string> = {
      ...options.headers,
      cookie: this.cookieHeader(),
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    };
    const token = this.cookies.get('XSRF-TOKEN');
    if (options.xsrf !== false && token) headers['x-xsrf-token'] = token;
    const response = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.ip,
      headers,
      payload: JSON.stringify(body),
    });
    this.remember(response);
    return response;
  }

  /** Step 1 then the code from the e-mail at step 2; answers the step-2 response. */
  async signIn(email: string, options: { agree?: boolean } = {}) {
    const before = this.smtp.messages.length;
    const step1 = await this.post('/api/common/signin', { step: 1, email });
    if (step1.json().status !== 'ok') throw new Error(`step 1 failed: ${step1.body}`);
    const code = codeFrom(await this.smtp.waitForMail(email, before));
    return this.post('/api/common/signin', { step: 2, email, code, hasUserAgreed: options.agree ?? true });
  }
}

/**
 * A call as a person's own tool makes it with a personal API token: `Authorization: Bearer <token>`, no cookie, no
 * anti-forgery header (unless `headers` add one).
 */
export function postWithToken(
  t: Pick<TestApp, 'app'>,
  token: string,
  url: string,
  body: unknown = {},
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress: '127.0.0.1',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
}
