import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { DEFAULT_RAW_EVENT_DAYS, MIN_RAW_EVENT_DAYS } from '@helium/domain/retention';
import { LOG_LEVELS, type LogLevel } from './infra/logger.ts';

/** Everything the server reads from its environment; see docs/configuration.md. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  appUrl: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  sessionSecret: string;
  /** Salt of the hash ids in public links (HASHIDS_SALT, else derived from the session secret). */
  hashidsSalt: string;
  /** Folder of uploaded media (DATA_DIR/media): where they are with MEDIA_STORAGE=local. */
  mediaDir: string;
  /** Where uploads are kept: `local` (mediaDir) or `postgres` (the database's `media` table, every instance). */
  mediaStorage: MediaStorageKind;
  /** Proxies whose X-Forwarded-For is believed (Fastify trustProxy: true/false, or addresses and ranges). */
  trustProxy: boolean | string;
  /** Sign-in calls allowed per e-mail and per IP in 15 minutes. */
  signinLimitPerEmail: number;
  signinLimitPerIp: number;
  /** Folder of the built web app; served when it exists. */
  webDistDir: string;
  isProduction: boolean;
  /** Publisher installation screen: seconds of its check progress bar (greater than 0). */
  publisherInstallCheckSeconds: number;
  /** The newsletter installation tutorial (its own page when unset) and its length in minutes. */
  newsletterTutorialUrl: string | undefined;
  newsletterTutorialMinutes: number;
  /** UTC days of raw event rows kept, today included (RAW_EVENT_DAYS); the daily summaries are kept forever. */
  rawEventDays: number;
  /** API processes on this machine (WORKERS, 1 by default): more than one needs DATABASE_URL and REDIS_URL. */
  workers: number;
  /** A file of hosting and cloud providers' IP ranges whose traffic is invalid (one CIDR a line); none when unset. */
  datacenterIpRangesFile: string | undefined;
  /** What the server logs (LOG_LEVEL, `info` by default). */
  logLevel: LogLevel;
  /** GET /metrics for callers other than loopback, as `Authorization: Bearer <token>` (METRICS_TOKEN); none when unset. */
  metricsToken: string | undefined;
  /**
   * Card payments (Stripe Checkout). Without `secretKey` the product serves its own test checkout page. `apiUrl`
   * sends the SDK's requests to a stand-in of Stripe's HTTP API (tests); each is undefined when unset.
   */
  stripe: StripeConfig;
}

/**
 * What loadConfig answers: the configuration, whose session secret is still to be read from the database when
 * DATABASE_URL is set and SESSION_SECRET is not (`sessionSecret` undefined, and `hashidsSalt` too unless
 * HASHIDS_SALT is set). buildApp completes it (infra/shared-secret.ts).
 */
export type LoadedConfig = Omit<AppConfig, 'sessionSecret' | 'hashidsSalt'> & {
  sessionSecret: string | undefined;
  hashidsSalt: string | undefined;
};

export const MEDIA_STORAGE_KINDS = ['local', 'postgres'] as const;
export type MediaStorageKind = (typeof MEDIA_STORAGE_KINDS)[number];

export interface StripeConfig {
  secretKey: string | undefined;
  publishableKey: string | undefined;
  webhookSecret: string | undefined;
  apiUrl: string | undefined;
}

/** A setting the server cannot start with: its message says which and why (main.ts prints it alone). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function readPort(value: string | undefined, fallback: number): number {
  const port = Number(value ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0-65535, got ${value}`);
  return port;
}

function readPositiveInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new ConfigError(`${name} must be a positive integer, got ${value}`);
  return parsed;
}

function readPositiveNumber(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new ConfigError(`${name} must be a number greater than 0, got ${value}`);
  return parsed;
}

/** RAW_EVENT_DAYS: whole days, enough for what the server reads back (MIN_RAW_EVENT_DAYS says what). */
function readRawEventDays(value: string | undefined): number {
  const days = readPositiveInteger(value, DEFAULT_RAW_EVENT_DAYS, 'RAW_EVENT_DAYS');
  if (days < MIN_RAW_EVENT_DAYS) {
    throw new ConfigError(
      `RAW_EVENT_DAYS must be at least ${MIN_RAW_EVENT_DAYS}: a lead is counted up to 30 days after its click, ` +
        `and reads the click and its decision back; got ${value}`,
    );
  }
  return days;
}

