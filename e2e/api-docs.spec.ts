import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** Every console error and page error, and every request to an origin other than the product's. */
function watch(page: Page) {
  const errors: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.context().on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== product.url)
      elsewhere.push(request.url());
  });
  return { errors, elsewhere };
}

describe('the API reference at /api/docs (issue 35, point 2)', () => {
  it('renders every call from the product itself: no console error, no request elsewhere', async () => {
    const page = await newPage(browser, product);
    const seen = watch(page);
    const response = await page.goto('/api/docs');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self';");
    await page.getByText('/api/advertiser/get-campaignex', { exact: true }).waitFor();
    await page.getByText('/api/publisher/get-stats', { exact: true }).waitFor();
    expect(await page.getByText("curl -H 'Authorization: Bearer <token>'").count()).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    expect(seen.errors).toEqual([]);
    expect(seen.elsewhere).toEqual([]);
    await page.context().close();
  });

  it("signed in, tries a call out with the session and the anti-forgery token, as the web app's client does", async () => {
    const page = await newPage(browser, product);
    const seen = watch(page);
    await signInThroughForm(page, product, 'advertiser@demo.test');
    await page.waitForURL('**/advertiser/activity');
    await page.goto('/api/docs');
    const call = page.locator('#operations-Advertiser-advertiserGetAds');
    await call.locator('.opblock-summary-control').click();
    await call.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/advertiser/get-ads');
    await call.getByRole('button', { name: 'Execute' }).click();
    expect((await answered).status()).toBe(200);
    await page.waitForLoadState('networkidle');
    expect(seen.errors).toEqual([]);
    expect(seen.elsewhere).toEqual([]);
    await page.context().close();
  });
});
