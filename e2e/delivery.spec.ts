import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { apiSession, DEMO_BLOG_ID, eventually, startPublisherSite, totals } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let product: Product;
let site: Awaited<ReturnType<typeof startPublisherSite>>;
let browser: Browser;
let admin: Awaited<ReturnType<typeof apiSession>>;

async function context(userAgent = CHROME_UA): Promise<BrowserContext> {
  const created = await browser.newContext({ userAgent, viewport: { width: 1280, height: 800 } });
  // The advertisers' sites are not reachable here: answer them locally.
  await created.route(
    (url) => url.hostname !== 'localhost' && url.hostname !== '127.0.0.1',
    (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Advertiser</title>Advertiser site' }),
  );
  return created;
}

beforeAll(async () => {
  product = await startProduct();
  // The publisher's own line of code, as its Installation screen gives it.
  const publisher = await apiSession(product, 'publisher@demo.test');
  const installation = (await publisher.post('/api/publisher/get-installation-data', {})) as {
    publisher: { id: number };
    lineOfCode1: string;
  };
  expect(installation.publisher.id).toBe(DEMO_BLOG_ID);
  site = await startPublisherSite(installation.lineOfCode1);
  browser = await launchBrowser();
  admin = await apiSession(product, 'admin@demo.test');
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await product?.stop();
});

describe('the publisher script on another origin', () => {
  it('an ad that stays in view 1.5 s adds exactly one validated impression', async () => {
    const before = await totals(admin);
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/top.html`);
    const ad = page.locator('[data-helium-slot] a[href*="/c/"]');
    await ad.waitFor({ state: 'visible' });
    await expect(page.locator('[data-helium-slot]').getByText('Ad', { exact: true }).count()).resolves.toBe(1);
    await page.waitForTimeout(1500);
    await eventually(
      () => totals(admin),
      (now) => now.impressions === before.impressions + 1,
    );
    // Staying longer adds nothing more for this pageview.
    await page.waitForTimeout(1200);
    expect((await totals(admin)).impressions).toBe(before.impressions + 1);
    await ctx.close();
  });

  it('an ad never scrolled into view adds none', async () => {
    const before = await totals(admin);
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/below.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'attached' });
    await page.waitForTimeout(2500);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await ctx.close();
  });

  it('a bot user agent adds none', async () => {
    const before = await totals(admin);
    const ctx = await context(BOT_UA);
    const page = await ctx.newPage();
    const decision = page.waitForResponse((response) => response.url().includes('/serve/d?'));
    await page.goto(`${site.url}/top.html`);
    await decision;
    await page.waitForTimeout(2500);
    expect(await page.locator('[data-helium-slot] a').count()).toBe(0);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await ctx.close();
  });

  it('a click goes to the ad link with a click id and counts once per hour', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/top.html`);
    const ad = page.locator('[data-helium-slot] a[href*="/c/"]');
    await ad.waitFor({ state: 'visible' });
    const before = await totals(admin);
    const [first] = await Promise.all([ctx.waitForEvent('page'), ad.click()]);
    await first.waitForURL(/hclid=/);
    const landing = new URL(first.url());
    expect(landing.hostname).not.toBe('localhost');
    expect(landing.searchParams.get('hclid')).toMatch(/^[\w-]{16}$/);
    await eventually(
      () => totals(admin),
      (now) => now.clicks === before.clicks + 1,
    );
    const [second] = await Promise.all([ctx.waitForEvent('page'), ad.click()]);
    await second.waitForURL(/hclid=/);
    expect(new URL(second.url()).hostname).toBe(landing.hostname);
    expect((await totals(admin)).clicks).toBe(before.clicks + 1);
    await ctx.close();
  });
});