/** STRIPE_API_URL: an http(s) base URL (scheme, host, optional port; no path, the SDK would drop it). */
function readStripeApiUrl(value: string | undefined): string | undefined {
  const text = readUrl('STRIPE_API_URL', value, WEB_SCHEMES);
  if (!text) return undefined;
  const url = new URL(text);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`STRIPE_API_URL must be a base URL (scheme, host and port only), got ${text}`);
  }
  return url.origin;
}

/**
 * A URL setting of one of `schemes` (`http:`...), or undefined when unset: anything else stops the start with a
 * message naming the setting (a mistyped APP_URL would otherwise put broken links in every mail).
 */
function readUrl(name: string, value: string | undefined, schemes: readonly string[]): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const example = `${schemes[0]}//…`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} must be a URL such as ${example}, got ${text}`);
  }
  if (!schemes.includes(url.protocol) || !url.hostname) {
    throw new ConfigError(`${name} must be a ${schemes.join(' or ')} URL with a host, got ${text}`);
  }
  return text;
}

/** A file a setting names: it must exist (a mistyped path would otherwise be noticed at its first use, or never). */
function readExistingFile(name: string, value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const path = resolve(text);
  if (!existsSync(path)) throw new ConfigError(`${name} names a file that does not exist: ${path}`);
  return path;
}

/** Below this, a secret can be guessed: the serving tokens, anti-forgery tokens and login codes derive from it. */
export const MIN_SECRET_LENGTH = 32;

/**
 * TRUST_PROXY as Fastify takes it: `true`/`false`, or a list of addresses and ranges (`loopback`,
 * `10.0.0.0/8, 127.0.0.1`). Fastify reads any string as addresses, so "false" must become false.
 */
function readTrustProxy(value: string | undefined): boolean | string {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '') return 'loopback';
  if (text === 'true' || text === 'false') return text === 'true';
  for (const item of text.split(',').map((part) => part.trim())) {
    if (PROXY_KEYWORDS.has(item) || ipaddr.isValid(item) || isCidr(item)) continue;
    throw new ConfigError(
      `TRUST_PROXY must be true, false, or addresses and ranges (loopback, 10.0.0.0/8, 127.0.0.1), got ${item}`,
    );
  }
  return value!.trim();
}

/** The names of address ranges Fastify's proxy-addr knows. */
const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isCidr(text: string): boolean {
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}

/** A new session secret: 48 random bytes, 64 characters. */
export function generateSecret(): string {
  return randomBytes(48).toString('base64url');
}

/**
 * The secret kept in DATA_DIR/session-secret, or null when there is none. A file that was emptied or shortened
 * stops the start: anyone could otherwise compute the keys.
 */
export function readSecretFile(dataDir: string): string | null {
  const file = join(dataDir, 'session-secret');
  if (!existsSync(file)) return null;
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `${file} holds a secret of ${secret.length} characters; at least ${MIN_SECRET_LENGTH} are needed. ` +
        'Delete the file to have a new one generated (signed-in users will have to sign in again).',
    );
  }
  return secret;
}

/**
 * The session secret signs cookies and anti-forgery tokens. With the embedded database and no SESSION_SECRET it
 * is generated once and kept in DATA_DIR, so sessions survive restarts without a secret in the repository.
 */
export function loadOrCreateSecret(dataDir: string): string {
  const existing = readSecretFile(dataDir);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const secret = generateSecret();
  writeFileSync(join(dataDir, 'session-secret'), `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** MEDIA_STORAGE: `postgres` by default with DATABASE_URL (every instance reads it), else `local`. */
function readMediaStorage(value: string | undefined, databaseUrl: string | undefined): MediaStorageKind {
  const text = value?.trim().toLowerCase() || (databaseUrl ? 'postgres' : 'local');
  if (!(MEDIA_STORAGE_KINDS as readonly string[]).includes(text)) {
    throw new ConfigError(`MEDIA_STORAGE must be local or postgres, got ${value}`);
  }
  if (text === 'postgres' && !databaseUrl) {
    throw new ConfigError(
      'MEDIA_STORAGE=postgres keeps uploads in the PostgreSQL database of DATABASE_URL, which is unset: ' +
        'set DATABASE_URL, or MEDIA_STORAGE=local',
    );
  }
  return text as MediaStorageKind;
}

/**
 * WORKERS: API processes on this machine, sharing its port. Several serve one network only when what delivery
 * decides by is shared (PostgreSQL and Redis): with the embedded database, or without Redis, each would spend the
 * same credits in its own memory.
 */
