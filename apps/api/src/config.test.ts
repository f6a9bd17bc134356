import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, MIN_SECRET_LENGTH } from './config.ts';

const freshDir = () => mkdtempSync(join(tmpdir(), 'helium-config-'));

describe('the session secret', () => {
  it('is generated once into DATA_DIR when SESSION_SECRET is unset, long enough, and kept', () => {
    const dir = freshDir();
    const first = loadConfig({ DATA_DIR: dir }).sessionSecret!;
    expect(first.length).toBeGreaterThanOrEqual(MIN_SECRET_LENGTH);
    expect(readFileSync(join(dir, 'session-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(first);
  });

  it.each([
    ['empty', ''],
    ['blank', '   \n'],
    ['short', 'x'.repeat(MIN_SECRET_LENGTH - 1)],
  ])('an %s secret file stops the start, naming the file (anyone could compute the keys)', (_kind, content) => {
    const dir = freshDir();
    writeFileSync(join(dir, 'session-secret'), content);
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/session-secret holds a secret of \d+ characters/);
  });

  it('a short SESSION_SECRET stops the start too', () => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), SESSION_SECRET: 'short' })).toThrow(/at least 32/);
  });

  it('with DATABASE_URL and no SESSION_SECRET, is left to the database (buildApp reads it): no file in DATA_DIR', () => {
    const dir = freshDir();
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/helium' });
    expect(config).toMatchObject({ sessionSecret: undefined, hashidsSalt: undefined });
    expect(existsSync(join(dir, 'session-secret'))).toBe(false);
    const given = loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/helium', SESSION_SECRET: 'g'.repeat(40) });
    expect(given.sessionSecret).toBe('g'.repeat(40));
  });
});

describe('MEDIA_STORAGE', () => {
  const base = { DATA_DIR: freshDir(), SESSION_SECRET: 'x'.repeat(40) };
  it.each([
    [{}, 'local'],
    [{ DATABASE_URL: 'postgres://db/helium' }, 'postgres'],
    [{ DATABASE_URL: 'postgres://db/helium', MEDIA_STORAGE: 'local' }, 'local'],
    [{ DATABASE_URL: 'postgres://db/helium', MEDIA_STORAGE: ' Postgres ' }, 'postgres'],
  ])('%j is %s (postgres by default with DATABASE_URL: every instance reads it)', (env, expected) => {
    expect(loadConfig({ ...base, ...env }).mediaStorage).toBe(expected);
  });

  it('refuses an unknown storage, and postgres without DATABASE_URL, saying why', () => {
    expect(() => loadConfig({ ...base, MEDIA_STORAGE: 's3' })).toThrow(/MEDIA_STORAGE must be local or postgres/);
    expect(() => loadConfig({ ...base, MEDIA_STORAGE: 'postgres' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MEDIA_STORAGE: 'postgres' })).toThrow(/DATABASE_URL, which is unset/);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, 'loopback'],
    ['false', false],
    ['FALSE', false],
    ['true', true],
    ['10.0.0.0/8, 127.0.0.1', '10.0.0.0/8, 127.0.0.1'],
  ])('%s is read as %j, and Fastify starts with it', async (value, expected) => {
    const config = loadConfig({ DATA_DIR: freshDir(), SESSION_SECRET: 'x'.repeat(40), TRUST_PROXY: value });
    expect(config.trustProxy).toBe(expected);
    const app = Fastify({ trustProxy: config.trustProxy });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    const answer = await app.inject({
      url: '/ip',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '1.2.3.4' },
    });
    expect(answer.json().ip).toBe(expected === false ? '127.0.0.1' : '1.2.3.4');
    await app.close();
  });
});

describe('RAW_EVENT_DAYS', () => {
  const load = (value?: string) =>
    loadConfig({ DATA_DIR: freshDir(), SESSION_SECRET: 'x'.repeat(40), RAW_EVENT_DAYS: value }).rawEventDays;

  it('defaults to 90 and takes whole days from 32', () => {
    expect(load()).toBe(90);
    expect(load('')).toBe(90);
    expect(load('32')).toBe(32);
    expect(load('400')).toBe(400);
  });

  it.each(['31', '7', '0', '-5', '90.5', 'ninety'])('%s stops the start, naming the setting', (value) => {
    expect(() => load(value)).toThrow(/^RAW_EVENT_DAYS must be/);
  });
});

