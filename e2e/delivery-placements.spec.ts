import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { DEMO_BLOG_ID, fromOwnAddress, newVisitorUa, nextDecision, startPublisherSite } from './support/delivery.ts';
import { launchBrowser } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';

/** Cuisine Facile (third publisher of the demo seed): one placement, `.recipe-sidebar`, medium rectangles. */
const DEMO_RECIPES_ID = 3;

/** A recipe page with the placement's element (and text after it, to see that nothing moves). */
const RECIPE_PAGE =
  '<h1>Tarte aux pommes</h1><div style="display:flex"><article style="width:600px">Recette.</article>' +
  '<aside class="recipe-sidebar" style="width:300px"></aside></div><p id="after">Fin.</p>';
/** A page of the same site without the placement's element, nor a [data-helium-slot]. */
const PLAIN_PAGE = '<h1>Mentions légales</h1><p>Texte.</p>';

let product: Product;
let recipes: Awaited<ReturnType<typeof startPublisherSite>>;
let blog: Awaited<ReturnType<typeof startPublisherSite>>;
let mobileSite: Awaited<ReturnType<typeof startPublisherSite>>;
let browser: Browser;

const snippet = (publisherId: number) =>
  `<script async src="${product.url}/serve/script.js" data-publisher="${publisherId}"></script>`;

async function context(locale = 'en-US'): Promise<BrowserContext> {
  const created = await browser.newContext({
    userAgent: newVisitorUa(),
    locale,
    viewport: { width: 1280, height: 800 },
  });
  // Each test's browser is another person, with an address of its own.
  await fromOwnAddress(created, product);
  return created;
}

beforeAll(async () => {
  product = await startProduct();
  recipes = await startPublisherSite(
    snippet(DEMO_RECIPES_ID),
    {
      '/recipe.html': RECIPE_PAGE,
      '/plain.html': PLAIN_PAGE,
      // A page that renders itself: the placement's element appears 0.6 s after the page has loaded.
      '/late.html':
        '<h1>Tarte aux pommes</h1><script>addEventListener("load", () => setTimeout(() => {' +
        ' const aside = document.createElement("aside"); aside.className = "recipe-sidebar";' +
        ' document.body.append(aside); }, 600));</script>',
    },
    { host: 'cuisine-facile.example' },
  );
  blog = await startPublisherSite(snippet(DEMO_BLOG_ID), {
    '/plain.html': PLAIN_PAGE,
    // The slot as people type it: on two lines, with blank text inside.
    '/spaced.html': '<h1>Article</h1>\n<div id="slot" data-helium-slot>\n  \n</div>\n<p>Text.</p>',
    // A page whose parsing waits for a slow script of its own before reaching the slot.
    '/slow.html': '<h1>Article</h1><script src="/slow.js"></script><div id="slot" data-helium-slot></div>',
    // A slot as the docs advise (its height reserved) after text with no margin, and text after it that must not move.
    '/reserved.html': '<div>Article</div><div data-helium-slot style="min-height:282px"></div><p id="after">Text.</p>',
    // A page that renders itself: its slot appears 0.6 s after the page has loaded.
    '/late-slot.html':
      '<h1>Article</h1><script>addEventListener("load", () => setTimeout(() => {' +
      ' const slot = document.createElement("div"); slot.dataset.heliumSlot = ""; slot.id = "slot";' +
      ' document.body.append(slot); }, 600));</script>',
    // A page that renders a part of itself again (a framework's second render, hydration): 0.3 s after the ad
    // arrived, its slot is replaced by a new, empty one.
    '/rerender.html':
      '<div id="app"><h1>Article</h1><div data-helium-slot></div></div><script>' +
      ' const app = document.getElementById("app"); new MutationObserver((_, observer) => {' +
      ' if (!app.querySelector("a")) return; observer.disconnect(); setTimeout(() => {' +
      ' app.innerHTML = \'<h1>Article</h1><div id="fresh" data-helium-slot></div>\'; }, 300);' +
      ' }).observe(app, { childList: true, subtree: true });</script>',
    // A single-page app: "Next" pushes the next address; the test renders that page when it wants (its code
    // loading), after the next page's ad has been served into the slot still on the screen.
    '/spa.html':
      '<div id="app"><h1>Home</h1><div data-helium-slot></div></div><button id="next">Next</button><script>' +
      ' document.getElementById("next").onclick = () => history.pushState({}, "", "/spa.html?page=2");</script>',
    // A French site: its own language, whatever the visitor's browser says.
    '/francais.html':
      '<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Article</title>' +
      `<script async src="${product.url}/serve/script.js" data-publisher="${DEMO_BLOG_ID}"></script></head>` +
      '<body><h1>Article</h1><div id="slot" data-helium-slot></div></body></html>',
  });
  // The line placed (without async) above the page's viewport tag: it runs before the mobile width is known.
  mobileSite = await startPublisherSite(
    `<script src="${product.url}/serve/script.js" data-publisher="${DEMO_BLOG_ID}"></script>` +
      '<meta name="viewport" content="width=device-width,initial-scale=1">',
    { '/mobile.html': '<h1>Article</h1><div data-helium-slot></div>' },
  );
  // Cuisine Facile's pages are on its registered domain (served here): only those count.
  browser = await launchBrowser({ resolving: ['cuisine-facile.example'] });
});

