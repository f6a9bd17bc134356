import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { DEMO_BLOG_ID, nextDecision, startPublisherSite } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';
import { signedInContext } from './support/sessions.ts';

/** A short check so the test does not wait the default 5 s each time the screen opens. */
const CHECK_SECONDS = 2;

let product: Product;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  product = await startProduct({ PUBLISHER_INSTALL_CHECK_SECONDS: String(CHECK_SECONDS) });
  browser = await launchBrowser();
  context = await signedInContext(browser, product, 'publisher@demo.test');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
  page = await context.newPage();
  await page.goto('/');
  await page.waitForURL('**/publisher/accounting');
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const progress = () => page.getByRole('progressbar', { name: /Installation check|Vérification de l'installation/ });
/** check-install's answer, as the browser received it. */
function checkInstallAnswer() {
  return page
    .waitForResponse((response) => response.url().endsWith('/api/publisher/check-install'))
    .then((response) => response.json() as Promise<{ isInstalled: boolean; domain: string | null }>);
}
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
    const answer = checkInstallAnswer();
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
    expect(await answer).toMatchObject({ isInstalled: false, domain: 'localhost' });
    // The check's answer is shown above the instructions (issue 36: e2e/installation-result.spec.ts).
    expect(await page.getByTestId('install-result').getAttribute('data-result')).toBe('notFound');
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
    expect(text).toContain('Option 1\u202f: collez la ligne de code');
    expect(text).toContain('Option 2\u202f: installez notre extension WordPress');
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
    // The file the instructions name is the one the link downloads (issue 26).
    const named = /\(([\w.-]+\.zip)\)/.exec(text)?.[1];
    expect(named).toBe('helium-ads.zip');
    expect(href).toBe(`/api/publisher/${named}`);
    expect(await download.getAttribute('download')).toBe(named);
  });

  it('checks the installation as installed once the script ran on the registered domain (localhost)', async () => {
    const site = await startPublisherSite(lineOfCode());
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const sitePage = await visitor.newPage();
    const decision = nextDecision(sitePage);
    await sitePage.goto(`${site.url}/top.html`);
    expect((await decision).status()).toBe(200);
    await visitor.close();
    await site.close();

    const answer = checkInstallAnswer();
    await openInstallation();
    expect(await answer).toMatchObject({ isInstalled: true, domain: 'localhost' });
    await page.getByTestId('install-instructions').waitFor({ state: 'visible', timeout: CHECK_SECONDS * 1000 + 5000 });
  });

  /** Holds check-install's answer until the returned function is called; counts the calls. */
  async function holdCheckInstall() {
    let release = () => {};
    const answer = new Promise<void>((resolve) => (release = resolve));
    const calls = { count: 0 };
    await page.route('**/api/publisher/check-install', async (route) => {
      calls.count += 1;
      await answer;
      await route.continue().catch(() => {});
    });
    return { calls, release };
  }

  /** In the page's clock: when the bar first showed, reached 100, and when the instructions appeared. */
  async function watchCheckPhase() {
    await page.evaluate(() => {
      const seen = window as unknown as { phase: { start: number; full: number; instructions: number } };
      seen.phase = { start: performance.now(), full: 0, instructions: 0 };
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]');
        if (!seen.phase.full && bar?.getAttribute('aria-valuenow') === '100') seen.phase.full = performance.now();
        if (!seen.phase.instructions && document.querySelector('[data-testid="install-instructions"]'))
          seen.phase.instructions = performance.now();
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    return () =>
      page.evaluate(
        () => (window as unknown as { phase: { start: number; full: number; instructions: number } }).phase,
      );
  }

  it('keeps the full bar until check-install answers, then shows the instructions', async () => {
    const held = await holdCheckInstall();
    try {
      await openInstallation();
      const phase = await watchCheckPhase();
      await expect.poll(async () => (await phase()).full, { timeout: CHECK_SECONDS * 1000 + 3000 }).toBeGreaterThan(0);
      // The time is up, check-install has not answered: the bar stays, full, for up to the time again.
      await page.waitForTimeout(300);
      expect(await page.getByTestId('install-instructions').count()).toBe(0);
      expect(await progress().getAttribute('aria-valuenow')).toBe('100');
      const releasedAt = await page.evaluate(() => performance.now());
      held.release();
      await page.getByTestId('install-instructions').waitFor({ state: 'visible', timeout: 3000 });
      expect((await phase()).instructions).toBeGreaterThanOrEqual(releasedAt);
      expect(await progress().count()).toBe(0);
      expect(held.calls.count).toBe(1);
    } finally {
      held.release();
      await page.unroute('**/api/publisher/check-install');
    }
  });

  it('shows the instructions anyway when check-install has not answered once the time has run twice over', async () => {
    const held = await holdCheckInstall();
    try {
      await openInstallation();
      const phase = await watchCheckPhase();
      await page
        .getByTestId('install-instructions')
        .waitFor({ state: 'visible', timeout: 2 * CHECK_SECONDS * 1000 + 5000 });
      const { start, instructions } = await phase();
      // Measured from when this test started watching, a little after the bar appeared.
      expect(instructions - start).toBeGreaterThan(2 * CHECK_SECONDS * 1000 - 1000);
      expect(held.calls.count).toBe(1);
    } finally {
      held.release();
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
    await newsletter.getByRole('button', { name: 'Copier\u202f: Bannière du bas' }).waitFor();
    expect(await newsletter.getByRole('button', { name: 'Copier\u202f: Bannière du haut' }).count()).toBe(1);
    const tutorial = newsletter.getByRole('link', { name: /Voir le tutoriel \(3 min\)/ });
    expect(await tutorial.getAttribute('href')).toBe(`${product.url}/serve/newsletter-tutorial`);

    await switchLanguage('English');
    await expect.poll(() => newsletter.innerText()).toContain('Top banner');
    expect(await newsletter.getByRole('link').count()).toBe(0);
    expect(await newsletter.getByRole('button', { name: 'Copy: Top banner' }).count()).toBe(1);
  });
});
