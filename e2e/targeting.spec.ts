import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Campaign targeting (issue 25, items 1 to 3): the advertiser opens Targeting on the Activity screen, expands
 * France, ticks a region (France turns indeterminate) and saves; the campaign's line shows it, in English and in
 * French. The location widget's states (spinner, error and Retry), its setSelections / clearSelections methods and
 * its selection-changed event are checked in the same dialog.
 */

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await signedInPage(browser, product, 'advertiser@demo.test');
  await page.waitForURL(/\/advertiser\/activity/);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** How many columns the grid of a city's box has. */
const columnsOf = (scope: Locator, cityId: string) =>
  box(scope, cityId).evaluate(
    (input) => getComputedStyle(input.closest('.mantine-SimpleGrid-root')!).gridTemplateColumns.split(' ').length,
  );

/** Closes a dialog a failed test left open, so that the next one starts from the screen. */
async function closeDialogs() {
  if ((await page.getByRole('dialog').count()) === 0) return;
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
}

/** An element's text with its spaces plain (French puts a narrow no-break space before a colon). */
const plain = (text: string) => text.replace(/\s+/g, ' ');
const textOf = async (locator: Locator) => plain(await locator.innerText());

/** A place's box in the widget and what it shows: checked, indeterminate or unchecked. */
const box = (scope: Locator, id: string) => scope.locator(`input[data-location-id="${id}"]`);
const stateOf = (scope: Locator, id: string) => box(scope, id).getAttribute('data-state');

async function openTargeting(name: string, title: RegExp): Promise<Locator> {
  await closeDialogs();
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  await box(dialog, 'FR').waitFor();
  return dialog;
}

