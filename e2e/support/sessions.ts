import { request, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { codeFrom } from '../../apps/api/test/smtp-catcher.ts';
import type { Product } from './product.ts';

/*
 * Signed-in browsers without the sign-in form. The form itself is tested in foundation.spec.ts; elsewhere a spec
 * starts signed in, from a session made through the sign-in call (as the form makes it, without drawing the form).
 *
 * The shared product: the global setup (global-setup.ts) starts one product for the whole run and signs in the users
 * of SHARED_SESSIONS on it once. A spec that only reads (it changes nothing another spec reads, and reads no mail: the
 * shared product's mail catcher is in the global setup's process) uses it instead of starting its own, which costs
 * seconds of CPU: `signedInPage(browser, sharedProduct(), 'admin@demo.test')`. A spec that changes data, settings or a
 * user's choices (language, currency) that another spec reads, that signs out, or that needs a product with other
 * settings, starts its own (`startProduct()`) and signs in on it with the same `signedInPage(browser, product, email)`.
 */

/** The users signed in on the shared product by the global setup. */
export const SHARED_SESSIONS = ['admin@demo.test', 'advertiser@demo.test', 'publisher@demo.test'] as const;
export type SharedUser = (typeof SHARED_SESSIONS)[number];

/** Cookies of a signed-in browser, as Playwright keeps them (`storageState`). */
type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface SharedProduct {
  url: string;
  /** Each user of SHARED_SESSIONS's signed-in cookies. */
  sessions: Record<SharedUser, StorageState>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The product the global setup started for the specs that only read, with its signed-in users. */
    sharedProduct: SharedProduct;
  }
}

/** The product started once for the whole run (see above): for a spec that changes nothing other specs read. */
export function sharedProduct(): SharedProduct {
  const shared = inject('sharedProduct');
  if (!shared) throw new Error('No shared product: run the browser specs through the e2e project (its global setup)');
  return shared;
}

/**
 * Signs `email` in through the sign-in call on the product at `url`, reading the code from its mail catcher; answers
 * the session's cookies. `agree` ticks the terms for a user who has not agreed to them yet.
 */
export async function signInByApi(
  url: string,
  smtp: Product['smtp'],
  email: string,
  options: { agree?: boolean } = {},
): Promise<StorageState> {
  const api = await request.newContext({ baseURL: url });
  try {
    await api.get('/sanctum/csrf-cookie');
    const post = async (body: object) => {
      const { cookies } = await api.storageState();
      const token = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
      const response = await api.post('/api/common/signin', {
        data: body,
        headers: { 'x-requested-with': 'XMLHttpRequest', 'x-xsrf-token': decodeURIComponent(token) },
      });
      return { status: response.status(), body: (await response.json()) as { status?: string; step?: number } };
    };
    const before = smtp.messages.length;
    await post({ step: 1, email });
    const code = codeFrom(await smtp.waitForMail(email, before));
    const signedIn = await post({ step: 2, email, code, ...(options.agree ? { hasUserAgreed: true } : {}) });
    if (signedIn.status !== 200 || signedIn.body.step !== 3)
      throw new Error(`The sign-in of ${email} failed: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
    return await api.storageState();
  } finally {
    await api.dispose();
  }
}

/**
 * A new browser context signed in as `email` (in English unless `options` say otherwise): on the shared
 * product, with the session the global setup made; on a product of the spec's own, with one made now.
 */
export async function signedInContext(
  browser: Browser,
  product: Product | SharedProduct,
  email: string,
  options: BrowserContextOptions & { agree?: boolean } = {},
): Promise<BrowserContext> {
  const { agree, ...contextOptions } = options;
  let storageState: StorageState;
  if ('sessions' in product) {
    const session = product.sessions[email as SharedUser];
    if (!session) throw new Error(`${email} is not signed in on the shared product: add it to SHARED_SESSIONS`);
    storageState = session;
  } else {
    storageState = await signInByApi(product.url, product.smtp, email, { agree });
  }
  return browser.newContext({
    baseURL: product.url,
    locale: 'en-US',
    ...contextOptions,
    storageState,
  });
}

/**
 * A page of a new context signed in as `email` (signedInContext), showing the user's home screen (where the form
 * leads after signing in) unless `path` names another.
 */
export async function signedInPage(
  browser: Browser,
  product: Product | SharedProduct,
  email: string,
  options: BrowserContextOptions & { agree?: boolean; path?: string } = {},
): Promise<Page> {
  const { path = '/', ...contextOptions } = options;
  const page = await (await signedInContext(browser, product, email, contextOptions)).newPage();
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}
