import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { launchBrowser } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';
import { ADVERTISER, openScreen, PUBLIC_SCREENS, ROLES, screensOf, signIn } from './support/screens.ts';

/*
 * Accessibility (issue 26, part 2): axe-core on every screen of every role in Chromium finds nothing serious or
 * critical (WCAG 2.1 A and AA, and axe's best practices), and every page has its landmarks (a main, all content in
 * landmarks). Also a few states that draw more than the screen: sign-in's second step, the date picker, a dialog.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LANDMARK_RULES = ['landmark-one-main', 'region'];

let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function newDesktopPage(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: product.url,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
  });
  return context.newPage();
}

/** What axe-core finds serious or critical on the page as it is, and any landmark rule broken: one line each. */
async function axeProblems(page: Page): Promise<string[]> {
  // A dialog fading in has blended colours for a moment (a loaded machine saw white on violet as 3.3:1): judge the
  // page once its transitions have ended (spinners' endless animations are not transitions).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
  );
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not restrict.
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    () =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(
        document,
        { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      ) as Promise<AxeResults>,
  );
  return results.violations
    .filter(
      (violation) =>
        violation.impact === 'serious' || violation.impact === 'critical' || LANDMARK_RULES.includes(violation.id),
    )
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
      ),
    );
}

describe('signed out', () => {
  it.each(PUBLIC_SCREENS)('%s has no serious accessibility problem', async (path) => {
    const page = await newDesktopPage();
    await openScreen(page, path);
    expect(await axeProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("sign-in's second step (the code field) has none either", async () => {
    const page = await newDesktopPage();
    await openScreen(page, '/signin');
    await page.getByLabel('Adresse e-mail').fill('publisher@demo.test');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Code de connexion').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.context().close();
  });
});

describe.each(ROLES)('signed in as $name', ({ type, email }) => {
  let page: Page;

  beforeAll(async () => {
    page = await newDesktopPage();
    await signIn(page, product, email);
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it.each(screensOf(type))('%s has no serious accessibility problem', async (path) => {
    await openScreen(page, path);
    expect(await axeProblems(page)).toEqual([]);
  });
});

describe("the advertiser's pop-ups", () => {
  let page: Page;

  beforeAll(async () => {
    page = await newDesktopPage();
    await signIn(page, product, ADVERTISER.email);
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
