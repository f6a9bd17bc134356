import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { callFromPage } from './support/screens.ts';
import { sharedProduct, signedInPage, type SharedProduct } from './support/sessions.ts';

/*
 * Admin: invalid traffic (issue 24): what the traffic rules set aside, per publisher, day and reason. A bot's
 * decision request is sent to the started product first, so that today has a line. On the shared product: a bot's
 * request set aside is read by no other spec, and the admin's language is put back afterwards.
 */

let product: SharedProduct;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = sharedProduct();
  browser = await launchBrowser();
  page = await signedInPage(browser, product, 'admin@demo.test');
  await page.waitForURL('**/admin/stats');
}, 120_000);

afterAll(async () => {
  if (page) await callFromPage(page, '/api/common/update-user', { key: 'locale', value: 'en' });
  await browser?.close();
});

describe('admin invalid traffic', () => {
  it("shows today's bot, by publisher and reason, and reads in French", async () => {
    // Demo Blog (publisher 1) is installed on localhost: a bot asks for an ad from one of its pages.
    const served = await fetch(`${product.url}/serve/d?p=1&w=1280&u=${encodeURIComponent(`${product.url}/article`)}`, {
      headers: {
        'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        origin: product.url,
      },
    });
    expect(served.status).toBeLessThan(500);
    await page.getByRole('navigation').getByRole('link', { name: 'Invalid traffic' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invalid traffic' }).waitFor();
    const table = page.getByTestId('invalid-traffic-table');
    await table.waitFor();
    await expect.poll(() => table.innerText()).toContain('Known bot');
    await page.getByText('90 d', { exact: true }).click();
    await expect.poll(() => page.getByTestId('invalid-traffic-total').innerText()).toMatch(/^Set aside: [\d,]+$/);

    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await page.getByRole('heading', { level: 1, name: 'Trafic invalide' }).waitFor();
    await expect.poll(() => table.innerText()).toContain('Robot connu');
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invalid traffic' }).waitFor();
  });
});
