import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import {
  apiSession,
  decisionsAskedBy,
  deliveryVisitors,
  demoBlogInstallation,
  eventually,
  nextDecision,
  startPublisherSite,
  totals,
} from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let product: Product;
let site: Awaited<ReturnType<typeof startPublisherSite>>;
let browser: Browser;
let admin: Awaited<ReturnType<typeof apiSession>>;

const { impressionsReach, context } = deliveryVisitors(() => ({ product, browser, admin }));

/**
 * A router that pushes a page and at once replaces its address (a redirect): waits for the decision it makes,
 * then half a second more, so that a second decision (at the address pushed first) would have been asked too.
 */
async function redirectAsItStarts(page: Page) {
  const redirected = nextDecision(page);
  await page.evaluate(() => {
    history.pushState({}, '', '/top.html?account');
    history.replaceState({}, '', '/top.html?account=overview');
  });
  await redirected;
  await page.waitForTimeout(500);
}

beforeAll(async () => {
  product = await startProduct();
  // The publisher's own line of code, as its Installation screen gives it.
  const installation = await demoBlogInstallation(product);
  site = await startPublisherSite(installation.lineOfCode1, {
    // A page with its own script and button, to see that the ad script never gets in their way.
    '/app.html':
      '<h1>App</h1><div data-helium-slot style="width:728px;min-height:620px"></div>' +
      '<button id="own" onclick="this.textContent=\'Clicked\'">Own button</button>' +
      "<script>document.addEventListener('DOMContentLoaded', () => { document.body.dataset.ready = 'yes'; });</script>",
    // A router that keeps its own reference to history.pushState, taken before the ad script loaded.
    '/router.html':
      '<!doctype html><html><head><meta charset="utf-8"><title>Router</title>' +
      '<script>const push = history.pushState.bind(history); window.go = (url) => push({}, "", url);</script>' +
      installation.lineOfCode1 +
      '</head><body style="margin:0"><h1>Router</h1><div data-helium-slot style="width:728px;min-height:620px"></div></body></html>',
    // A router of the Navigation API: it takes over its own links (intercept) instead of loading another page.
    '/intercept.html':
      '<h1>Intercept</h1><div data-helium-slot style="width:728px;min-height:620px"></div>' +
      '<a id="next" href="/intercept.html?view=2">Next</a><script>navigation.addEventListener("navigate", (event) => {' +
      ' const target = new URL(event.destination.url).searchParams;' +
      ' if (event.canIntercept && target.has("view"))' +
      ' event.intercept({ handler: () => (target.has("fail") ? Promise.reject(new Error("no data")) : Promise.resolve()) });' +
      // A guard that refuses the first replace to ?guarded (a form with unsaved changes).
      ' if (target.has("guarded") && event.navigationType === "replace" && !window.refusedOnce) {' +
      ' window.refusedOnce = true; event.preventDefault(); } });</script>',
  });
  browser = await launchBrowser();
  admin = await apiSession(product, 'admin@demo.test');
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await product?.stop();
});

describe('the publisher script on another origin', () => {
  it('an ad that stays in view 1.5 s adds exactly one validated impression', async () => {
    const before = await totals(admin);
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/top.html`);
    const ad = page.locator('[data-helium-slot] a[href*="/c/"]');
    await ad.waitFor({ state: 'visible' });
    await expect(page.locator('[data-helium-slot]').getByText('Ad', { exact: true }).count()).resolves.toBe(1);
    await page.waitForTimeout(1500);
    await impressionsReach(before.impressions + 1);
    // Staying longer adds nothing more for this pageview.
    await page.waitForTimeout(1200);
    expect((await totals(admin)).impressions).toBe(before.impressions + 1);
    await ctx.close();
  });

  it('an ad never scrolled into view adds none', async () => {
    const before = await totals(admin);
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/below.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'attached' });
    await page.waitForTimeout(2500);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await ctx.close();
  });

  it('a bot user agent adds none', async () => {
    const before = await totals(admin);
    const ctx = await context(BOT_UA);
    const page = await ctx.newPage();
    const decision = nextDecision(page);
    await page.goto(`${site.url}/top.html`);
    await decision;
    await page.waitForTimeout(2500);
    expect(await page.locator('[data-helium-slot] a').count()).toBe(0);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await ctx.close();
  });

  it('a click goes to the ad link with a click id and counts once per hour', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/top.html`);
    const ad = page.locator('[data-helium-slot] a[href*="/c/"]');
    await ad.waitFor({ state: 'visible' });
    const before = await totals(admin);
    const [first] = await Promise.all([ctx.waitForEvent('page'), ad.click()]);
    await first.waitForURL(/hclid=/);
    const landing = new URL(first.url());
    expect(landing.hostname).not.toBe('localhost');
    expect(landing.searchParams.get('hclid')).toMatch(/^[\w-]{16}$/);
    await eventually(
      () => totals(admin),
      (now) => now.clicks === before.clicks + 1,
    );
    const [second] = await Promise.all([ctx.waitForEvent('page'), ad.click()]);
    await second.waitForURL(/hclid=/);
    expect(new URL(second.url()).hostname).toBe(landing.hostname);
    expect((await totals(admin)).clicks).toBe(before.clicks + 1);
    await ctx.close();
  });
});

