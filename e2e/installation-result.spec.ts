import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInThroughForm } from './support/browser.ts';
import { DEMO_BLOG_ID, nextDecision, startPublisherSite } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * The installation check shows what it found (issue 36, point 9): on a fresh product the demo blog's script has
 * never run, so the check says it is not found on localhost and what to check; once a page with the line has been
 * visited, "Check again" says it is installed there and when it was last seen, in English and in French.
 */

const CHECK_SECONDS = 1;

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct({ PUBLISHER_INSTALL_CHECK_SECONDS: String(CHECK_SECONDS) });
  browser = await launchBrowser();
  const context = await browser.newContext({ baseURL: product.url, locale: 'en-US' });
  page = await context.newPage();
  await signInThroughForm(page, product, 'publisher@demo.test');
  await page.waitForURL('**/publisher/accounting');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const result = () => page.getByTestId('install-result');
/** An element's text with its spaces plain (French puts a narrow no-break space before a colon). */
const plain = (text: string) => text.replace(/[\s\u202f]+/g, ' ').trim();
const textOf = async () => plain(await result().innerText());

async function switchLanguage(name: 'Français' | 'English') {
  await page.getByRole('button', { name: /Julien Martin/ }).click();
  await page.getByRole('menuitem', { name }).click();
}

async function waitForResult() {
  await result().waitFor({ state: 'visible', timeout: CHECK_SECONDS * 1000 + 10_000 });
}

describe('the installation check shows its result', () => {
  it('not found on a fresh publisher: the domain and what to check, in English', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Installation' }).click();
    await page.waitForURL('**/publisher/installation');
    await waitForResult();
    expect(await result().getAttribute('data-result')).toBe('notFound');
    const text = await textOf();
    expect(text).toContain('The script has not been found on localhost yet');
    expect(text).toContain('What to check:');
    const items = (await result().getByRole('listitem').allInnerTexts()).map(plain);
    expect(items).toEqual([
      'The line of code below is pasted, unchanged, between the <head> and </head> tags of your pages.',
      `The line carries your publisher id: data-publisher="${DEMO_BLOG_ID}".`,
      'The pages are on localhost or one of its subdomains: the script counts nothing on another site.',
      'A page with the line has been visited since you pasted it: the check sees pages opened in a browser, not pages published.',
      'An ad blocker can stop the script: open your page with it turned off.',
    ]);
    // The instructions follow, with the line the list speaks of.
    expect(await page.getByTestId('install-instructions').getByTestId('code-block').innerText()).toContain(
      `data-publisher="${DEMO_BLOG_ID}"`,
    );
  });

  it('not found, in French', async () => {
    await switchLanguage('Français');
    await expect.poll(textOf).toContain("Le script n'a pas encore été détecté sur localhost");
    const text = await textOf();
    expect(text).toContain('À vérifier :');
    expect(text).toContain('entre les balises <head> et </head> de vos pages');
    expect(text).toContain(`La ligne porte votre identifiant d'éditeur : data-publisher="${DEMO_BLOG_ID}".`);
    expect(text).toContain("a été visitée depuis que vous l'avez collée");
    expect(text).toContain('Un bloqueur de publicités peut arrêter le script');
    await switchLanguage('English');
    await expect.poll(textOf).toContain('The script has not been found on localhost yet');
  });

  it('installed once a page with the line was visited: where and when it was last seen, in English and French', async () => {
    const line = await page.getByTestId('install-instructions').getByTestId('code-block').innerText();
    const site = await startPublisherSite(line);
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const sitePage = await visitor.newPage();
      const decision = nextDecision(sitePage);
      await sitePage.goto(`${site.url}/top.html`);
      expect((await decision).status()).toBe(200);
    } finally {
      await visitor.close();
      await site.close();
    }

    await result().getByRole('button', { name: 'Check again' }).click();
    await page.getByRole('progressbar', { name: 'Installation check' }).waitFor();
    await expect.poll(() => result().getAttribute('data-result'), { timeout: 15_000 }).toBe('found');
    const english = await textOf();
    expect(english).toContain('The script is installed on localhost');
    expect(english).toMatch(/Last seen: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC\./);

    await switchLanguage('Français');
    await expect.poll(textOf).toContain('Le script est installé sur localhost');
    expect(await textOf()).toMatch(/Vu pour la dernière fois : \d{1,2} [a-zéû.]+ \d{4}(,| à) \d{2}:\d{2} UTC\./);
    await switchLanguage('English');
  });
});
