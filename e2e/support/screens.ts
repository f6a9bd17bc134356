import type { Page } from 'playwright-core';
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
export async function callFromPage(page: Page, path: string, body: unknown): Promise<void> {
  const status = await page.evaluate(
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
      return response.status;
    },
    { path, body },
  );
  if (status !== 200) throw new Error(`${path} answered ${status}`);
}