describe('single-page apps, blocked and offline', () => {
  it("counts a router's new address also when it took history.pushState before the script loaded", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const decisions = decisionsAskedBy(page);
    await page.goto(`${site.url}/router.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    const next = nextDecision(page);
    await page.evaluate(() => (window as unknown as { go: (url: string) => void }).go('/router.html?page=2'));
    expect((await next).headers()['x-helium-counted']).toBe('counted');
    expect(decisions).toEqual([`${site.url}/router.html`, `${site.url}/router.html?page=2`]);
    await ctx.close();
  });

  it('counts a navigation that a Navigation API router takes over (intercept) as a new page', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const decisions = decisionsAskedBy(page);
    await page.goto(`${site.url}/intercept.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    const next = nextDecision(page);
    await page.click('#next');
    await next;
    // The same document, at its new address: no load of another page.
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
    expect(decisions).toEqual([`${site.url}/intercept.html`, `${site.url}/intercept.html?view=2`]);
    // A taken-over navigation whose loading fails has still changed the address: a new page.
    const failed = nextDecision(page);
    await page.evaluate(() =>
      (window as unknown as { navigation: { navigate(url: string): { finished: Promise<unknown> } } }).navigation
        .navigate('/intercept.html?view=3&fail=1')
        .finished.catch(() => {}),
    );
    await failed;
    expect(decisions.at(-1)).toBe(`${site.url}/intercept.html?view=3&fail=1`);
    // A replace the page refuses changes nothing: the same address, pushed afterwards, is a new page.
    await page.evaluate(() => {
      try {
        history.replaceState(null, '', '/intercept.html?guarded');
      } catch {
        // refused
      }
    });
    expect(new URL(page.url()).search).toBe('?view=3&fail=1');
    const guarded = nextDecision(page);
    await page.evaluate(() => history.pushState(null, '', '/intercept.html?guarded'));
    await guarded;
    expect(decisions.at(-1)).toBe(`${site.url}/intercept.html?guarded`);
    await ctx.close();
  });

  it('without the Navigation API (older browsers) follows pushState and replaceState as with it', async () => {
    const ctx = await context();
    await ctx.addInitScript(() => Object.defineProperty(window, 'navigation', { value: undefined }));
    const page = await ctx.newPage();
    const decisions = decisionsAskedBy(page);
    await page.goto(`${site.url}/top.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => (window as { navigation?: unknown }).navigation)).toBeUndefined();
    const pushed = nextDecision(page);
    await page.evaluate(() => history.pushState({}, '', '/top.html?article=7'));
    await pushed;
    // A replaced address is the same page; a push at once replaced (a redirect) is one page, at its final address.
    await page.evaluate(() => history.replaceState(null, '', '/top.html?article=7&ref=tidy'));
    await page.waitForTimeout(800);
    expect(decisions).toHaveLength(2);
    await redirectAsItStarts(page);
    expect(decisions).toEqual([
      `${site.url}/top.html`,
      `${site.url}/top.html?article=7`,
      `${site.url}/top.html?account=overview`,
    ]);
    await ctx.close();
  });

  it("a single-page app's new address is a new pageview with its own ad; the same address again is not", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const decisions = decisionsAskedBy(page);
    await page.goto(`${site.url}/top.html`);
    const ad = page.locator('[data-helium-slot] a[href*="/c/"]');
    await ad.waitFor({ state: 'visible' });
    const firstLink = await ad.getAttribute('href');
    await page.waitForTimeout(1500);
    const before = await totals(admin);

    const pushed = nextDecision(page);
    await page.evaluate(() => history.pushState({ article: 2 }, '', '/top.html?article=2'));
    const answer = await pushed;
    expect(answer.headers()['x-helium-counted']).toBe('counted');
    expect(decisions).toEqual([`${site.url}/top.html`, `${site.url}/top.html?article=2`]);
    // The slot holds the new decision's ad (its own click link), labelled once, and its view counts again.
    await expect.poll(() => ad.getAttribute('href')).not.toBe(firstLink);
    expect(await page.locator('[data-helium-slot]').getByText('Ad', { exact: true }).count()).toBe(1);
    await page.waitForTimeout(1500);
    await impressionsReach(before.impressions + 1);

    // Replacing the state without changing the address is not a pageview.
    await page.evaluate(() => history.replaceState({ scroll: 10 }, '', location.href));
    await page.waitForTimeout(800);
    expect(decisions).toHaveLength(2);

    // Replacing the address (a site removing its campaign parameters) keeps the page: the ad stays.
    const shownLink = await ad.getAttribute('href');
    await page.evaluate(() => history.replaceState(null, '', '/top.html?article=2&ref=tidy'));
    await page.waitForTimeout(800);
    expect(decisions).toHaveLength(2);
    expect(await ad.getAttribute('href')).toBe(shownLink);
    // An in-page anchor (a table of contents, "back to top") is the same page: the ad stays, nothing counted.
    await page.evaluate(() => (location.hash = 'comments'));
    await page.waitForTimeout(800);
    expect(decisions).toHaveLength(2);
    expect(await ad.getAttribute('href')).toBe(shownLink);
    // A hash route (#/...) of a single-page app is a new page.
    const routed = nextDecision(page);
    await page.evaluate(() => (location.hash = '/settings'));
    await routed;
    // The browser's back button, out of the hash route to the article, is a new page again.
    const back = nextDecision(page);
    await page.goBack();
    await back;
    // A router that pushes a page and at once replaces its address (a redirect): one new page, at the final address.
    await redirectAsItStarts(page);
    expect(decisions).toEqual([
      `${site.url}/top.html`,
      `${site.url}/top.html?article=2`,
      `${site.url}/top.html?article=2&ref=tidy#/settings`,
      `${site.url}/top.html?article=2&ref=tidy`,
      `${site.url}/top.html?account=overview`,
    ]);
    await ctx.close();
  });

  /** Opens /app.html with the given network trouble; returns the page and the errors it threw. */
  async function openApp(trouble: (ctx: BrowserContext) => Promise<unknown>) {
    const ctx = await context();
    await trouble(ctx);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${site.url}/app.html`);
    await expect.poll(() => page.evaluate(() => document.body.dataset.ready)).toBe('yes');
    return { ctx, page, errors };
  }

  async function expectPageUnharmed(page: Awaited<ReturnType<typeof openApp>>['page'], errors: string[]) {
    await page.getByRole('button', { name: 'Own button' }).click();
    await expect.poll(() => page.locator('#own').textContent()).toBe('Clicked');
    const slot = page.locator('[data-helium-slot]');
    expect(await slot.locator('a, img, video').count()).toBe(0);
    expect(await slot.getByText('Ad', { exact: true }).count()).toBe(0);
    // The slot keeps the size the page gave it: nothing shifts.
    expect((await slot.boundingBox())?.height).toBe(620);
    expect(errors).toEqual([]);
  }

  it('a page restored from the back/forward cache is a new pageview with a new ad', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const decided = decisionsAskedBy(page);
    await page.goto(`${site.url}/top.html`);
    const ad = page.locator('[data-helium-slot] a[href*="/c/"]');
    await ad.waitFor({ state: 'visible' });
    const firstLink = await ad.getAttribute('href');
    // The browser's events for a page shown again: after its first load (not persisted), and restored from the
    // back/forward cache (persisted). Playwright's browser keeps no such cache, so they are dispatched as the
    // browser would.
    const pageshow = (persisted: boolean) =>
      page.evaluate(
        (restored) => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: restored })),
        persisted,
      );
    await pageshow(false);
    await page.waitForTimeout(500);
    expect(decided).toEqual([`${site.url}/top.html`]);
    await pageshow(true);
    await expect.poll(() => decided.length).toBe(2);
    expect(decided[1]).toBe(`${site.url}/top.html`);
    await expect.poll(() => ad.getAttribute('href')).not.toBe(firstLink);
    expect(await ad.count()).toBe(1);
    await ctx.close();
  });

  it('with the script blocked (an ad blocker), the page works and shows no ad', async () => {
    const { ctx, page, errors } = await openApp((ctx) =>
      ctx.route('**/serve/script.js*', (route) => route.abort('blockedbyclient')),
    );
    await page.waitForTimeout(500);
    await expectPageUnharmed(page, errors);
    await ctx.close();
  });

  it('with the ad server unreachable or answering an error, the page works, throws nothing and shows no ad', async () => {
    for (const trouble of [
      (route: Route) => route.abort('internetdisconnected'),
      (route: Route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal error' }),
      (route: Route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"ads":[{"kind":' }),
    ]) {
      let asked = 0;
      const { ctx, page, errors } = await openApp((ctx) =>
        ctx.route('**/serve/d?*', (route) => {
          asked++;
          return trouble(route);
        }),
      );
      await expect.poll(() => asked).toBe(1);
      await page.waitForTimeout(300);
      await expectPageUnharmed(page, errors);
      await ctx.close();
    }
  });

  it('going offline after an ad was shown: later navigations and the pending view throw nothing', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${site.url}/app.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    await ctx.setOffline(true);
    // The view beacon falls due offline, then the app navigates: both fail quietly.
    await page.waitForTimeout(1500);
    await page.evaluate(() => history.pushState({}, '', '/app.html?step=2'));
    await page.waitForTimeout(500);
    await expectPageUnharmed(page, errors);
    await ctx.close();
  });
});
