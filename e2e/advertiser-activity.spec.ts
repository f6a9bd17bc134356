import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await signedInPage(browser, product, 'advertiser@demo.test');
  // Every browser confirm (eject, inject) is accepted, as the advertiser would.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.waitForURL('**/advertiser/activity');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const totalImpressions = () => page.getByTestId('total-impressions').innerText();
const parseEn = (text: string) => Number(text.replaceAll(',', ''));

function dayLabel(date: Date) {
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

describe('advertiser Activity screen', () => {
  it('shows the campaign totals, the ads and the chart', async () => {
    await expect.poll(async () => parseEn(await totalImpressions())).toBeGreaterThan(0);
    expect(await totalImpressions()).toMatch(/^\d{1,3}(,\d{3})*$/);
    expect(await page.getByTestId('total-ctr').innerText()).toMatch(/^\d+\.\d{2}%$/);
    expect(await page.getByTestId('credits-text').innerText()).toMatch(/^Impressions left: [\d,]+$/);
    await page.getByTestId('activity-chart').waitFor();
    expect(await page.getByRole('switch', { name: /^Show ad \d+$/ }).count()).toBeGreaterThan(0);
  });

  it('opens the By URL statistics and closes them with OK', async () => {
    await page.getByRole('button', { name: 'By URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Statistics by URL' });
    await dialog
      .getByRole('cell', { name: /^https:\/\// })
      .first()
      .waitFor();
    expect(await dialog.getByRole('columnheader').allInnerTexts()).toEqual([
      'URL',
      'Impressions',
      'Clicks',
      'CTR',
      'CPC',
      'CPM',
      'Cost',
      'Leads',
      'LR',
      'CPL',
    ]);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('narrows the figures to a picked date range, then back to all dates', async () => {
    const all = parseEn(await totalImpressions());
    await page.getByTestId('date-range').click();
    const yesterday = new Date(Date.now() - 86_400_000);
    if (yesterday.getUTCMonth() !== new Date().getUTCMonth()) {
      await page.locator('[data-direction="previous"]').first().click();
    }
    const day = page.getByRole('button', { name: dayLabel(yesterday), exact: true });
    await day.click();
    await day.click();
    await page.getByRole('button', { name: 'Select' }).click();
    await expect.poll(async () => parseEn(await totalImpressions())).toBeLessThan(all);
    expect(await page.getByTestId('date-range').innerText()).not.toBe('all dates');
    await page.getByRole('button', { name: 'Clear the dates' }).click();
    await expect.poll(async () => parseEn(await totalImpressions())).toBeGreaterThanOrEqual(all);
    expect(await page.getByTestId('date-range').innerText()).toBe('all dates');
  });

  it('switches an ad off, ejects it, re-injects it and switches it on again', async () => {
    const adSwitch = page.getByRole('switch', { name: /^Show ad \d+$/ }).first();
    const name = (await adSwitch.getAttribute('aria-label')) as string;
    const id = name.replace('Show ad ', '');
    const row = page.getByTestId(`ad-row-${id}`);
    expect(await adSwitch.isChecked()).toBe(true);
    await adSwitch.click({ force: true });
    await expect.poll(() => adSwitch.isChecked()).toBe(false);
    await adSwitch.click({ force: true });
    await expect.poll(() => adSwitch.isChecked()).toBe(true);

    await adSwitch.click({ force: true });
    await expect.poll(() => adSwitch.isChecked()).toBe(false);
    await row.getByRole('button', { name: 'Eject' }).click();
    const drawer = page.getByTestId('ejected-drawer');
    await drawer.getByText('Ejected ads: 1').waitFor();
    await row.waitFor({ state: 'detached' });
    await drawer.getByRole('button', { name: 'Re-inject' }).click();
    await drawer.waitFor({ state: 'detached' });
    const back = page.getByRole('switch', { name });
    await back.click({ force: true });
    await expect.poll(() => back.isChecked()).toBe(true);
  });

  it('shows per-publisher lines with their own switch, or an info icon', async () => {
    const toggle = page.getByRole('switch', { name: 'Details by publisher' });
    await toggle.click({ force: true });
    const blog = page.getByRole('switch', { name: 'Show on Demo Blog' });
    await blog.waitFor();
    // Rando Alpes has not installed the script: no switch, an explanation instead.
    expect(await page.getByRole('img', { name: /^This publisher is not/ }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('switch', { name: 'Show on Rando Alpes' }).count()).toBe(0);
    await blog.click({ force: true });
    await expect.poll(() => blog.isChecked()).toBe(false);
    await blog.click({ force: true });
    await expect.poll(() => blog.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await blog.waitFor({ state: 'detached' });
  });

  it('toggles AutoPilot', async () => {
    const autopilot = page.getByRole('switch', { name: 'AutoPilot' });
    const before = await autopilot.isChecked();
    await autopilot.click({ force: true });
    await expect.poll(() => autopilot.isChecked()).toBe(!before);
    await autopilot.click({ force: true });
    await expect.poll(() => autopilot.isChecked()).toBe(before);
  });

  it('moves the AutoFlow slider and shows the days of delivery', async () => {
    await page.getByRole('button', { name: 'AutoFlow' }).click();
    const slider = page.getByRole('slider', { name: 'Daily impressions cap' });
    const saves: Array<Promise<unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/advertiser/update-campaign-pause')) saves.push(request.response());
    });
    await slider.focus();
    for (let step = 0; step < 5; step++) await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => page.getByTestId('autoflow-text').innerText())
      .toMatch(/^At most 500 impressions a day: delivery spread over [\d,]+ days\.$/);
    await page.keyboard.press('Escape');
    // Each step is saved, one after the other: the last one stored is 500.
    await expect.poll(() => saves.length).toBe(5);
    await Promise.all(saves);
    // Stored: after a reload the cap is still there.
    await page.reload();
    await page.getByRole('button', { name: 'AutoFlow' }).click();
    await expect.poll(() => page.getByTestId('autoflow-text').innerText()).toContain('At most 500 impressions a day');
    await page.keyboard.press('Escape');
  });

  it('shows French number formats after switching to French', async () => {
    const english = await totalImpressions();
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Activité');
    await expect.poll(() => totalImpressions()).toMatch(/^\d{1,3}( \d{3})*$/);
    expect(parseEn(english)).toBeGreaterThanOrEqual(1000);
    expect(await page.getByTestId('total-ctr').innerText()).toMatch(/^\d+,\d{2} %$/);
    expect(await page.getByTestId('total-costs').innerText()).toMatch(/^[\d ]+,\d{2} €$/);
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Activity');
  });
});
