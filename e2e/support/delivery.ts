import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createServer, type Server } from 'node:http';
import { codeFrom } from '../../apps/api/test/smtp-catcher.ts';
import { expect } from 'vitest';
import type { Product } from './product.ts';

/** The demo blog (first publisher of the demo seed), registered on `localhost`. */
export const DEMO_BLOG_ID = 1;

/** A signed-in API caller for reading totals, as the web app calls the API (cookies and anti-forgery). */
export async function apiSession(product: Product, email: string) {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) cookies.set(name.trim(), value.join('='));
    }
  };
  const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  remember(await fetch(`${product.url}/sanctum/csrf-cookie`));
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${product.url}${path}`, {
      method: 'POST',
      headers: {
        cookie: header(),
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        'x-xsrf-token': decodeURIComponent(cookies.get('XSRF-TOKEN') ?? ''),
      },
      body: JSON.stringify(body),
    });
    remember(response);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const before = product.smtp.messages.length;
  await post('/api/common/signin', { step: 1, email });
  const code = codeFrom(await product.smtp.waitForMail(email, before));
  await post('/api/common/signin', { step: 2, email, code, hasUserAgreed: true });
  return { post };
}

/** The demo blog's installation data as its Installation screen gives it to the publisher: its own line of code. */
export async function demoBlogInstallation(product: Product) {
  const publisher = await apiSession(product, 'publisher@demo.test');
  const installation = (await publisher.post('/api/publisher/get-installation-data', {})) as {
    publisher: { id: number };
    lineOfCode1: string;
  };
  expect(installation.publisher.id).toBe(DEMO_BLOG_ID);
  return installation;
}

export interface Totals {
  impressions: number;
  clicks: number;
}

/** Validated impressions and billed clicks of every campaign, from the admin's activity call. */
export async function totals(admin: Awaited<ReturnType<typeof apiSession>>): Promise<Totals> {
  const answer = (await admin.post('/api/admin/get-activity', {
    sortBy: 'advertiser',
    showCompleteCampaignsOrInactiveAds: true,
  })) as { campaigns: Array<{ ex: { stats: { total: Totals } } }> };
  return answer.campaigns.reduce(
    (sum, campaign) => ({
      impressions: sum.impressions + campaign.ex.stats.total.impressions,
      clicks: sum.clicks + campaign.ex.stats.total.clicks,
    }),
    { impressions: 0, clicks: 0 },
  );
}

/**
 * A publisher's site on another origin (http://localhost:<port>): static pages that paste the snippet.
 * `/top.html` has its ad slot at the top; `/below.html` far below the fold; `extraPages` adds pages by
 * path (their body, or a whole document when it starts with `<!doctype`). A publisher registered on another
 * domain than `localhost` counts only pages of that domain (docs/server-behaviour.md): give it as `host`, for a
 * browser that resolves it to this machine (`launchBrowser({ resolving: [host] })`).
 */
export async function startPublisherSite(
  snippet: string,
  extraPages: Record<string, string> = {},
  options: { host?: string } = {},
) {
  const page = (body: string) =>
    body.startsWith('<!doctype')
      ? body
      : `<!doctype html><html><head><meta charset="utf-8"><title>Publisher</title>${snippet}</head><body style="margin:0">${body}</body></html>`;
  const pages: Record<string, string> = {
    '/top.html': page('<h1>Article</h1><div data-helium-slot style="width:728px;min-height:620px"></div><p>Text.</p>'),
    '/below.html': page('<h1>Long article</h1><div style="height:6000px">Text.</div><div data-helium-slot></div>'),
    ...Object.fromEntries(Object.entries(extraPages).map(([path, body]) => [path, page(body)])),
  };
  const server: Server = createServer((request, response) => {
    const body = pages[(request.url ?? '').split('?')[0] ?? ''];
    response.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${options.host ?? 'localhost'}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
let visitors = 0;

/**
 * A new visitor's Chrome: each call another build number in the user agent, so that each test's browser is
 * another visitor (one visitor's pageviews are limited to 30 a minute, and the tests, all from 127.0.0.1, make
 * more than that together). Give its context its own address too (`fromOwnAddress`): one address showing more
 * than 20 user agents a minute on a publisher is set aside (docs/server-behaviour.md).
 */
export function newVisitorUa(): string {
  visitors += 1;
  return CHROME_UA.replace('Chrome/126.0.0.0', `Chrome/126.0.${Math.floor(visitors / 250)}.${visitors % 250}`);
}

let addresses = 0;

/**
 * Makes the context's requests to the product come from an address of their own, as a visitor's through the
 * reverse proxy that the product trusts on loopback (X-Forwarded-For): a private address, which no geotargeting
 * places, as 127.0.0.1. A route the test adds later takes precedence; one that falls back keeps the address.
 */
export async function fromOwnAddress(context: BrowserContext, product: Product): Promise<void> {
  addresses += 1;
  const address = `10.99.${Math.floor(addresses / 250)}.${1 + (addresses % 250)}`;
  await context.route(`${product.url}/**`, (route) =>
    route.fallback({ headers: { ...route.request().headers(), 'x-forwarded-for': address } }),
  );
}

/** The page's next decision request (`/serve/d`) answered: start waiting before what makes the page ask. */
export function nextDecision(page: Page) {
  return page.waitForResponse((response) => response.url().includes('/serve/d?'));
}

/** Waits until `check` holds, polling; no fixed sleeps for what can be awaited. `awaited` names it in the error. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
  awaited = '',
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`Timed out${awaited ? ` waiting for ${awaited}` : ''}; last value ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The visitors of a delivery spec (delivery.spec.ts, delivery-viewability.spec.ts) and what they count, on the
 * spec's own product, browser and admin session (`stand`, read at each call).
 */
export function deliveryVisitors(
  stand: () => { product: Product; browser: Browser; admin: Awaited<ReturnType<typeof apiSession>> },
) {
  /** Waits until every campaign's validated impressions add up to `expected`. */
  const impressionsReach = (expected: number) =>
    eventually(
      () => totals(stand().admin),
      (now) => now.impressions === expected,
      10_000,
      `${expected} impressions in all`,
    );

  /** A new visitor's browser: another user agent unless given, an address of its own, the advertisers' sites local. */
  async function context(userAgent = newVisitorUa()): Promise<BrowserContext> {
    const { browser, product } = stand();
    const created = await browser.newContext({ userAgent, viewport: { width: 1280, height: 800 } });
    // Each test's browser is another person, with an address of its own.
    await fromOwnAddress(created, product);
    // The advertisers' sites are not reachable here: answer them locally.
    await created.route(
      (url) => url.hostname !== 'localhost' && url.hostname !== '127.0.0.1',
      (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Advertiser</title>Advertiser site' }),
    );
    return created;
  }

  return { impressionsReach, context };
}

/** The page address of each decision the page asks for (`/serve/d`), in order, as they are sent. */
export function decisionsAskedBy(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/serve/d?')) asked.push(new URL(request.url()).searchParams.get('u') ?? '');
  });
  return asked;
}
