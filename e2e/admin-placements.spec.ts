import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { acceptDialogs, launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { DEMO_BLOG_ID, fromOwnAddress, newVisitorUa, startPublisherSite } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Placements on screen (issue 25, item 5): an admin chooses the demo blog, refuses a selector that does not parse,
 * saves one that does, and the blog's page (a local test page) shows the ad in that element at once; in French,
 * deleting it asks first and the blog is back to the default slot.
 */

/** A page of the demo blog with an aside and no `[data-helium-slot]`: the default slot is a corner box. */
const NEWS_PAGE = '<h1>News</h1><aside id="side-box" style="width:320px;min-height:260px"></aside><p>Text.</p>';

let product: Product;
let browser: Browser;
let admin: Page;
let blog: Awaited<ReturnType<typeof startPublisherSite>>;

beforeAll(async () => {
  product = await startProduct();
  blog = await startPublisherSite(
    `<script async src="${product.url}/serve/script.js" data-publisher="${DEMO_BLOG_ID}"></script>`,
    { '/news.html': NEWS_PAGE },
  );
  browser = await launchBrowser();
  admin = await signedInPage(browser, product, 'admin@demo.test');
  await admin.waitForURL(/\/admin\//);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await blog?.close();
  await product?.stop();
});

/** A new visitor's view of the blog's news page, once its ad is on the page. */
async function visitNews(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ userAgent: newVisitorUa(), viewport: { width: 1280, height: 800 } });
  await fromOwnAddress(context, product);
  const page = await context.newPage();
  await page.goto(`${blog.url}/news.html`);
  await page.locator('a[href*="/c/"]').first().waitFor({ state: 'attached' });
  return { context, page };
}

describe('admin placements', () => {
  it('places the ad where the admin says, refusing a selector that does not parse', async () => {
    const before = await visitNews();
    expect(await before.page.locator('#side-box a[href*="/c/"]').count()).toBe(0);
    await before.context.close();

    await admin.getByRole('navigation').getByRole('link', { name: 'Placements' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    await admin.getByRole('combobox', { name: 'Web publisher' }).click();
    await admin.getByRole('option', { name: /Demo Blog/ }).click();
    await admin.waitForURL(new RegExp(`publisherId=${DEMO_BLOG_ID}`));
    await admin.getByText('This publisher has no placement').waitFor();
    await admin.getByTitle('Preview of localhost').waitFor({ state: 'attached' });

    await admin.getByRole('button', { name: 'Add a placement' }).click();
    const selector = admin.getByLabel(/^CSS selector/);
    await selector.fill('aside[');
    await admin.getByText('This is not a valid CSS selector.').waitFor();
    // The server's parser refuses it too: its refusal is beside the selector, and nothing is saved.
    const refusal = admin.waitForResponse((response) => response.url().endsWith('/api/admin/update-placements'));
    await admin.getByRole('button', { name: 'Save placements' }).click();
    expect((await refusal).status()).toBe(422);
    expect(await selector.getAttribute('aria-invalid')).toBe('true');
    await admin.getByText('This is not a valid CSS selector.').waitFor();
    expect(await admin.getByRole('status').filter({ hasText: 'Placements saved' }).count()).toBe(0);

    await selector.fill('#side-box');
    await admin.getByLabel('Position').selectOption('inside');
    await admin.getByRole('button', { name: 'Save placements' }).click();
    await admin.getByRole('status').filter({ hasText: 'Placements saved' }).waitFor();

    const after = await visitNews();
    await after.page.locator('#side-box a[href*="/c/"]').waitFor({ state: 'visible' });
    expect(await after.page.locator('a[href*="/c/"]').count()).toBe(1);
    await after.context.close();
  });

  it('reads in French, and deleting asks first and brings back the default slot', async () => {
    await admin.getByRole('button', { name: /Claire Dubois/ }).click();
    await admin.getByRole('menuitem', { name: 'Français' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Emplacements' }).waitFor();
    await admin.getByLabel(/^Sélecteur CSS/).waitFor();
    const dialogs = acceptDialogs(admin);
    await admin.getByRole('button', { name: "Supprimer l'emplacement 1" }).click();
    await admin.getByRole('status').filter({ hasText: 'Emplacements enregistrés' }).waitFor();
    expect(dialogs).toEqual(["Supprimer l'emplacement 1\u202f? La liste est enregistrée aussitôt sans lui."]);
    await admin.getByText("Cet éditeur n'a aucun emplacement").waitFor();

    const back = await visitNews();
    expect(await back.page.locator('#side-box a[href*="/c/"]').count()).toBe(0);
    await back.context.close();
  });

  it('fits a phone (390 px): no sideways scrolling, the fields and buttons whole', async () => {
    await admin.setViewportSize({ width: 390, height: 800 });
    await admin.getByRole('button', { name: 'Ajouter un emplacement' }).click();
    await admin.getByLabel(/^Sélecteur CSS/).waitFor();
    const widths = await admin.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      window: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    const save = await admin.getByRole('button', { name: 'Enregistrer les emplacements' }).boundingBox();
    expect(save!.x + save!.width).toBeLessThanOrEqual(390);
  });
});
