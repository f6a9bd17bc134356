/**
 * npm run bench:first-screens [-- --json]
 *
 * What a first visit transfers, measured in Chromium (/usr/bin/chromium, playwright-core) against the product
 * started as `npm start` starts it (e2e/support/product.ts: the built web app, an empty data folder, seeded):
 * the sign-in screen, and the advertiser's Activity screen opened signed in with an empty browser cache.
 * "Transferred" is what DevTools' Network panel shows: every response's bytes on the wire (headers and
 * compressed body), scripts, styles, fonts and API answers alike. Fails (exit code 1) when a screen is over its
 * budget (docs/performance.md, "First screens"). Build first (`npm run build`).
 */
import { parseArgs } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInThroughForm } from '../../e2e/support/browser.ts';
import { startProduct, type Product } from '../../e2e/support/product.ts';

const KB = 1024;
/** Issue 26: the sign-in screen and any signed-in first screen, transferred. */
export const FIRST_SCREEN_BUDGETS = { signIn: 150 * KB, signedIn: 250 * KB } as const;

interface Transfer {
  bytes: number;
  requests: number;
  byType: Record<string, number>;
  /** The largest responses, biggest first, for the report. */
  largest: { url: string; bytes: number; encoding: string }[];
}

/**
 * Opens `path` in a page of `context` (a context of its own: empty cache) and sums the bytes of every response
 * up to network idle, from Chromium's own accounting (CDP Network.loadingFinished encodedDataLength).
 */
async function transferOf(context: BrowserContext, path: string, ready: (page: Page) => Promise<void>) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const responses = new Map<string, { url: string; type: string; encoding: string }>();
  const transfer: Transfer = { bytes: 0, requests: 0, byType: {}, largest: [] };
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    responses.set(event.requestId, {
      url: new URL(event.response.url).pathname,
      type: event.type,
      encoding: String(headers['content-encoding'] ?? '-'),
    });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const response = responses.get(event.requestId);
    if (!response) return;
    transfer.bytes += event.encodedDataLength;
    transfer.requests += 1;
    transfer.byType[response.type] = (transfer.byType[response.type] ?? 0) + event.encodedDataLength;
    transfer.largest.push({ url: response.url, bytes: event.encodedDataLength, encoding: response.encoding });
  });
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await page.close();
  transfer.largest.sort((a, b) => b.bytes - a.bytes).splice(8);
  return transfer;
}

const heading = (text: string) => async (page: Page) => {
  await page.getByRole('heading', { level: 1, name: text }).waitFor();
};

export async function measureFirstScreens(product: Product) {
  const browser = await launchBrowser();
  try {
    const signInContext = await browser.newContext({ baseURL: product.url, locale: 'en-US' });
    const signIn = await transferOf(signInContext, '/signin', heading('Connexion'));
    await signInContext.close();

    // Signed in once, then the first screen opened in a new context with only the session's cookies.
    const session = await browser.newContext({ baseURL: product.url, locale: 'en-US' });
    const page = await session.newPage();
    await signInThroughForm(page, product, 'advertiser@demo.test');
    await page.waitForURL('**/advertiser/activity');
    const storageState = await session.storageState();
    await session.close();
    const signedInContext = await browser.newContext({ baseURL: product.url, locale: 'en-US', storageState });
    const activity = await transferOf(signedInContext, '/advertiser/activity', heading('Activity'));
    await signedInContext.close();
    return { signIn, activity };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

function report(name: string, transfer: Transfer, budget: number): boolean {
  const within = transfer.bytes <= budget;
  console.log(
    `${name}: ${kb(transfer.bytes)} transferred in ${transfer.requests} requests (budget ${kb(budget)}: ${
      within ? 'within' : `over by ${kb(transfer.bytes - budget)}`
    })`,
  );
  console.log(
    `  by type: ${Object.entries(transfer.byType)
      .sort((a, b) => b[1] - a[1])
      .map(([type, bytes]) => `${type} ${kb(bytes)}`)
      .join(', ')}`,
  );
  for (const item of transfer.largest)
    console.log(`  ${kb(item.bytes).padStart(9)} ${item.encoding.padEnd(4)} ${item.url}`);
  return within;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { json: { type: 'boolean' } } });
  const product = await startProduct();
  try {
    const { signIn, activity } = await measureFirstScreens(product);
    const ok = [
      report('Sign-in screen', signIn, FIRST_SCREEN_BUDGETS.signIn),
      report('Advertiser Activity, signed in', activity, FIRST_SCREEN_BUDGETS.signedIn),
    ].every(Boolean);
    if (values.json) console.log(JSON.stringify({ signIn: signIn.bytes, activity: activity.bytes }));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await product.stop();
  }
}