function readWorkers(value: string | undefined, databaseUrl: string | undefined, redisUrl: string | undefined): number {
  const workers = readPositiveInteger(value, 1, 'WORKERS');
  if (workers > 1 && (!databaseUrl || !redisUrl)) {
    const missing = [databaseUrl ? null : 'DATABASE_URL', redisUrl ? null : 'REDIS_URL'].filter(Boolean).join(' and ');
    throw new ConfigError(
      `WORKERS=${workers} needs ${missing}: several processes serve one network only when they share its state ` +
        '(credits, reservations, daily caps, unique clicks) through PostgreSQL and Redis. Set them, or start one process.',
    );
  }
  return workers;
}

/** The embedded database's folder in DATA_DIR (unused with DATABASE_URL). */
export const embeddedDatabaseDir = (dataDir: string) => join(dataDir, 'db');

/**
 * Where the server keeps its data, and its database when not PostgreSQL: what backup and restore read without the
 * rest of the configuration (loadConfig would create a session secret in DATA_DIR).
 */
export function storageFrom(env: NodeJS.ProcessEnv = process.env): {
  dataDir: string;
  databaseUrl: string | undefined;
} {
  return {
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: readUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']),
  };
}

const WEB_SCHEMES = ['http:', 'https:'] as const;

function readLogLevel(value: string | undefined): LogLevel {
  const level = value?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${value}`);
  }
  return level as LogLevel;
}

/** METRICS_TOKEN: a scraper's bearer token, long enough not to be guessed. */
function readMetricsToken(value: string | undefined): string | undefined {
  const token = value?.trim();
  if (!token) return undefined;
  if (token.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${MIN_SECRET_LENGTH} characters (for example: openssl rand -hex 32), got ${token.length}`,
    );
  }
  return token;
}

/**
 * Reads the environment. The session secret: SESSION_SECRET when given; else, with DATABASE_URL, the one every
 * instance on that database shares, read by buildApp (left undefined here); else DATA_DIR/session-secret.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const port = readPort(env.PORT, 3000);
  const { dataDir, databaseUrl } = storageFrom(env);
  const secret = env.SESSION_SECRET?.trim();
  if (secret !== undefined && secret !== '' && secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  const sessionSecret = secret ? secret : databaseUrl ? undefined : loadOrCreateSecret(dataDir);
  // Checked only (media-probe.ts reads it): a path that does not exist would fall back to the ffmpeg on PATH unsaid.
  readExistingFile('FFMPEG_PATH', env.FFMPEG_PATH);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    appUrl: (readUrl('APP_URL', env.APP_URL, WEB_SCHEMES) ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl,
    redisUrl: readUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']),
    smtpUrl: readUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM ?? 'Helium Ads <no-reply@helium-ads.local>',
    sessionSecret,
    hashidsSalt: env.HASHIDS_SALT?.trim() || sessionSecret,
    mediaDir: join(dataDir, 'media'),
    mediaStorage: readMediaStorage(env.MEDIA_STORAGE, databaseUrl),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    signinLimitPerEmail: readPositiveInteger(env.SIGNIN_LIMIT_PER_EMAIL, 10, 'SIGNIN_LIMIT_PER_EMAIL'),
    signinLimitPerIp: readPositiveInteger(env.SIGNIN_LIMIT_PER_IP, 100, 'SIGNIN_LIMIT_PER_IP'),
    webDistDir: resolve(env.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    isProduction: env.NODE_ENV === 'production',
    publisherInstallCheckSeconds: readPositiveNumber(
      env.PUBLISHER_INSTALL_CHECK_SECONDS,
      5,
      'PUBLISHER_INSTALL_CHECK_SECONDS',
    ),
    newsletterTutorialUrl: readUrl('NEWSLETTER_TUTORIAL_URL', env.NEWSLETTER_TUTORIAL_URL, WEB_SCHEMES),
    newsletterTutorialMinutes: readPositiveInteger(env.NEWSLETTER_TUTORIAL_MINUTES, 3, 'NEWSLETTER_TUTORIAL_MINUTES'),
    rawEventDays: readRawEventDays(env.RAW_EVENT_DAYS),
    workers: readWorkers(env.WORKERS, databaseUrl, env.REDIS_URL || undefined),
    datacenterIpRangesFile: readExistingFile('DATACENTER_IP_RANGES_FILE', env.DATACENTER_IP_RANGES_FILE),
    logLevel: readLogLevel(env.LOG_LEVEL),
    metricsToken: readMetricsToken(env.METRICS_TOKEN),
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY?.trim() || undefined,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY?.trim() || undefined,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
      apiUrl: readStripeApiUrl(env.STRIPE_API_URL),
    },
  };
}
