import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { ADVERTISER, axeProblems, DESKTOP, openScreen } from './support/screens.ts';
import { sharedProduct, signedInPage } from './support/sessions.ts';

/*
 * Accessibility (issue 26, part 2) of the states that draw more than a screen: sign-in's second step, the date
 * picker, a dialog, the Ads preview. axe-core finds nothing serious or critical in them (see axeProblems); every
 * screen itself is checked in screens.spec.ts. On the shared product: nothing here changes what another spec reads.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('signed out', () => {
  it("sign-in's second step (the code field) has no serious accessibility problem", async () => {
    const context = await browser.newContext({ baseURL: sharedProduct().url, locale: 'en-US', viewport: DESKTOP });
    const page = await context.newPage();
    await openScreen(page, '/signin');
    await page.getByLabel('Adresse e-mail').fill('publisher@demo.test');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Code de connexion').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });
});

describe("the advertiser's pop-ups", () => {
  let page: Page;

  beforeAll(async () => {
    page = await signedInPage(browser, sharedProduct(), ADVERTISER.email, { viewport: DESKTOP });
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('the date picker has no serious accessibility problem', async () => {
    await openScreen(page, '/advertiser/activity');
    await page.getByTestId('date-range').click();
    await page.getByRole('button', { name: 'Select' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('the By URL dialog has none', async () => {
    await openScreen(page, '/advertiser/activity');
    await page.getByRole('button', { name: 'By URL', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await axeProblems(page)).toEqual([]);
  });

  it("the Ads screen's preview has none", async () => {
    await openScreen(page, '/advertiser/ads');
    await page.getByRole('button', { name: 'Preview', exact: true }).first().click();
    await page.getByRole('complementary', { name: 'Preview' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
  });
});
