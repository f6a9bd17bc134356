import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';
import { signedInContext } from './support/sessions.ts';

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

/**
 * Every Content-Security-Policy violation the page reports (its `securitypolicyviolation` events, from
 * before the first script runs), and every console error or page error that mentions the policy.
 */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}`);
    });
  });
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
      messages.push(message.text());
    }
  });
  page.on('pageerror', (error) => {
    if (/Content Security Policy|unsafe-eval/i.test(error.message)) messages.push(error.message);
  });
  return async () => [
    ...messages,
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
  ];
}

/** Opens a screen from the menu and waits until its heading shows (the screen rendered). */
async function openScreen(page: Page, path: string, heading: string) {
  await page.goto(path);
  await page.waitForURL(`**${path}`);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
  // Let late chunks, images and charts load.
  await page.waitForLoadState('networkidle');
}

describe('the Content-Security-Policy in a real browser (issue 21, point 6)', () => {
  it('sends the sign-in page with the policy, and the page runs without any violation', async () => {
    const page = await newPage(browser, product);
    const violations = await watchViolations(page);
    const response = await page.goto('/signin');
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Connexion');
    await page.waitForLoadState('networkidle');
    expect(await violations()).toEqual([]);
    await page.context().close();
  });

  it('signs in and shows signed-in screens (charts, media, code snippets) without any violation', async () => {
    const page = await newPage(browser, product);
    const violations = await watchViolations(page);
    await signInThroughForm(page, product, 'advertiser@demo.test');
    await page.waitForURL('**/advertiser/activity');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Activity');
    await page.waitForLoadState('networkidle');
    await openScreen(page, '/advertiser/ads', 'Ads');
    expect(await violations()).toEqual([]);
    await page.context().close();

    // The form is drawn once above; the other roles start signed in.
    const publisher = await (await signedInContext(browser, product, 'publisher@demo.test')).newPage();
    const publisherViolations = await watchViolations(publisher);
    await publisher.goto('/');
    await publisher.waitForURL('**/publisher/accounting');
    await publisher.waitForLoadState('networkidle');
    await openScreen(publisher, '/publisher/installation', 'Installation');
    await openScreen(publisher, '/publisher/stats', 'Stats');
    expect(await publisherViolations()).toEqual([]);
    await publisher.context().close();

    const admin = await (await signedInContext(browser, product, 'admin@demo.test')).newPage();
    const adminViolations = await watchViolations(admin);
    await admin.goto('/');
    await admin.waitForURL('**/admin/stats');
    await admin.waitForLoadState('networkidle');
    await openScreen(admin, '/admin/ad-validation', 'Ad Validation');
    expect(await adminViolations()).toEqual([]);
    await admin.context().close();
  });

  it('cannot be framed by a page of another site', async () => {
    const framing: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Other site</title><iframe src="${product.url}/signin"></iframe>`);
    });
    await new Promise<void>((resolve) => framing.listen(0, '127.0.0.1', resolve));
    const address = framing.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const page = await newPage(browser, product);
      await page.goto(`http://127.0.0.1:${port}/`);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      expect(frame).toBeDefined();
      // Long enough for the sign-in form to show, were the app rendered in the frame.
      await page.waitForTimeout(2000);
      // The browser refuses to render the app in the frame: an error page, never the sign-in form.
      expect(await frame!.locator('h1').allInnerTexts()).not.toContain('Connexion');
      await page.context().close();
    } finally {
      await new Promise<void>((resolve) => framing.close(() => resolve()));
    }
  });
});
