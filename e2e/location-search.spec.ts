import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * The location widget's search (issue 36, point 9): typing part of a name, without its accents, lists the countries,
 * regions and cities that hold it, each with its region and country; the arrows and Enter tick one as its box in
 * the tree would (the tree unfolds to it), in English and in French.
 */

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await newPage(browser, product);
  await signInThroughForm(page, product, 'advertiser@demo.test');
  await page.waitForURL(/\/advertiser\/activity/);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** An element's text with its spaces plain (French puts a narrow no-break space before a colon). */
const plain = (text: string) => text.replace(/[\s\u202f]+/g, ' ').trim();
const box = (scope: Locator, id: string) => scope.locator(`input[data-location-id="${id}"]`);
const stateOf = (scope: Locator, id: string) => box(scope, id).getAttribute('data-state');
/** A match of the search (the list is drawn outside the dialog, over it). */
const match = (id: string) => page.locator(`[data-location-match="${id}"]`);

async function openTargeting(name: string, title: RegExp): Promise<Locator> {
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.locator('[data-location-selector="loaded"]').waitFor();
  return dialog;
}

/** Moves through the matches with the arrow keys to the place's, then presses Enter. */
async function chooseByKeyboard(id: string) {
  await match(id).waitFor();
  for (let step = 0; step < 25; step++) {
    if ((await match(id).getAttribute('data-combobox-selected')) !== null) break;
    await page.keyboard.press('ArrowDown');
  }
  expect(await match(id).getAttribute('data-combobox-selected')).not.toBeNull();
  await page.keyboard.press('Enter');
}

describe('searching places in the location widget', () => {
  it('finds São Paulo typed without accents, with its region and country, and ticks it by keyboard', async () => {
    const dialog = await openTargeting('Targeting', /Where this campaign is shown/);
    const search = dialog.getByRole('combobox', { name: 'Search a country, region or city' });
    await search.focus();
    await search.pressSequentially('sao paulo');
    const city = match('BR/SP/São Paulo');
    await city.waitFor();
    expect(plain(await city.innerText())).toBe('São Paulo — São Paulo — Brazil');
    expect(plain(await match('BR/SP').innerText())).toBe('São Paulo — Brazil');
    // Every match holds what was typed, accents and case aside.
    const names = await page.locator('[data-location-match]').allInnerTexts();
    const loose = (text: string) =>
      text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
    expect(names.every((name) => loose(name).includes('sao paulo'))).toBe(true);

    await chooseByKeyboard('BR/SP/São Paulo');
    // Ticked as its box would be: the tree unfolds to it, Brazil and São Paulo state turn indeterminate.
    await expect.poll(() => stateOf(dialog, 'BR/SP/São Paulo')).toBe('checked');
    expect(await stateOf(dialog, 'BR/SP')).toBe('indeterminate');
    expect(await stateOf(dialog, 'BR')).toBe('indeterminate');
    expect(await dialog.getByRole('button', { name: 'Collapse Brazil' }).getAttribute('aria-expanded')).toBe('true');
    await expect.poll(async () => plain(await city.innerText())).toBe('São Paulo — São Paulo — Brazil (selected)');
    await expect
      .poll(async () => plain(await dialog.getByTestId('targeting-draft-summary').innerText()))
      .toBe('Shown in: Brazil: São Paulo');
    // The search kept its text, to pick more.
    expect(await search.inputValue()).toBe('sao paulo');

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => plain(await page.getByTestId('targeting-summary').innerText()))
      .toBe('Shown in: Brazil: São Paulo');
  });

  it('says in French when to type more and when nothing matches; picks a region and unticks a city', async () => {
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await expect
      .poll(async () => plain(await page.getByTestId('targeting-summary').innerText()))
      .toBe('Diffusée : Brésil: São Paulo');
    const dialog = await openTargeting('Ciblage', /Où cette campagne est diffusée/);
    const search = dialog.getByRole('combobox', { name: 'Rechercher un pays, une région ou une ville' });
    await search.focus();
    await search.pressSequentially('z');
    await page.getByText('Tapez au moins 2 caractères.').waitFor();
    await search.pressSequentially('zqxw');
    await page.getByText('Aucun lieu trouvé.').waitFor();

    await search.fill('');
    await search.pressSequentially('SAO PAULO');
    const city = match('BR/SP/São Paulo');
    await expect.poll(async () => plain(await city.innerText())).toBe('São Paulo — São Paulo — Brésil (sélectionné)');
    await chooseByKeyboard('BR/SP/São Paulo');
    await expect.poll(() => stateOf(dialog, 'BR/SP/São Paulo')).toBe('unchecked');
    expect(await stateOf(dialog, 'BR')).toBe('unchecked');

    await search.fill('');
    await search.pressSequentially('ile-de-fr');
    expect(plain(await match('FR/IDF').innerText())).toBe('Île-de-France — France');
    await chooseByKeyboard('FR/IDF');
    await expect.poll(() => stateOf(dialog, 'FR/IDF')).toBe('checked');
    expect(await stateOf(dialog, 'FR')).toBe('indeterminate');
    await expect
      .poll(async () => plain(await dialog.getByTestId('targeting-draft-summary').innerText()))
      .toBe('Diffusée : France: Île-de-France');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});
