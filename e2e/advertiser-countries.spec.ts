import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { callFromPage } from './support/screens.ts';
import { sharedProduct, signedInPage } from './support/sessions.ts';

/*
 * Figures by country (issue 25, item 4): the advertiser's Activity screen opens "By country", a dialog of the
 * campaign's impressions, clicks, CTR and cost per visitor country (the demo's 30 days of history), in English and
 * in French. On the shared product: the advertiser's language is put back afterwards.
 */

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await signedInPage(browser, sharedProduct(), 'advertiser@demo.test');
  await page.waitForURL(/\/advertiser\/activity/);
}, 120_000);

afterAll(async () => {
  if (page) await callFromPage(page, '/api/common/update-user', { key: 'locale', value: 'en' });
  await browser?.close();
});

/** The dialog's rows as their cells' texts. */
async function rowsOf(dialog: ReturnType<Page['getByRole']>) {
  const rows = dialog.locator('tbody tr');
  await rows.first().waitFor();
  return Promise.all((await rows.all()).map((row) => row.locator('td').allInnerTexts()));
}

describe('figures by country', () => {
  it('shows the countries with their impressions, clicks, CTR and cost, and a total', async () => {
    await page.getByRole('button', { name: 'By country' }).click();
    const dialog = page.getByRole('dialog', { name: /Statistics by country/ });
    await dialog.waitFor();
    const rows = await rowsOf(dialog);
    expect(rows.map((cells) => cells[0])).toEqual(
      expect.arrayContaining(['France', 'Belgium', 'Switzerland', 'Canada', 'Unknown Region']),
    );
    // Most impressions first; every row has a CTR in percent and a cost in euros.
    expect(rows[0]![0]).toBe('France');
    for (const cells of rows) {
      expect(cells[3]).toMatch(/%$/);
      expect(cells[4]).toMatch(/€/);
    }
    const total = await dialog.locator('tfoot td').allInnerTexts();
    expect(total[0]).toBe('Total');
    const sum = rows.reduce((acc, cells) => acc + Number(cells[1]!.replace(/[^\d]/g, '')), 0);
    expect(Number(total[1]!.replace(/[^\d]/g, ''))).toBe(sum);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('reads in French', async () => {
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await page.getByRole('button', { name: 'Par pays' }).click();
    const dialog = page.getByRole('dialog', { name: /Statistiques par pays/ });
    await dialog.waitFor();
    const names = (await rowsOf(dialog)).map((cells) => cells[0]);
    expect(names).toEqual(expect.arrayContaining(['France', 'Belgique', 'Suisse', 'Canada']));
    expect(await dialog.getByRole('columnheader', { name: 'Pays' }).count()).toBe(1);
  });
});
