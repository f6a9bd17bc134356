import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { USER_TYPE, type UserType } from '@helium/domain/roles';
import { APP_ROUTES } from '../../apps/web/src/app/routes.ts';
import { signInThroughForm } from './browser.ts';
import type { Product } from './product.ts';

/** The roles, each with its demo user (the demo seed). */
export const ROLES = [
  { name: 'admin', type: USER_TYPE.admin, email: 'admin@demo.test' },
  { name: 'advertiser', type: USER_TYPE.advertiser, email: 'advertiser@demo.test' },
  { name: 'publisher', type: USER_TYPE.publisher, email: 'publisher@demo.test' },
] as const;

export const ADVERTISER = ROLES[1];

/** Screens anyone reaches without signing in (routes outside the signed-in shell, apps/web/src/app/router.tsx). */
export const PUBLIC_SCREENS = ['/signin', '/terms', '/publisher-ad-validation/unknownLink'];

/**
 * Signed-in screens outside the menus (the admin's API tokens, from the user menu), those with a required parameter
 * given one here. Admin's `admin/users/:userId/signin` is left out: it draws nothing of its own (it mints a link and
 * leaves).
 */
const SCREENS_WITH_PARAMS: Record<UserType, string[]> = {
  [USER_TYPE.admin]: ['/admin/api-tokens'],
  [USER_TYPE.publisher]: [],
  [USER_TYPE.advertiser]: ['/test-checkout/cs_test_unknown'],
};

/** Every screen of a role: each route of the route table (so that a new screen is not forgotten), then the others. */
export function screensOf(role: UserType): string[] {
  return [
    ...APP_ROUTES.filter((route) => route.type === role).map((route) => `/${route.path}`),
    ...SCREENS_WITH_PARAMS[role],
  ];
}

/**
 * Opens a screen and waits until it is drawn: its title shown and its data loaded (no request for 500 ms). Throws if
 * the app sent the browser elsewhere (signed out, or a screen of another role), so that no check passes on the wrong one.
 */
export async function openScreen(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  const reached = new URL(page.url()).pathname;
  if (reached !== path) throw new Error(`${path} led to ${reached}`);
}

/** Signs in through the form and waits for the signed-in shell. */
export async function signIn(page: Page, product: Product, email: string) {
  await signInThroughForm(page, product, email);
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

/** Calls the API from the page as the web app does (session cookie and anti-forgery header). */
export async function callFromPage(page: Page, path: string, body: unknown): Promise<unknown> {
  const { status, answer } = await page.evaluate(
    async ({ path, body }) => {
      const token = document.cookie
        .split('; ')
        .find((cookie) => cookie.startsWith('XSRF-TOKEN='))
        ?.slice('XSRF-TOKEN='.length);
      const response = await fetch(path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          'x-xsrf-token': decodeURIComponent(token ?? ''),
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, answer: (await response.json().catch(() => null)) as unknown };
    },
    { path, body },
  );
  if (status !== 200) throw new Error(`${path} answered ${status}`);
  return answer;
}

/** A phone's window, and a laptop's. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Waits until no CSS transition is running (spinners' endless animations are not transitions). */
export async function transitionsEnded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
  );
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LANDMARK_RULES = ['landmark-one-main', 'region'];

/**
 * What axe-core finds serious or critical on the page as it is (WCAG 2.1 A and AA, and axe's best practices), and
 * any landmark rule broken (a main, all content in landmarks): one line each.
 */
export async function axeProblems(page: Page): Promise<string[]> {
  // A dialog fading in has blended colours for a moment (a loaded machine saw white on violet as 3.3:1): judge the
  // page once its transitions have ended.
  await transitionsEnded(page);
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

/** How much wider than the window the page is (0 when nothing scrolls sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The tables wider than the box they sit in (each as its label and both widths), for a screen at 1280 px. */
export function tablesWiderThanTheirBox(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('main table')).flatMap((table) => {
      let box = table.parentElement;
      while (box && box.scrollWidth <= box.clientWidth && box.tagName !== 'MAIN') box = box.parentElement;
      const name = table.getAttribute('aria-label') ?? table.getAttribute('data-testid') ?? 'a table';
      return box && box.tagName !== 'MAIN' ? [`${name}: ${box.scrollWidth} px in ${box.clientWidth} px`] : [];
    }),
  );
}
