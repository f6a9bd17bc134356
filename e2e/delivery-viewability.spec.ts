import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import {
  apiSession,
  decisionsAskedBy,
  deliveryVisitors,
  demoBlogInstallation,
  fromOwnAddress,
  newVisitorUa,
  startPublisherSite,
  totals,
} from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

/** A real H.264 video (the demo seed's), for ads shown as video. */
const VIDEO = readFileSync(new URL('../packages/db/src/seed/media/nordvik-video.mp4', import.meta.url));

let product: Product;
let site: Awaited<ReturnType<typeof startPublisherSite>>;
let browser: Browser;
let admin: Awaited<ReturnType<typeof apiSession>>;

const { impressionsReach, context } = deliveryVisitors(() => ({ product, browser, admin }));

beforeAll(async () => {
  product = await startProduct();
  // The publisher's own line of code, as its Installation screen gives it.
  const installation = await demoBlogInstallation(product);
  site = await startPublisherSite(installation.lineOfCode1, {
    // The line pasted a second time, in the body (by hand, and once more by a plug-in).
    '/twice.html': `<h1>Article</h1><div data-helium-slot style="width:728px;min-height:620px"></div>${installation.lineOfCode1}`,
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

describe('viewability, measured by the script itself', () => {
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