describe('campaign targeting', () => {
  it('starts everywhere; expanding France and ticking a region makes France indeterminate; saved, the line shows it', async () => {
    const summary = page.getByTestId('targeting-summary');
    await expect.poll(() => textOf(summary)).toBe('Shown in: Everywhere');
    const dialog = await openTargeting('Targeting', /Where this campaign is shown/);

    await dialog.getByRole('button', { name: 'Expand France' }).click();
    await box(dialog, 'FR/IDF').waitFor();
    expect(await dialog.getByRole('button', { name: 'Collapse France' }).getAttribute('aria-expanded')).toBe('true');
    await dialog.getByRole('checkbox', { name: 'Île-de-France', exact: true }).check();
    await expect.poll(() => stateOf(dialog, 'FR')).toBe('indeterminate');
    expect(await box(dialog, 'FR').evaluate((input) => (input as HTMLInputElement).indeterminate)).toBe(true);
    expect(await stateOf(dialog, 'FR/IDF')).toBe('checked');
    // Ticking a box did not fold France: its regions are still shown.
    expect(await box(dialog, 'FR/ARA').isVisible()).toBe(true);

    // The region's cities are all ticked; unticking one makes the region indeterminate, ticking it back whole.
    // By keyboard: Enter on the region's arrow, Space on a city's box.
    await dialog.getByRole('button', { name: 'Expand Île-de-France' }).focus();
    await page.keyboard.press('Enter');
    await box(dialog, 'FR/IDF/Paris').waitFor();
    expect(await columnsOf(dialog, 'FR/IDF/Paris')).toBe(3);
    expect(await stateOf(dialog, 'FR/IDF/Paris')).toBe('checked');
    await box(dialog, 'FR/IDF/Paris').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => stateOf(dialog, 'FR/IDF')).toBe('indeterminate');
    await page.keyboard.press('Space');
    await expect.poll(() => stateOf(dialog, 'FR/IDF')).toBe('checked');

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => textOf(summary)).toBe('Shown in: France: Île-de-France');
  });

  it('reopens with the campaign’s places, and reads in French', async () => {
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    const summary = page.getByTestId('targeting-summary');
    await expect.poll(() => textOf(summary)).toBe(plain('Diffusée\u202f: France: Île-de-France'));
    const dialog = await openTargeting('Ciblage', /Où cette campagne est diffusée/);
    await expect.poll(() => stateOf(dialog, 'FR')).toBe('indeterminate');
    await dialog.getByRole('button', { name: 'Déplier France' }).click();
    await expect.poll(() => stateOf(dialog, 'FR/IDF')).toBe('checked');
    // On a phone: one column of cities, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.getByRole('button', { name: 'Déplier Île-de-France' }).click();
    await box(dialog, 'FR/IDF/Paris').waitFor();
    expect(await columnsOf(dialog, 'FR/IDF/Paris')).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await dialog.getByRole('checkbox', { name: 'Belgique', exact: true }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('the location widget', () => {
  it('announces every change; setSelections takes an array only; clearSelections empties', async () => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const dialog = await openTargeting('Ciblage', /Où cette campagne est diffusée/);
    const widget = dialog.locator('[data-location-selector="loaded"]');
    await widget.evaluate((element) => {
      const seen: unknown[] = [];
      element.addEventListener('selection-changed', (event) => seen.push((event as CustomEvent).detail));
      (window as unknown as { seenSelections: unknown[] }).seenSelections = seen;
    });
    const seen = () => page.evaluate(() => (window as unknown as { seenSelections: unknown[] }).seenSelections);

    type Methods = { setSelections: (items: unknown) => Promise<void>; clearSelections: () => void };
    await widget.evaluate((element) =>
      (element as unknown as Methods).setSelections([
        { type: 'country', id: 'BE', country: 'Belgique' },
        'FR/IDF/Paris',
        'FR/IDF/Paris',
        'FR/IDF/Atlantis',
        'US/CA',
      ]),
    );
    await expect.poll(async () => (await seen()).length).toBe(1);
    expect((await seen())[0]).toEqual([
      { type: 'country', id: 'BE', country: 'Belgique' },
      { type: 'city', id: 'FR/IDF/Paris', country: 'France', region: 'Île-de-France', city: 'Paris' },
      { type: 'region', id: 'US/CA', country: 'États-Unis', region: 'California' },
    ]);
    expect(await stateOf(dialog, 'BE')).toBe('checked');
    expect(await stateOf(dialog, 'FR')).toBe('indeterminate');
    expect(await stateOf(dialog, 'US')).toBe('indeterminate');
    await expect
      .poll(() => textOf(dialog.getByTestId('targeting-draft-summary')))
      .toBe(plain('Diffusée\u202f: Belgique, France: Paris, États-Unis: California'));

    await widget.evaluate((element) => (element as unknown as Methods).setSelections('FR'));
    await expect.poll(() => errors.includes('setSelections expects an array')).toBe(true);
    expect((await seen()).length).toBe(1);
    expect(await stateOf(dialog, 'BE')).toBe('checked');

    await widget.evaluate((element) => (element as unknown as Methods).clearSelections());
    await expect.poll(async () => (await seen()).length).toBe(2);
    expect((await seen())[1]).toEqual([]);
    expect(await stateOf(dialog, 'FR')).toBe('unchecked');

    // Ticking a box announces too.
    await box(dialog, 'BE').check();
    await expect.poll(async () => (await seen()).length).toBe(3);
    expect((await seen())[2]).toEqual([{ type: 'country', id: 'BE', country: 'Belgique' }]);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows a spinner while loading, then "Error: " with the message and a Retry that loads again', async () => {
    // The first list request fails (slowly, so that the spinner shows); the next ones go through.
    await page.route(
      '**/api/locations',
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ status: 'down', message: 'Locations are down' }),
        });
      },
      { times: 1 },
    );
    await closeDialogs();
    await page.getByRole('button', { name: 'Ciblage', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /Où cette campagne est diffusée/ });
    await dialog.locator('[data-location-selector="loading"]').waitFor();
    await dialog.getByRole('alert').filter({ hasText: 'Error: Locations are down' }).waitFor();
    await dialog.getByRole('button', { name: 'Réessayer' }).click();
    await box(dialog, 'FR').waitFor();
    await dialog.getByRole('button', { name: 'Annuler' }).click();
  });
});
