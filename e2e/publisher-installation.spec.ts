import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInThroughForm } from './support/browser.ts';
import { DEMO_BLOG_ID, startPublisherSite } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

/** A short check so the test does not wait the default 5 s each time the screen opens. */
const CHECK_SECONDS = 2;

let product: Product;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  product = await startProduct({ PUBLISHER_INSTALL_CHECK_SECONDS: String(CHECK_SECONDS) });
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: product.url, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
  page = await context.newPage();
  await signInThroughForm(page, product, 'publisher@demo.test');
  await page.waitForURL('**/publisher/accounting');
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const progress = () => page.getByRole('progressbar', { name: /Installation check|Vérification de l'installation/ });
const status = () => page.getByTestId('install-status');
const lineOfCode = () =>
  `<script async src="${product.url}/serve/script.js" data-publisher="${DEMO_BLOG_ID}"></script>`;

async function openInstallation() {
  await page.goto('/publisher/installation');
  await progress().waitFor({ state: 'visible' });
}

async function switchLanguage(name: 'Français' | 'English') {
  await page.getByRole('button', { name: /Julien Martin/ }).click();
  await page.getByRole('menuitem', { name }).click();
}

// These run in file order on one signed-in page.
describe('Publisher Installation', () => {
  it('runs the progress bar while the installation is checked, then shows the line of code', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Installation' }).click();
    await page.waitForURL('**/publisher/installation');
    const bar = progress();
    await bar.waitFor({ state: 'visible' });
    const first = Number(await bar.getAttribute('aria-valuenow'));
    await page.waitForTimeout(500);
    const later = Number(await bar.getAttribute('aria-valuenow'));
    expect(later).toBeGreaterThan(first);
    expect(later).toBeLessThan(100);
    // The instructions wait for the end of the check.
    expect(await page.getByTestId('install-instructions').count()).toBe(0);

    const instructions = page.getByTestId('install-instructions');
    await instructions.waitFor({ state: 'visible', timeout: CHECK_SECONDS * 1000 + 5000 });
    expect(await bar.count()).toBe(0);
    expect(await instructions.getAttribute('data-variant')).toBe('english');
    expect(await instructions.getByTestId('code-block').innerText()).toBe(lineOfCode());
    await expect(instructions.innerText()).resolves.toContain('between the <head> and </head> tags of each page');
    await expect(instructions.innerText()).resolves.toContain('WordPress');
    await expect(instructions.innerText()).resolves.toContain('our team will contact you');
    expect(await status().getAttribute('data-installed')).toBe('false');
    await expect(status().innerText()).resolves.toContain('not been detected on localhost');
    // A web publisher has no newsletter section.
    expect(await page.getByTestId('newsletter-instructions').count()).toBe(0);
  });

  it('copies the line of code', async () => {
    const instructions = page.getByTestId('install-instructions');
    await instructions.getByRole('button', { name: 'Copy' }).click();
    await instructions.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(lineOfCode());
  });

  it('shows the French instructions: the line of code or the WordPress plug-in in 5 steps', async () => {
    await switchLanguage('Français');
    const instructions = page.getByTestId('install-instructions');
    await expect.poll(() => instructions.getAttribute('data-variant')).toBe('frenchTwoOptions');
    const text = await instructions.innerText();
    expect(text).toContain('Deux possibilités');
    expect(text).toContain('Option 1 : collez la ligne de code');
    expect(text).toContain('Option 2 : installez notre extension WordPress');
    expect(text).toContain('Extensions > Ajouter');
    expect(text).toContain('Téléverser une extension');
    expect(text).toContain('Installer maintenant');
    expect(text).toContain('Activer');
    expect(text).toContain("environ 48 heures après l'installation");
    expect(await instructions.getByRole('listitem').count()).toBe(5);
    expect(await instructions.getByRole('button', { name: 'Copier' }).count()).toBe(1);
    // The plug-in download carries this publisher's line of code.
    const download = instructions.getByRole('link', { name: "Téléchargez l'extension Helium Ads." });
    const href = await download.getAttribute('href');
    const answer = await page.evaluate(async (url) => {
      const response = await fetch(url ?? '');
      return { status: response.status, type: response.headers.get('content-type') };
    }, href);
    expect(answer).toEqual({ status: 200, type: 'application/zip' });
  });

  it('shows the installed state once the script ran on the registered domain (localhost)', async () => {
    const site = await startPublisherSite(lineOfCode());
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const sitePage = await visitor.newPage();
    const decision = sitePage.waitForResponse((response) => response.url().includes('/serve/d?'));
    await sitePage.goto(`${site.url}/top.html`);
    expect((await decision).status()).toBe(200);
    await visitor.close();
    await site.close();

    await openInstallation();
    await status().waitFor({ state: 'visible', timeout: CHECK_SECONDS * 1000 + 5000 });
    expect(await status().getAttribute('data-installed')).toBe('true');
    await expect(status().innerText()).resolves.toContain('est installé sur localhost');
  });

  it('shows the instructions when the time is up although check-install has not answered, then its result', async () => {
    let release = () => {};
    const answer = new Promise<void>((resolve) => (release = resolve));
    let checkCalls = 0;
    await page.route('**/api/publisher/check-install', async (route) => {
      checkCalls += 1;
      await answer;
      await route.continue().catch(() => {});
    });
    try {
      await openInstallation();
      // The highest value the bar shows before the instructions replace it.
      await page.evaluate(() => {
        const seen = window as unknown as { maxInstallPct: number };
        seen.maxInstallPct = 0;
        new MutationObserver((records) => {
          for (const record of records) {
            const value = Number((record.target as Element).getAttribute('aria-valuenow'));
            if (value > seen.maxInstallPct) seen.maxInstallPct = value;
          }
        }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] });
      });
      const maxPct = () => page.evaluate(() => (window as unknown as { maxInstallPct: number }).maxInstallPct);
      await expect.poll(maxPct, { timeout: CHECK_SECONDS * 1000 + 3000 }).toBe(100);

      const instructions = page.getByTestId('install-instructions');
      await instructions.waitFor({ state: 'visible', timeout: 3000 });
      expect(await progress().count()).toBe(0);
      expect(checkCalls).toBe(1);
      // check-install has still not answered: no result yet.
      expect(await status().count()).toBe(0);

      release();
      await status().waitFor({ state: 'visible' });
      expect(await status().getAttribute('data-installed')).toBe('true');
    } finally {
      release();
      await page.unroute('**/api/publisher/check-install');
    }
  });

  it('shows the loading spinner only once the installation data has taken 1 s to come', async () => {
    let release = () => {};
    const answer = new Promise<void>((resolve) => (release = resolve));
    let requestedAt = 0;
    await page.route('**/api/publisher/get-installation-data', async (route) => {
      requestedAt = Date.now();
      await answer;
      await route.continue().catch(() => {});
    });
    try {
      await page.goto('/publisher/installation');
      await expect.poll(() => requestedAt).toBeGreaterThan(0);
      const spinner = page.getByLabel('Chargement…', { exact: true });
      expect(await spinner.count()).toBe(0);
      await page.waitForTimeout(Math.max(0, requestedAt + 600 - Date.now()));
      expect(await spinner.count()).toBe(0);

      await spinner.waitFor({ state: 'visible', timeout: 3000 });
      expect(Date.now() - requestedAt).toBeGreaterThanOrEqual(800);

      release();
      await progress().waitFor({ state: 'visible' });
      expect(await spinner.count()).toBe(0);
    } finally {
      release();
      await page.unroute('**/api/publisher/get-installation-data');
    }
  });

  it("shows a newsletter's two banner codes and, in French, the tutorial link", async () => {
    await page.getByRole('button', { name: /Julien Martin/ }).click();
    await page.getByRole('menuitem', { name: /La Lettre Tech/ }).click();
    await expect
      .poll(() => page.getByRole('button', { name: /Julien Martin/ }).innerText())
      .toContain('La Lettre Tech');
    await openInstallation();
    const newsletter = page.getByTestId('newsletter-instructions');
    await newsletter.waitFor({ state: 'visible', timeout: CHECK_SECONDS * 1000 + 5000 });
    const codes = await newsletter.getByTestId('code-block').allInnerTexts();
    expect(codes).toHaveLength(2);
    expect(codes[0]).toMatch(new RegExp(`/serve/owl/\\w+/1/\\*\\|CAMPAIGN_UID\\|\\*/image`));
    expect(codes[1]).toMatch(new RegExp(`/serve/owl/\\w+/2/\\*\\|CAMPAIGN_UID\\|\\*/click`));
    await expect(newsletter.innerText()).resolves.toContain('Bannière du haut');
    // Each copy button says which code it copies, and copies it.
    await newsletter.getByRole('button', { name: 'Copier : Bannière du bas' }).waitFor();
    expect(await newsletter.getByRole('button', { name: 'Copier : Bannière du haut' }).count()).toBe(1);
    const tutorial = newsletter.getByRole('link', { name: /Voir le tutoriel \(3 min\)/ });
    expect(await tutorial.getAttribute('href')).toBe(`${product.url}/serve/newsletter-tutorial`);

    await switchLanguage('English');
    await expect.poll(() => newsletter.innerText()).toContain('Top banner');
    expect(await newsletter.getByRole('link').count()).toBe(0);
    expect(await newsletter.getByRole('button', { name: 'Copy: Top banner' }).count()).toBe(1);
  });
});