describe('WORKERS', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: freshDir(), SESSION_SECRET: 'x'.repeat(40), ...env }).workers;
  const shared = { DATABASE_URL: 'postgres://db/helium', REDIS_URL: 'redis://cache:6379' };

  it('defaults to one process, and takes more with PostgreSQL and Redis', () => {
    expect(load({})).toBe(1);
    expect(load({ WORKERS: '1' })).toBe(1);
    expect(load({ ...shared, WORKERS: '4' })).toBe(4);
  });

  it('refuses several processes without the shared state, naming what is missing and why', () => {
    expect(() => load({ WORKERS: '2' })).toThrow(/^WORKERS=2 needs DATABASE_URL and REDIS_URL: several processes/);
    expect(() => load({ WORKERS: '2', DATABASE_URL: shared.DATABASE_URL })).toThrow(/^WORKERS=2 needs REDIS_URL:/);
    expect(() => load({ WORKERS: '2', REDIS_URL: shared.REDIS_URL })).toThrow(/^WORKERS=2 needs DATABASE_URL:/);
  });

  it.each(['0', '-1', '1.5', 'two'])('%s stops the start, naming the setting', (value) => {
    expect(() => load({ WORKERS: value })).toThrow(/^WORKERS must be a positive integer/);
  });
});

describe('LOG_LEVEL and METRICS_TOKEN', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: freshDir(), SESSION_SECRET: 'x'.repeat(40), ...env });

  it('logs at info by default, and takes any pino level, in any case', () => {
    expect(load({}).logLevel).toBe('info');
    expect(load({ LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
    expect(load({ LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
  });

  it('stops the start on an unknown level, listing the levels', () => {
    expect(() => load({ LOG_LEVEL: 'verbose' })).toThrow(/^LOG_LEVEL must be one of fatal, error, warn, info/);
  });

  it('has no metrics token by default, and refuses one that could be guessed', () => {
    expect(load({}).metricsToken).toBeUndefined();
    expect(load({ METRICS_TOKEN: 'm'.repeat(MIN_SECRET_LENGTH) }).metricsToken).toBe('m'.repeat(MIN_SECRET_LENGTH));
    expect(() => load({ METRICS_TOKEN: 'short' })).toThrow(/^METRICS_TOKEN must be at least 32 characters/);
  });
});

describe('.env.example (issue 26, point 7)', () => {
  const root = new URL('../../../', import.meta.url);
  /** The variables of the first column of the table in README's "Configuration" section. */
  const readmeVariables = () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration')).split(/\n## /)[0]!;
    return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((match) => match[1]!);
  };

  it('lists every variable of the README table, and no other', () => {
    const example = readFileSync(new URL('.env.example', root), 'utf8');
    const listed = [...example.matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    const documented = readmeVariables();
    expect(documented.length).toBeGreaterThan(20);
    expect([...listed].sort()).toEqual([...documented].sort());
  });
});

describe('settings that name a place', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: freshDir(), SESSION_SECRET: 'x'.repeat(40), ...env });

  it.each([
    ['APP_URL', 'not-a-url'],
    ['APP_URL', 'ftp://ads.example'],
    ['NEWSLETTER_TUTORIAL_URL', 'tutorial'],
    ['SMTP_URL', 'not-a-url'],
    ['SMTP_URL', 'http://mail.example'],
    ['DATABASE_URL', 'mysql://x@127.0.0.1/y'],
    ['REDIS_URL', 'http://cache:6379'],
    ['TRUST_PROXY', 'garbage'],
    ['TRUST_PROXY', '10.0.0.0/8, proxy.example'],
    ['FFMPEG_PATH', '/nonexistent/ffmpeg'],
  ])('%s=%s stops the start, naming the setting', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });

  it('takes what they are meant to hold', () => {
    const config = load({
      APP_URL: 'https://ads.example/',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      DATABASE_URL: 'postgresql://db/helium',
      REDIS_URL: 'rediss://cache:6380',
      TRUST_PROXY: 'loopback, 10.0.0.0/8, ::1',
      NEWSLETTER_TUTORIAL_URL: 'https://example.com/tutorial',
    });
    expect(config).toMatchObject({
      appUrl: 'https://ads.example',
      smtpUrl: 'smtps://user:pass@mail.example:465',
      databaseUrl: 'postgresql://db/helium',
      redisUrl: 'rediss://cache:6380',
      trustProxy: 'loopback, 10.0.0.0/8, ::1',
      newsletterTutorialUrl: 'https://example.com/tutorial',
    });
  });
});
