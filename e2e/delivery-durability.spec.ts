import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { count, like } from 'drizzle-orm';
import { adDecisions, openDatabase, pageviews } from '@helium/db';
import { MIN_VIEW_MS } from '@helium/domain';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSession, DEMO_BLOG_ID, totals } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const N = 40;
/** A PostgreSQL server the tests may create databases on (as the API tests' api-postgres project). */
const POSTGRES_URL = process.env.TEST_DATABASE_URL;

let product: Product | null = null;

afterAll(async () => {
  await product?.stop();
});

/** A visitor behind the local reverse proxy (X-Forwarded-For is trusted from loopback). */
const headers = (index: number) => ({ 'user-agent': UA, 'x-forwarded-for': `198.51.100.${index + 1}` });

/**
 * Starts the product, has N view beacons answered 2xx, kills it with SIGKILL, starts it again on the same
 * data (DATA_DIR, and the database named by `env`) and answers how many impressions it counted meanwhile.
 */
async function countedAfterSigkill(env: Record<string, string> = {}): Promise<number> {
  product = await startProduct(env);
  const dataDir = product.dataDir;
  const before = await totals(await apiSession(product, 'admin@demo.test'));
  const tokens: string[] = [];
  for (let index = 0; index < N; index++) {
    const response = await fetch(
      `${product.url}/serve/d?p=${DEMO_BLOG_ID}&w=1280&u=${encodeURIComponent('http://localhost/page')}`,
      { headers: { ...headers(index), origin: 'http://localhost' } },
    );
    const { ads } = (await response.json()) as { ads: Array<{ view: string }> };
    expect(ads.length).toBeGreaterThan(0);
    tokens.push(ads[0]!.view);
  }
  // The script sends a view once its ad has been in view for a second: earlier beacons are set aside.
  await new Promise((resolve) => setTimeout(resolve, MIN_VIEW_MS.image + 100));
  const answers = await Promise.all(
    tokens.map((token, index) =>
      fetch(`${product!.url}/serve/v`, {
        method: 'POST',
        // As sendBeacon sends it from the page: with the page's Origin (a beacon without one is no browser's).
        headers: { ...headers(index), origin: 'http://localhost', 'content-type': 'text/plain' },
        body: token,
      }),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(N).fill(204));
  expect(answers.every((answer) => answer.headers.get('x-helium-counted') === 'counted')).toBe(true);

  await product.kill();
  product = await startProduct(env, { dataDir });
  const after = await totals(await apiSession(product, 'admin@demo.test'));
  await product.stop();
  product = null;
  rmSync(dataDir, { recursive: true, force: true });
  return after.impressions - before.impressions;
}

/** Drops a test database; the killed process's connections go away as the server notices, else forced out. */
async function dropDatabase(admin: pg.Client, name: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`drop database if exists ${name}${attempt < 40 ? '' : ' with (force)'}`);
      return;
    } catch (error) {
      if (attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A fresh, empty PostgreSQL database for one run (the product migrates and seeds it), dropped afterwards. */
async function withFreshDatabase(adminUrl: string, run: (url: string) => Promise<void>) {
  const name = `helium_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await run(url.toString());
  } finally {
    await dropDatabase(admin, name);
    await admin.end();
  }
}

describe('counting that loses nothing', () => {
  it('N view beacons answered 2xx, then SIGKILL, then restart: exactly N counted (PGlite in DATA_DIR)', async () => {
    expect(await countedAfterSigkill()).toBe(N);
  });

  it('pageviews answered while a SIGTERM stops the server: the graceful stop writes every answered one', async () => {
    product = await startProduct();
    const running = product;
    const dataDir = running.dataDir;
    let stopping: Promise<void> | null = null;
    // N pageviews at once; the stop is asked as soon as the first is answered, while the others are in flight.
    const results = await Promise.allSettled(
      Array.from({ length: N }, (_, index) =>
        fetch(
          `${running.url}/serve/d?p=${DEMO_BLOG_ID}&w=1280&u=${encodeURIComponent(`http://localhost/stop/${index}`)}`,
          {
            headers: { ...headers(index), origin: 'http://localhost' },
          },
        ).then(async (response) => {
          stopping ??= running.stop({ keepData: true });
          const { ads } = (await response.json()) as { ads: unknown[] };
          return response.status === 200 && ads.length > 0;
        }),
      ),
    );
    await stopping;
    product = null;
    const answered = results.filter((result) => result.status === 'fulfilled' && result.value).length;
    expect(answered).toBeGreaterThan(0);
    // Decisions are answered before their batch commits: the stop must still write each one answered.
    const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
    try {
      const [views] = await database.db
        .select({ total: count() })
        .from(pageviews)
        .where(like(pageviews.url, 'http://localhost/stop/%'));
      const [decided] = await database.db
        .select({ total: count() })
        .from(adDecisions)
        .where(like(adDecisions.url, 'http://localhost/stop/%'));
      expect(views!.total).toBeGreaterThanOrEqual(answered);
      expect(views!.total).toBeLessThanOrEqual(N);
      expect(decided!.total).toBe(views!.total);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a second server on the same DATA_DIR refuses to start, saying why, and the first goes on counting', async () => {
    product = await startProduct();
    const second = await startProduct({}, { dataDir: product.dataDir }).then(
      async (started) => {
        await started.kill();
        return null;
      },
      (error: Error) => error.message,
    );
    expect(second).toMatch(/The product exited early/);
    expect(second).toContain(`The embedded database is already open in process`);
    expect(second).toContain('stop the other one first');
    const health = await fetch(`${product.url}/healthz`);
    expect(health.status).toBe(200);
    const decision = await fetch(`${product.url}/serve/d?p=${DEMO_BLOG_ID}&w=1280&u=http%3A%2F%2Flocalhost%2Fp`, {
      headers: { ...headers(0), origin: 'http://localhost' },
    });
    expect(decision.headers.get('x-helium-counted')).toBe('counted');
    await product.stop();
    product = null;
  });

  it.skipIf(!POSTGRES_URL)(
    'N view beacons answered 2xx, then SIGKILL, then restart: exactly N counted (PostgreSQL, DATABASE_URL)',
    async () => {
      await withFreshDatabase(POSTGRES_URL!, async (url) => {
        expect(await countedAfterSigkill({ DATABASE_URL: url })).toBe(N);
        // The product did run on this database: the impressions are its rows.
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const { rows } = await client.query<{ n: number }>('select count(*)::int as n from ad_impressions');
        await client.end();
        expect(rows[0]?.n).toBeGreaterThanOrEqual(N);
      });
    },
  );
});