afterAll(async () => {
  await browser?.close();
  await recipes?.close();
  await blog?.close();
  await mobileSite?.close();
  await product?.stop();
});

describe('placements', () => {
  it("puts the ad inside the placement's element, labelled, its box sized before the media loads", async () => {
    const ctx = await context('fr-FR');
    // Hold the creative back, to see the box before the media arrives.
    const held: Route[] = [];
    await ctx.route(
      (url) => url.pathname.startsWith('/media/') || url.pathname.startsWith('/serve/creative/'),
      (route) => void held.push(route),
    );
    const page = await ctx.newPage();
    await page.goto(`${recipes.url}/recipe.html`);
    const link = page.locator('.recipe-sidebar a[href*="/c/"]');
    await link.waitFor({ state: 'attached' });
    expect(await page.locator('a[href*="/c/"]').count()).toBe(1);
    await expect(page.locator('.recipe-sidebar').getByText('Publicité', { exact: true }).count()).resolves.toBe(1);
    const before = await link.boundingBox();
    const textBefore = await page.locator('#after').boundingBox();
    // A medium rectangle (format 3): 300 x 250, reserved while the image is still loading.
    expect(before).toMatchObject({ width: 300, height: 250 });
    expect(held.length).toBeGreaterThan(0);
    await Promise.all(held.map((route) => route.continue()));
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('.recipe-sidebar img');
      return image?.complete && image.naturalWidth > 0;
    });
    expect(await link.boundingBox()).toEqual(before);
    expect(await page.locator('#after').boundingBox()).toEqual(textBefore);
    await ctx.close();
  });

  it("shows the ad in a placement's element that the page adds after loading", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${recipes.url}/late.html`);
    await page.locator('.recipe-sidebar a[href*="/c/"]').waitFor({ state: 'visible' });
    expect(await page.locator('a[href*="/c/"]').count()).toBe(1);
    await ctx.close();
  });

  it("a page without the placement's element shows no ad when the publisher has no default placement", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const decision = nextDecision(page);
    await page.goto(`${recipes.url}/plain.html`);
    const answer = (await (await decision).json()) as { ads: Array<{ selector: string | null }> };
    // The server answered the placement; the script skips it, as the page has no such element.
    expect(answer.ads.map((ad) => ad.selector)).toEqual(['.recipe-sidebar']);
    await page.waitForTimeout(500);
    expect(await page.locator('a[href*="/c/"]').count()).toBe(0);
    await ctx.close();
  });

  it('the default placement fills a [data-helium-slot] that holds only blank text', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${blog.url}/spaced.html`);
    const link = page.locator('#slot a[href*="/c/"]');
    await link.waitFor({ state: 'visible' });
    expect(await page.locator('a[href*="/c/"]').count()).toBe(1);
    expect(await link.evaluate((element) => getComputedStyle(element.parentElement!).position)).not.toBe('fixed');
    await ctx.close();
  });

  it('asks for the ads while the page is still loading, and shows them once the slot is parsed', async () => {
    const ctx = await context();
    await ctx.route('**/slow.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
    });
    const page = await ctx.newPage();
    await page.goto(`${blog.url}/slow.html`);
    await page.locator('#slot a[href*="/c/"]').waitFor({ state: 'visible' });
    const timing = await page.evaluate(() => ({
      asked: performance.getEntriesByType('resource').find((entry) => entry.name.includes('/serve/d?'))!.startTime,
      parsed: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventStart,
    }));
    expect(timing.asked).toBeLessThan(timing.parsed - 500);
    expect(await page.locator('a[href*="/c/"]').count()).toBe(1);
    await ctx.close();
  });

  it("asks with the phone's width when the line runs before the page's viewport tag", async () => {
    const ctx = await browser.newContext({
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await ctx.newPage();
    const decision = page.waitForRequest((request) => request.url().includes('/serve/d?'));
    await page.goto(`${mobileSite.url}/mobile.html`);
    expect(new URL((await decision).url()).searchParams.get('w')).toBe('390');
    await ctx.close();
  });

  it('nothing on the page moves when the ad arrives in a slot whose height is reserved', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    // The decision held back, to measure the page before the ad's box is inserted.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/serve/d?*', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${blog.url}/reserved.html`);
    const textBefore = await page.locator('#after').boundingBox();
    const slotBefore = await page.locator('[data-helium-slot]').boundingBox();
    release();
    const image = page.locator('[data-helium-slot] img');
    await image.waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('[data-helium-slot] img')?.complete);
    expect(await page.locator('[data-helium-slot]').boundingBox()).toEqual(slotBefore);
    expect(await page.locator('#after').boundingBox()).toEqual(textBefore);
    await ctx.close();
  });

  it('the default placement waits for a slot that the page adds after loading, instead of the corner', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${blog.url}/late-slot.html`);
    await page.locator('#slot a[href*="/c/"]').waitFor({ state: 'visible' });
    expect(await page.locator('a[href*="/c/"]').count()).toBe(1);
    await ctx.close();
  });

  /** The view beacons a page sends (their tokens) and how the server answered each. */
  function viewsSentBy(page: Page) {
    const views: Array<{ token: string; counted: string }> = [];
    page.on('response', (response) => {
      if (!response.url().includes('/serve/v')) return;
      views.push({ token: response.request().postData() ?? '', counted: response.headers()['x-helium-counted'] ?? '' });
    });
    return views;
  }

  it('an ad that the page takes out with its slot goes back into the new slot, and its view counts once', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const views = viewsSentBy(page);
    const decision = nextDecision(page);
    await page.goto(`${blog.url}/rerender.html`);
    const [served] = ((await (await decision).json()) as { ads: Array<{ click: string; view: string }> }).ads;
    const moved = page.locator('#fresh a[href*="/c/"]');
    await moved.waitFor({ state: 'visible' });
    // The same ad (the same decision), not a new one: nothing else was asked for.
    expect(await moved.getAttribute('href')).toBe(served!.click);
    expect(await page.locator('a[href*="/c/"]').count()).toBe(1);
    await expect.poll(() => views.length, { timeout: 5000 }).toBe(1);
    await page.waitForTimeout(1500);
    expect(views).toEqual([{ token: served!.view, counted: 'counted' }]);
    await ctx.close();
  });

  it("a single-page app's next page, rendered after its ad was served, shows that ad in its own slot", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const views = viewsSentBy(page);
    await page.goto(`${blog.url}/spa.html`);
    const first = await page.locator('[data-helium-slot] a[href*="/c/"]').getAttribute('href');
    const decision = nextDecision(page);
    await page.getByRole('button', { name: 'Next' }).click();
    const [served] = ((await (await decision).json()) as { ads: Array<{ click: string; view: string }> }).ads;
    expect(served!.click).not.toBe(first);
    // The app has not rendered its next page yet: the ad went into the slot still there.
    await expect.poll(() => page.locator('[data-helium-slot] a[href*="/c/"]').getAttribute('href')).toBe(served!.click);
    await page.evaluate(() => {
      document.getElementById('app')!.innerHTML = '<h1>Page 2</h1><div id="second" data-helium-slot></div>';
    });
    const shown = page.locator('#second a[href*="/c/"]');
    await shown.waitFor({ state: 'visible' });
    expect(await shown.getAttribute('href')).toBe(served!.click);
    await expect.poll(() => views.map((view) => view.token), { timeout: 5000 }).toContain(served!.view);
    expect(views.find((view) => view.token === served!.view)?.counted).toBe('counted');
    await ctx.close();
  });

  it("labels the ad in the page's language, not the browser's", async () => {
    const ctx = await context('en-US');
    const page = await ctx.newPage();
    await page.goto(`${blog.url}/francais.html`);
    await page.locator('#slot a[href*="/c/"]').waitFor({ state: 'visible' });
    expect(await page.locator('#slot').getByText('Publicité', { exact: true }).count()).toBe(1);
    expect(await page.getByText('Ad', { exact: true }).count()).toBe(0);
    await ctx.close();
  });

  it('a page without any slot still shows the default placement (a fixed corner box) of a publisher that has it', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${blog.url}/plain.html`);
    const link = page.locator('a[href*="/c/"]');
    await link.waitFor({ state: 'visible' });
    expect(await link.count()).toBe(1);
    const position = await link.evaluate((element) => getComputedStyle(element.parentElement!).position);
    expect(position).toBe('fixed');
    await expect(page.getByText('Ad', { exact: true }).count()).resolves.toBe(1);
    await ctx.close();
  });

  it('the corner box comes with the extras module: blocked, the page shows no box and throws nothing', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const extras: string[] = [];
    await page.route(
      (url) => url.pathname === '/serve/extras.js',
      async (route) => {
        extras.push(route.request().url());
        await route.abort('blockedbyclient');
      },
    );
    const decision = nextDecision(page);
    await page.goto(`${blog.url}/plain.html`);
    expect((await decision).status()).toBe(200);
    // Asked for under its content's version (cached a year), and refused: no box, no error on the page.
    await expect.poll(() => extras.length).toBe(1);
    expect(extras[0]).toMatch(/\/serve\/extras\.js\?v=[0-9a-f]{10}$/);
    await page.waitForTimeout(800);
    expect(await page.locator('a[href*="/c/"]').count()).toBe(0);
    expect(await page.getByText('Ad', { exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the reader closes the corner box from the keyboard: its view does not count, and no box comes back', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const views = viewsSentBy(page);
    // The ad's image waits until the box is closed: a view needs the image shown, so however slowly the keys
    // arrive on a loaded machine, the view cannot complete first.
    let releaseMedia!: () => void;
    const mediaHeld = new Promise<void>((resolve) => (releaseMedia = resolve));
    await page.route(
      (url) => url.pathname.startsWith('/media/') || url.pathname.startsWith('/serve/creative/'),
      async (route) => {
        await mediaHeld;
        await route.continue();
      },
    );
    await page.goto(`${blog.url}/plain.html`);
    const link = page.locator('a[href*="/c/"]');
    await link.waitFor({ state: 'visible' });
    const close = page.getByRole('button', { name: 'Close ad' });
    // Reached with Tab, as a keyboard user does (the ad's link comes first).
    for (
      let presses = 0;
      presses < 5 && !(await close.evaluate((element) => element === document.activeElement));
      presses++
    ) {
      await page.keyboard.press('Tab');
    }
    // The browser's focus ring, which the box's reset style took away, is given back for the keyboard.
    expect(await close.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    expect(await link.count()).toBe(0);
    releaseMedia();
    // Closed before its second in view: no view beacon, though its image now loads (detached).
    await page.waitForTimeout(1500);
    expect(views).toEqual([]);
    // The next page of a single-page app is counted and served, but the reader closed the box: none comes back.
    const decision = nextDecision(page);
    await page.evaluate(() => history.pushState({}, '', '/plain.html?page=2'));
    expect((await decision).status()).toBe(200);
    await page.waitForTimeout(2600);
    expect(await page.locator('a[href*="/c/"]').count()).toBe(0);
    await ctx.close();
  });

  it('names the close button in French on a French site', async () => {
    const ctx = await context('fr-FR');
    const page = await ctx.newPage();
    await page.goto(`${blog.url}/plain.html`);
    await page.getByRole('button', { name: 'Fermer la publicité' }).waitFor({ state: 'visible' });
    await expect(page.getByText('Publicité', { exact: true }).count()).resolves.toBe(1);
    // A box in a slot of the page has no close button: it covers nothing.
    await page.goto(`${blog.url}/spaced.html`);
    await page.locator('#slot a[href*="/c/"]').waitFor({ state: 'visible' });
    expect(await page.getByRole('button').count()).toBe(0);
    await ctx.close();
  });
});
