import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInThroughForm } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Publisher Stats in pages (issue 36, point 9): the demo blog's 30 days of history are ten days a page, each folded
 * to its totals but the newest, so that the screen stays short at 1280 px; the days open one by one and the pages
 * turn by keyboard, in English and in French.
 */

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  const context = await browser.newContext({
    baseURL: product.url,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
  });
  page = await context.newPage();
  await signInThroughForm(page, product, 'publisher@demo.test');
  await page.waitForURL('**/publisher/accounting');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const days = () => page.getByTestId('stats-day');
const shown = () => page.getByTestId('stats-days-shown');
const isoDays = () => days().evaluateAll((cards) => cards.map((card) => card.getAttribute('data-day') ?? ''));
const expandedDays = () =>
  days().evaluateAll((cards) =>
    cards.filter((card) => card.getAttribute('data-expanded') === 'true').map((card) => card.getAttribute('data-day')),
  );
const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);

async function switchLanguage(name: 'Français' | 'English') {
  await page.getByRole('button', { name: /Julien Martin/ }).click();
  await page.getByRole('menuitem', { name }).click();
}

describe('publisher Stats in pages', () => {
  it('lists ten days a page, the newest open, and stays under 3,000 px at 1280 px', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Stats' }).click();
    await page.waitForURL('**/publisher/stats');
    await days().first().waitFor();
    const text = await shown().innerText();
    const [, first, last, total] = /^Showing days (\d+)–(\d+) of (\d+)$/.exec(text) ?? [];
    expect([first, last]).toEqual(['1', '10']);
    expect(Number(total)).toBeGreaterThanOrEqual(28);
    expect(await days().count()).toBe(10);
    const listed = await isoDays();
    expect([...listed].sort().reverse()).toEqual(listed);
    // The newest day is open with its ads; the others show their totals only.
    expect(await expandedDays()).toEqual([listed[0]]);
    await days().first().getByTestId('web-ads').waitFor();
    expect(await days().nth(1).getByTestId('web-ads').count()).toBe(0);
    expect(await days().nth(1).getByTestId('day-impressions').innerText()).toMatch(/^[\d,]+$/);
    expect(await pageHeight()).toBeLessThan(3000);
  });

  it('opens and folds a day by keyboard', async () => {
    const second = days().nth(1);
    const toggle = second.getByRole('button', { expanded: false });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await second.getByTestId('web-ads').waitFor();
    expect(await second.getByRole('heading', { level: 2 }).getByRole('button').getAttribute('aria-expanded')).toBe(
      'true',
    );
    await page.keyboard.press('Space');
    await expect.poll(() => second.getByTestId('web-ads').count()).toBe(0);
    expect(await second.getAttribute('data-expanded')).toBe('false');
  });

  it('turns the pages by keyboard: the next ten days, older, then back', async () => {
    const firstPage = await isoDays();
    const pages = page.getByRole('navigation', { name: 'Pages of days' });
    await pages.getByRole('button', { name: 'Page 2', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => shown().innerText()).toMatch(/^Showing days 11–20 of \d+$/);
    const secondPage = await isoDays();
    expect(secondPage).toHaveLength(10);
    expect(secondPage[0]! < firstPage[9]!).toBe(true);
    // Folded to their totals.
    expect(await expandedDays()).toEqual([]);
    expect(await pageHeight()).toBeLessThan(3000);

    await pages.getByRole('button', { name: 'Previous page' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => shown().innerText()).toMatch(/^Showing days 1–10 of \d+$/);
    expect(await isoDays()).toEqual(firstPage);
  });

  it('says the same in French', async () => {
    await switchLanguage('Français');
    await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
    await expect.poll(() => shown().innerText()).toMatch(/^Affichage des jours 1 à 10 sur \d+$/);
    const pages = page.getByRole('navigation', { name: 'Pages de jours' });
    await pages.getByRole('button', { name: 'Page suivante' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => shown().innerText()).toMatch(/^Affichage des jours 11 à 20 sur \d+$/);
    const day = days().first();
    await day.getByRole('heading', { level: 2 }).getByRole('button').click();
    await day.getByRole('table', { name: /^Annonces web du / }).waitFor();
    expect(await day.getByTestId('web-ads').locator('tbody tr').first().innerText()).toMatch(
      /Ordinateur [\d\s\u202f]+ \(/,
    );
    expect(await pageHeight()).toBeLessThan(3000);
    await switchLanguage('English');
    await page.getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
  });
});
