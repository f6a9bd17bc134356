import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import {
  apiSession,
  DEMO_BLOG_ID,
  eventually,
  fromOwnAddress,
  newVisitorUa,
  nextDecision,
  startPublisherSite,
  totals,
} from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** A real H.264 video (the demo seed's), for ads shown as video. */
const VIDEO = readFileSync(new URL('../packages/db/src/seed/media/nordvik-video.mp4', import.meta.url));

let product: Product;
let site: Awaited<ReturnType<typeof startPublisherSite>>;
let browser: Browser;
let admin: Awaited<ReturnType<typeof apiSession>>;

/** Waits until every campaign's validated impressions add up to `expected`. */
const impressionsReach = (expected: number) =>
  eventually(
    () => totals(admin),
    (now) => now.impressions === expected,
  );

async function context(userAgent = newVisitorUa()): Promise<BrowserContext> {
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

/** The page address of each decision the page asks for (`/serve/d`), in order, as they are sent. */
function decisionsAskedBy(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/serve/d?')) asked.push(new URL(request.url()).searchParams.get('u') ?? '');
  });
  return asked;
}

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
  const publisher = await apiSession(product, 'publisher@demo.test');
  const installation = (await publisher.post('/api/publisher/get-installation-data', {})) as {
    publisher: { id: number };
    lineOfCode1: string;
  };
  expect(installation.publisher.id).toBe(DEMO_BLOG_ID);
  site = await startPublisherSite(installation.lineOfCode1, {
    // The line pasted a second time, in the body (by hand, and once more by a plug-in).
    '/twice.html': `<h1>Article</h1><div data-helium-slot style="width:728px;min-height:620px"></div>${installation.lineOfCode1}`,
    // A page with its own script and button, to see that the ad script never gets in their way.
    '/app.html':
      '<h1>App</h1><div data-helium-slot style="width:728px;min-height:620px"></div>' +
      '<button id="own" onclick="this.textContent=\'Clicked\'">Own button</button>' +
      "<script>document.addEventListener('DOMContentLoaded', () => { document.body.dataset.ready = 'yes'; });</script>",
    // The slot in a tab panel not shown yet (hidden by the page's styles).
    '/hidden.html':
      '<h1>Tabs</h1><div id="panel" style="visibility:hidden"><div data-helium-slot style="width:728px;min-height:620px"></div></div>',
    // The slot in a collapsed sidebar: no width at all.
    '/collapsed.html':
      '<h1>Article</h1><aside style="width:0;overflow:hidden"><div data-helium-slot></div></aside><p>Text.</p>',
    // A consent layer over the whole page, above everything (the ad's corner box included), until accepted.
    '/covered.html':
      '<h1>Article</h1><div data-helium-slot style="width:728px;min-height:620px"></div>' +
      '<div id="layer" style="position:fixed;inset:0;background:rgba(0,0,0,.6);z-index:2147483647">' +
      '<button id="accept" onclick="this.parentNode.remove()">Accept</button></div>',
    // A decorative tint over the page that the pointer passes through: the ad stays seen.
    '/tinted.html':
      '<h1>Article</h1><div data-helium-slot style="width:728px;min-height:620px"></div>' +
      '<div style="position:fixed;inset:0;background:rgba(255,200,0,.1);pointer-events:none;z-index:10"></div>',
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
    // A copy of the line without the publisher's id (a plug-in misconfigured), before the publisher's own line.
    '/copies.html':
      '<!doctype html><html><head><meta charset="utf-8"><title>Publisher</title>' +
      // Not async: it certainly runs first.
      installation.lineOfCode1.replace(/ data-publisher="[^"]*"/, '').replace(' async', '') +
      installation.lineOfCode1 +
      '</head><body style="margin:0"><h1>Article</h1><div data-helium-slot style="width:728px;min-height:620px"></div></body></html>',
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

describe('viewability, measured by the script itself', () => {
  /** Scrolls the page so that `share` of the ad's box is inside the viewport, from its bottom edge. */
  /** Scrolls so that this share of the ad itself (its label, above it, is then in view too) is in the window. */
  async function showShareOfAd(page: Page, share: number) {
    await page.evaluate((visible) => {
      const ad = document.querySelector('[data-helium-slot] a[href*="/c/"]')!;
      const rect = ad.getBoundingClientRect();
      window.scrollBy(0, rect.top - (window.innerHeight - rect.height * visible));
    }, share);
  }

  async function setTabVisible(page: Page, visible: boolean) {
    await page.evaluate(
      (state) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
        document.dispatchEvent(new Event('visibilitychange'));
      },
      visible ? 'visible' : 'hidden',
    );
  }

  async function openBelowTheFold() {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/below.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'attached' });
    return { ctx, page };
  }

  it('less than half of the ad in view counts nothing; more than half for 1 s counts one', async () => {
    const { ctx, page } = await openBelowTheFold();
    const before = await totals(admin);
    // 48% of the ad, with its label: more than half of the labelled box, still less than half of the ad.
    await showShareOfAd(page, 0.48);
    await page.waitForTimeout(2000);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await showShareOfAd(page, 0.6);
    await page.waitForTimeout(1300);
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it("an ad under the page's own layer (a consent banner) counts nothing until the layer goes", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const before = await totals(admin);
    await page.goto(`${site.url}/covered.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    await page.waitForTimeout(2000);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await page.click('#accept');
    await page.waitForTimeout(1300);
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it('a layer the pointer passes through (a decorative tint) does not hide the ad', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const before = await totals(admin);
    await page.goto(`${site.url}/tinted.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    await page.waitForTimeout(1500);
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it('the second in view must be continuous: two glimpses of 0.6 s count nothing', async () => {
    const { ctx, page } = await openBelowTheFold();
    const before = await totals(admin);
    for (let glimpse = 0; glimpse < 2; glimpse++) {
      await showShareOfAd(page, 1);
      await page.waitForTimeout(600);
      await showShareOfAd(page, 0);
      await page.waitForTimeout(300);
    }
    await page.waitForTimeout(1200);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await showShareOfAd(page, 1);
    await page.waitForTimeout(1300);
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it('an ad in view in a hidden tab counts nothing until the tab is shown again', async () => {
    const { ctx, page } = await openBelowTheFold();
    const before = await totals(admin);
    await setTabVisible(page, false);
    await showShareOfAd(page, 1);
    await page.waitForTimeout(1800);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await setTabVisible(page, true);
    await page.waitForTimeout(1300);
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  /** The server's real decision, presented to the script as a video at `src` (its view token stays the real one). */
  async function asVideo(ctx: BrowserContext, src: string) {
    await ctx.route('**/serve/d?*', async (route) => {
      const response = await route.fetch();
      const answer = (await response.json()) as { ads: Array<{ kind: string; src: string }> };
      for (const ad of answer.ads) Object.assign(ad, { kind: 'video', src });
      await route.fulfill({ response, json: answer });
    });
  }

  it('a video ad needs 2 s in view, playing', async () => {
    const ctx = await context();
    await asVideo(ctx, `${site.url}/ad.mp4`);
    await ctx.route('**/ad.mp4', (route) => route.fulfill({ status: 200, contentType: 'video/mp4', body: VIDEO }));
    const page = await ctx.newPage();
    await page.goto(`${site.url}/below.html`);
    await page.locator('[data-helium-slot] video').waitFor({ state: 'attached' });
    const before = await totals(admin);
    await showShareOfAd(page, 1);
    await page.waitForFunction(() => {
      const video = document.querySelector('video');
      return video !== null && !video.paused && video.currentTime > 0;
    });
    await page.waitForTimeout(1500);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await page.waitForTimeout(800);
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it("an ad whose image finishes loading after a single-page app's navigation removed it counts nothing", async () => {
    const ctx = await context();
    // The first page's image held back until the app has moved on (a slow phone, a large image).
    const held: Route[] = [];
    let holding = true;
    await ctx.route(
      (url) => url.pathname.startsWith('/media/') || url.pathname.startsWith('/serve/creative/'),
      (route) => (holding ? void held.push(route) : route.continue()),
    );
    const page = await ctx.newPage();
    await page.goto(`${site.url}/top.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const before = await totals(admin);
    const firstLink = await page.locator('[data-helium-slot] a[href*="/c/"]').getAttribute('href');
    await page.evaluate(() => history.pushState({}, '', '/top.html?page=2'));
    await expect.poll(() => page.locator('[data-helium-slot] a[href*="/c/"]').getAttribute('href')).not.toBe(firstLink);
    holding = false;
    await Promise.all(held.map((route) => route.continue()));
    // The second page's ad, in view and loaded, counts once; the first one's late image adds nothing.
    await impressionsReach(before.impressions + 1);
    await page.waitForTimeout(1500);
    expect((await totals(admin)).impressions).toBe(before.impressions + 1);
    await ctx.close();
  });

  it('an ad whose media never shows (an image that fails, a video that cannot play) counts nothing', async () => {
    const before = await totals(admin);
    const broken = await context();
    await broken.route(
      (url) => url.pathname.startsWith('/media/') || url.pathname.startsWith('/serve/creative/'),
      (route) => route.fulfill({ status: 404, body: '' }),
    );
    const image = await broken.newPage();
    await image.goto(`${site.url}/top.html`);
    await image.locator('[data-helium-slot] img').waitFor({ state: 'visible' });
    const unplayable = await context();
    // Not a video at all: the browser cannot start it.
    await asVideo(unplayable, `${site.url}/broken.mp4`);
    await unplayable.route('**/broken.mp4', (route) =>
      route.fulfill({ status: 200, contentType: 'video/mp4', body: 'not a video' }),
    );
    const video = await unplayable.newPage();
    await video.goto(`${site.url}/top.html`);
    await video.locator('[data-helium-slot] video').waitFor({ state: 'visible' });
    // Both ads in view at the top of their page, in a visible tab, well past 1 s and 2 s.
    await image.waitForTimeout(3000);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await broken.close();
    await unplayable.close();
  });

  it('a prerendered page counts no pageview until it is shown, then counts its view', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    // The page as Chrome prerenders it for speculation rules: document.prerendering until it is activated.
    await page.addInitScript(() => {
      let prerendering = true;
      Object.defineProperty(document, 'prerendering', { configurable: true, get: () => prerendering });
      Object.defineProperty(window, '__activate', {
        value: () => {
          prerendering = false;
          document.dispatchEvent(new Event('prerenderingchange'));
        },
      });
    });
    const decided = decisionsAskedBy(page);
    const before = await totals(admin);
    await page.goto(`${site.url}/top.html`);
    // A single-page app that redirects as it starts, while still prerendered.
    await page.evaluate(() => history.pushState({}, '', '/top.html?lang=en'));
    await page.waitForTimeout(1500);
    expect(decided).toEqual([]);
    expect(await page.locator('a[href*="/c/"]').count()).toBe(0);
    await page.evaluate(() => (window as unknown as { __activate: () => void }).__activate());
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    expect(decided).toEqual([`${site.url}/top.html?lang=en`]);
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it('an ad in a part of the page hidden by its styles stays hidden and counts nothing until that part is shown', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const before = await totals(admin);
    await page.goto(`${site.url}/hidden.html`);
    const link = page.locator('[data-helium-slot] a[href*="/c/"]');
    await link.waitFor({ state: 'attached' });
    // In the window, in a visible tab, well past 1 s (2 s for a video): hidden all along.
    await page.waitForTimeout(2600);
    expect(await link.isVisible()).toBe(false);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    await page.evaluate(() => (document.getElementById('panel')!.style.visibility = 'visible'));
    await link.waitFor({ state: 'visible' });
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it('an ad in an element without width (a collapsed sidebar) counts nothing until the element opens', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const before = await totals(admin);
    await page.goto(`${site.url}/collapsed.html`);
    const link = page.locator('[data-helium-slot] a[href*="/c/"]');
    await link.waitFor({ state: 'attached' });
    expect((await link.boundingBox())?.width ?? 0).toBe(0);
    await page.waitForTimeout(2600);
    expect((await totals(admin)).impressions).toBe(before.impressions);
    // The sidebar opens: the ad, wholly in view all along, now has a size one can see.
    await page.evaluate(() => (document.querySelector('aside')!.style.width = '728px'));
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it('an ad fits a short window, so that half of it can be seen, and then counts', async () => {
    const ctx = await browser.newContext({ userAgent: newVisitorUa(), viewport: { width: 1280, height: 120 } });
    await fromOwnAddress(ctx, product);
    const page = await ctx.newPage();
    const before = await totals(admin);
    await page.goto(`${site.url}/top.html`);
    const link = page.locator('[data-helium-slot] a[href*="/c/"]');
    await link.waitFor({ state: 'visible' });
    // At most 80% of the window's height (96 px): every format of the demo is taller at its own size.
    const box = await link.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(96.5);
    expect(box!.height).toBeGreaterThan(0);
    await link.scrollIntoViewIfNeeded();
    await impressionsReach(before.impressions + 1);
    await ctx.close();
  });

  it('names the ad for screen readers: a link and an image called "Ad"', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${site.url}/top.html`);
    await page.getByRole('link', { name: 'Ad', exact: true }).waitFor({ state: 'visible' });
    const image = page.locator('[data-helium-slot] img');
    if ((await image.count()) > 0) expect(await image.getAttribute('alt')).toBe('Ad');
    await ctx.close();
  });

  it("a copy of the line without the publisher's id leaves the page to the publisher's own line", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const decisions = decisionsAskedBy(page);
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    await page.goto(`${site.url}/copies.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    await page.waitForTimeout(500);
    expect(decisions).toHaveLength(1);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the line pasted twice counts the page once and shows one ad', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const decisions = decisionsAskedBy(page);
    await page.goto(`${site.url}/twice.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    await page.waitForTimeout(800);
    expect(decisions).toHaveLength(1);
    expect(await page.locator('a[href*="/c/"]').count()).toBe(1);
    expect(await page.getByText('Ad', { exact: true }).count()).toBe(1);
    await ctx.close();
  });

  it('sets no cookie and adds no global to the page', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    // The page's own globals before any script runs, kept where the page cannot see them.
    await page.addInitScript(() => {
      Object.defineProperty(window, '__globalsBefore', {
        value: Object.getOwnPropertyNames(window),
        enumerable: false,
      });
    });
    await page.goto(`${site.url}/top.html`);
    await page.locator('[data-helium-slot] a[href*="/c/"]').waitFor({ state: 'visible' });
    await page.waitForTimeout(1300);
    const added = await page.evaluate(() => {
      const before = new Set((window as unknown as { __globalsBefore: string[] }).__globalsBefore);
      return Object.getOwnPropertyNames(window).filter((name) => !before.has(name) && name !== '__globalsBefore');
    });
    expect(added).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await ctx.cookies()).toEqual([]);
    await ctx.close();
  });
});
