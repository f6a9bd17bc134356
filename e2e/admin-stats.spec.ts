import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Admin Stats, the admin's home (issue 24): the admin signs in and lands on Stats, reads the revenue split
 * (h + p + s = total, to the cent), the network figures, the web publishers' table with its totals row, ticks the
 * most-frequent-URLs checkbox, and reads it all again in French.
 */

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await newPage(browser, product);
  await signInThroughForm(page, product, 'admin@demo.test');
  await page.waitForURL('**/admin/stats');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const cells = async (testId: string) =>
  (await page.getByTestId(testId).locator('td').allInnerTexts()).map((cell) => cell.trim());

describe('admin Stats', () => {
  it('is the home page: revenue yesterday and projected, reconciled, and the network figures', async () => {
    await page.getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
    await page.getByTestId('admin-stats-revenue').waitFor();
    const parseEn = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);
    for (const row of ['revenue-yesterday', 'revenue-projected']) {
      const [h, p, s, total] = await cells(row);
      for (const text of [h, p, s, total]) expect(text).toMatch(/^-?[\d,]+\.\d{2} €$/);
      expect(parseEn(h!) + parseEn(p!) + parseEn(s!)).toBe(parseEn(total!));
    }
    expect(parseEn((await cells('revenue-projected'))[3]!)).toBeGreaterThan(0);
    expect(await page.getByTestId('figure-ctr').innerText()).toMatch(/Network CTR\s*[\d.]+%/);
    expect(await page.getByTestId('figure-buy-cpm').innerText()).toMatch(/Buy CPM\s*[\d,.]+ €/);
    expect(await page.getByTestId('admin-stats-footnote').innerText()).toBe(
      'Figures are a daily average over the past 7 days.',
    );
  });

  it('lists the web publishers with a totals row, and the most frequent URLs on demand', async () => {
    const table = page.getByTestId('admin-stats-publishers');
    const blog = table.locator('tbody tr', { hasText: 'Demo Blog' });
    await blog.waitFor();
    expect(await blog.locator('td').count()).toBe(9);
    expect(await blog.getByTestId('desktop-validated').innerText()).toMatch(/^[\d,]+ \/ [\d,]+ \([\d.]+%\)$/);
    expect(await page.getByTestId('stats-totals').locator('td').first().innerText()).toBe('Total');
    await page.getByTestId('show-urls').click();
    await page.getByTestId('frequent-urls').first().waitFor();
  });

  it('reads in French', async () => {
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await page.getByRole('heading', { level: 2, name: 'Éditeurs web' }).waitFor();
    await expect
      .poll(() => page.getByTestId('admin-stats-footnote').innerText())
      .toBe('Les chiffres sont une moyenne quotidienne des 7 derniers jours.');
    await expect.poll(async () => (await cells('revenue-yesterday'))[3]).toMatch(/,\d{2} €$/);
    const [h, , , total] = await cells('revenue-yesterday');
    expect(h).toMatch(/^-?[\d  ]+,\d{2} €$/);
    expect(total).toMatch(/^[\d  ]+,\d{2} €$/);
    // The server writes the figures' texts in the user's language: read again once the language changed.
    await expect.poll(() => page.getByTestId('figure-ctr').innerText()).toMatch(/CTR du réseau\s*[\d,]+ %/);
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { level: 2, name: 'Web publishers' }).waitFor();
  });
});
