import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import {
  ADVERTISER,
  callFromPage,
  DESKTOP,
  openScreen,
  PHONE,
  ROLES,
  sidewaysOverflow,
  tablesWiderThanTheirBox,
} from './support/screens.ts';
import { sharedProduct, signedInPage } from './support/sessions.ts';

/*
 * Phones and narrow windows (issue 26, part 3), beyond every screen's own fit (screens.spec.ts): at 390 x 844 the
 * burger menu, the date picker, the dialogs and the Ads cards fit, and the Ads preview opens by the ad it shows; at
 * 1280 x 800 the advertiser's Activity ads table fits its box in euros, in bitcoins and in French. On the shared
 * product: the advertiser's currency and language are put back afterwards.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

function signedIn(email: string, viewport: { width: number; height: number }): Promise<Page> {
  return signedInPage(browser, sharedProduct(), email, { viewport });
}

/** Whether the element is wholly inside the window, left to right. */
async function withinWidth(locator: Locator, width = PHONE.width): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

describe.each(ROLES)('at 390 px, signed in as $name', ({ email }) => {
  let page: Page;

  beforeAll(async () => {
    page = await signedIn(email, PHONE);
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('opens its menu from the burger, within the window', async () => {
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link').first().waitFor();
    await expect.poll(() => withinWidth(nav)).toBe(true); // once it has slid in
    expect(await sidewaysOverflow(page)).toBe(0);
  });
});

describe("at 390 px, the advertiser's pop-ups and cards", () => {
  let page: Page;

  beforeAll(async () => {
    page = await signedIn(ADVERTISER.email, PHONE);
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('stacks the two months of the date picker, both and Select on screen', async () => {
    await openScreen(page, '/advertiser/activity');
    await page.getByTestId('date-range').click();
    const select = page.getByRole('button', { name: 'Select', exact: true });
    await select.waitFor();
    const months = page.locator('.mantine-DatePicker-calendarHeaderLevel');
    expect(await months.count()).toBe(2);
    for (const month of await months.all()) expect(await withinWidth(month)).toBe(true);
    expect(await withinWidth(select)).toBe(true);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('fits the By URL dialog, its figures scrolling inside it and its buttons on screen', async () => {
    await openScreen(page, '/advertiser/activity');
    await page.getByRole('button', { name: 'By URL', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const ok = dialog.getByRole('button', { name: 'OK', exact: true });
    await ok.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await withinWidth(dialog)).toBe(true);
    expect(await withinWidth(ok)).toBe(true);
    expect(await withinWidth(dialog.getByRole('button', { name: 'Export CSV' }))).toBe(true);
    expect(await sidewaysOverflow(page)).toBe(0);
    await ok.click();
  });

  it('shows the Ads cards in one column, the link field and the buttons whole', async () => {
    await openScreen(page, '/advertiser/ads');
    const card = page.getByRole('article').first();
    expect(await withinWidth(card)).toBe(true);
    const link = card.getByRole('textbox', { name: 'Redirect link' });
    expect((await link.boundingBox())?.width).toBeGreaterThan(250);
    for (const button of await card.getByRole('button').all()) expect(await withinWidth(button)).toBe(true);
  });

  it('opens the preview right under the ad it shows', async () => {
    await openScreen(page, '/advertiser/ads');
    const card = page.getByRole('article').nth(1);
    await card.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('complementary', { name: 'Preview' });
    await preview.waitFor();
    const [cardBox, previewBox] = [await card.boundingBox(), await preview.boundingBox()];
    expect(previewBox!.y - (cardBox!.y + cardBox!.height)).toBeLessThan(40);
    expect(previewBox!.y).toBeGreaterThan(cardBox!.y);
    expect(await withinWidth(preview)).toBe(true);
  });
});

describe('at 1280 px, the Activity ads table', () => {
  let page: Page;

  beforeAll(async () => {
    page = await signedIn(ADVERTISER.email, DESKTOP);
  });

  afterAll(async () => {
    await callFromPage(page, '/api/common/update-user', { key: 'locale', value: 'en' });
    await callFromPage(page, '/api/common/update-user', { key: 'currency', value: 'eur' });
    await page?.context().close();
  });

  it.each([
    ['in euros', { key: 'currency', value: 'eur' }, 'Ads'],
    ['in bitcoins (the longest amounts)', { key: 'currency', value: 'btc' }, 'Ads'],
    ['in French and bitcoins (the longest labels)', { key: 'locale', value: 'fr' }, 'Publicités'],
  ])('fits its box %s, every column and badge whole', async (_label, setting, tableName) => {
    await callFromPage(page, '/api/common/update-user', setting);
    await openScreen(page, '/advertiser/activity');
    const table = page.getByRole('table', { name: tableName, exact: true });
    await table.waitFor();
    expect(await tablesWiderThanTheirBox(page)).toEqual([]);
    const cut = await table.evaluate((element) =>
      Array.from(element.querySelectorAll('th, td, .mantine-Badge-label'))
        .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
        .map((cell) => cell.textContent),
    );
    expect(cut).toEqual([]);
  });
});
