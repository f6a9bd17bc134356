import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import {
  axeProblems,
  DESKTOP,
  openScreen,
  PHONE,
  PUBLIC_SCREENS,
  ROLES,
  screensOf,
  sidewaysOverflow,
  tablesWiderThanTheirBox,
  transitionsEnded,
} from './support/screens.ts';
import { sharedProduct, signedInPage } from './support/sessions.ts';

/*
 * Every screen of every role, and those shown signed out, opened once (issue 26, parts 2 and 3): at 1280 x 800 axe-core
 * finds nothing serious or critical (WCAG 2.1 A and AA, axe's best practices), every page has its landmarks, every
 * table fits its box and nothing scrolls sideways; narrowed to a phone's 390 x 844, nothing scrolls sideways either
 * (wide tables scroll inside their own box). On the shared product: nothing here changes what another spec reads.
 * The states that draw more than a screen (sign-in's second step, dialogs, the date picker, the burger menu) are in
 * accessibility.spec.ts and narrow-screens.spec.ts.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The same screen narrowed to a phone's width, once it has followed: how much it scrolls sideways. */
async function overflowOnAPhone(page: Page): Promise<number> {
  await page.setViewportSize(PHONE);
  await transitionsEnded(page);
  const overflow = await sidewaysOverflow(page);
  await page.setViewportSize(DESKTOP);
  return overflow;
}

describe('signed out', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await browser.newContext({ baseURL: sharedProduct().url, locale: 'en-US', viewport: DESKTOP });
    page = await context.newPage();
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it.each(PUBLIC_SCREENS)('%s has no serious accessibility problem and fits 1280 and 390 px', async (path) => {
    await openScreen(page, path);
    expect(await axeProblems(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await overflowOnAPhone(page)).toBe(0);
  });
});

describe.each(ROLES)('signed in as $name', ({ type, email }) => {
  let page: Page;

  beforeAll(async () => {
    page = await signedInPage(browser, sharedProduct(), email, { viewport: DESKTOP });
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it.each(screensOf(type))(
    '%s has no serious accessibility problem, its tables fit their box, and it fits 1280 and 390 px',
    async (path) => {
      await openScreen(page, path);
      expect(await axeProblems(page)).toEqual([]);
      expect(await tablesWiderThanTheirBox(page)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await overflowOnAPhone(page)).toBe(0);
    },
  );
});
