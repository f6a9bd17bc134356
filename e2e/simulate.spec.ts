import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { count, eq, isNull, isNotNull } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { adClicks, adImpressions, adLeads, invalidTraffic, openDatabase, pageviews } from '@helium/db';
import { apiSession, totals } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

let product: Product | null = null;

afterAll(async () => {
  await product?.stop();
});

interface Summary {
  pageviews: number;
  views: number;
  clicks: number;
  leads: number;
  invalid: { pageviews: number; views: number; clicks: number; opens: number };
  newsletter: { opens: number; clicks: number };
}

/** The demo seed's newsletter publisher (La Lettre Tech), the demo publisher's second account. */
const DEMO_NEWSLETTER_ID = 2;
const OPENS = 120;

describe('traffic simulator', () => {
  it('drives web and newsletter traffic through the real endpoints and reports exactly what the server counted', async () => {
    product = await startProduct();
    const admin = await apiSession(product, 'admin@demo.test');
    const before = await totals(admin);
    // The newsletter's top banner snippet, as its Installation screen gives it.
    const publisher = await apiSession(product, 'publisher@demo.test');
    await publisher.post('/api/common/update-user', { key: 'type', value: `1,${DEMO_NEWSLETTER_ID}` });
    const installation = (await publisher.post('/api/publisher/get-installation-data', {})) as {
      publisher: { brand: string };
      owlHtmlBanner1: string;
    };
    expect(installation.publisher.brand).toBe('La Lettre Tech');

    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/simulate/main.ts',
        '--url',
        product.url,
        '--pageviews',
        '200',
        '--bots',
        '0.2',
        '--seed',
        '7',
        '--newsletter',
        installation.owlHtmlBanner1,
        '--opens',
        String(OPENS),
        '--issues',
        '3',
      ],
      { cwd: ROOT, timeout: 60_000 },
    );
    const summary = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Summary;
    expect(summary.pageviews + summary.invalid.pageviews).toBe(200);
    expect(summary.pageviews).toBeGreaterThan(100);
    expect(summary.invalid.pageviews).toBeGreaterThan(0);
    expect(summary.views).toBeGreaterThan(50);
    expect(summary.views).toBeLessThan(summary.pageviews);
    expect(summary.invalid.views + summary.invalid.clicks).toBeGreaterThan(0);
    // Every open was answered: counted, or set aside as a mail scanner's (bots).
    expect(summary.newsletter.opens + summary.invalid.opens).toBe(OPENS);
    expect(summary.newsletter.opens).toBeGreaterThan(OPENS / 2);
    expect(summary.invalid.opens).toBeGreaterThan(0);

    // The admin's activity totals moved by exactly what the simulator saw acknowledged.
    const after = await totals(admin);
    expect(after.impressions - before.impressions).toBe(summary.views + summary.newsletter.opens);
    expect(after.clicks - before.clicks).toBe(summary.clicks + summary.newsletter.clicks);

    // Every acknowledged answer is durable: after a SIGKILL, the event tables hold exactly the summary.
    const dataDir = product.dataDir;
    await product.kill();
    product = null;
    const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
    try {
      const db = database.db;
      const one = async (query: Promise<Array<{ total: number }>>) => Number((await query)[0]?.total ?? 0);
      expect(await one(db.select({ total: count() }).from(pageviews).where(isNull(pageviews.invalidReason)))).toBe(
        summary.pageviews,
      );
      expect(await one(db.select({ total: count() }).from(pageviews).where(isNotNull(pageviews.invalidReason)))).toBe(
        summary.invalid.pageviews,
      );
      expect(await one(db.select({ total: count() }).from(adImpressions))).toBe(
        summary.views + summary.newsletter.opens,
      );
      expect(await one(db.select({ total: count() }).from(adClicks).where(eq(adClicks.isUnique, true)))).toBe(
        summary.clicks + summary.newsletter.clicks,
      );
      expect(await one(db.select({ total: count() }).from(adLeads))).toBe(summary.leads);
      expect(
        await one(db.select({ total: count() }).from(invalidTraffic).where(eq(invalidTraffic.kind, 'impression'))),
      ).toBe(summary.invalid.views + summary.invalid.opens);
      expect(
        await one(db.select({ total: count() }).from(invalidTraffic).where(eq(invalidTraffic.kind, 'click'))),
      ).toBe(summary.invalid.clicks);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a product that is not on this machine', async () => {
    await expect(
      run(
        process.execPath,
        ['--import', 'tsx', 'scripts/simulate/main.ts', '--url', 'http://example.com', '--pageviews', '1'],
        {
          cwd: ROOT,
        },
      ),
    ).rejects.toMatchObject({ code: 2 });
  });
});
