import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acceptDialogs, launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Personal API tokens (issue 35, point 3), as people use them: the demo advertiser creates a token on Settings (in
 * English), copies it, reads its campaign's stats with it from a script (Node's fetch, as curl would), is refused a
 * change, revokes it on screen, and the same request then answers 401. The same in French for Marc Lefèvre's
 * publisher account, and the admin's page from the user menu; a 390 px phone.
 */

let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** A call as a person's own tool makes it: no cookie, no anti-forgery token, the token in Authorization. */
function callWithToken(token: string, path: string, body: unknown = {}): Promise<Response> {
  return fetch(`${product.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function signedInPage(email: string, home: string, options: { agree?: boolean } = {}) {
  const page = await newPage(browser, product);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
  const dialogs = acceptDialogs(page);
  await signInThroughForm(page, product, email);
  if (options.agree) {
    // Asked once the code is known to be right, of a user who has not agreed to the terms yet.
    await page.getByRole('checkbox', { name: "J'accepte les conditions d'utilisation" }).check();
    await page.getByRole('button', { name: 'Se connecter' }).click();
  }
  await page.waitForURL(`**${home}`);
  return { page, dialogs };
}

/** Creates a token named `name` through the form (by keyboard: typed, then Enter), and reads the one-time value. */
async function createThroughForm(page: Page, name: string): Promise<string> {
  const field = page.getByTestId('api-token-name');
  await field.fill(name);
  await field.press('Enter');
  const value = page.getByTestId('api-token-value');
  await value.waitFor();
  return (await value.innerText()).trim();
}

describe('API tokens on the advertiser’s Settings, in English', () => {
  let page: Page;
  let dialogs: string[];

  beforeAll(async () => {
    ({ page, dialogs } = await signedInPage('advertiser@demo.test', '/advertiser/activity'));
    await page.goto('/advertiser/settings');
    await page.getByRole('heading', { level: 2, name: 'API tokens' }).waitFor();
  }, 60_000);

  it('creates a token shown once, reads the campaign stats with it, revokes it on screen, then gets 401', async () => {
    await page.getByTestId('api-tokens-empty').waitFor();
    expect(await page.getByTestId('api-tokens-empty').innerText()).toBe('No tokens yet.');

    // An empty name is refused beside the field, nothing sent.
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Give the token a name.').waitFor();
    expect(await page.getByTestId('api-token-name').getAttribute('aria-invalid')).toBe('true');

    const token = await createThroughForm(page, 'Weekly sheet');
    expect(token).toMatch(/^hat_[A-Za-z0-9_-]{43}$/);
    const shown = page.getByTestId('api-token-new');
    expect(await shown.innerText()).toContain('Your new token “Weekly sheet”');
    expect(await shown.innerText()).toContain('it will not be shown again');
    await page.getByRole('button', { name: 'Copy the token' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // A script reads the first campaign's stats, as the session's screen does; a change is refused.
    const stats = await callWithToken(token, '/api/advertiser/get-campaignex');
    expect(stats.status).toBe(200);
    const campaign = (await stats.json()) as { id: number };
    expect(campaign.id).toBeGreaterThan(0);
    const ads = await callWithToken(token, '/api/advertiser/get-ads');
    expect(ads.status).toBe(200);
    const change = await callWithToken(token, '/api/advertiser/update-campaign-pause', {
      campaignId: campaign.id,
      pauseDailyImpressions: 1000,
    });
    expect(change.status).toBe(403);
    expect(((await change.json()) as { message: string }).message).toContain('read-only');

    // Hidden once copied, and never shown again: the list has its name and dates only.
    await page.getByRole('button', { name: 'Hide the token' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    const row = page.getByTestId('api-tokens-table').getByRole('row', { name: /Weekly sheet/ });
    await row.waitFor();
    expect(await page.content()).not.toContain(token);
    const cells = (await row.getByRole('cell').allInnerTexts()).map((cell) => cell.trim());
    // Name, created, last used (the script's call), the Revoke button; dates as the app formats them.
    expect(cells[0]).toBe('Weekly sheet');
    // The account it reads: the one in use when it was made.
    expect(cells[1]).toBe('Nordvik Outdoor');
    expect(cells[2]).toMatch(/\d{4}/);
    expect(cells[3]).toMatch(/\d{4}/);

    await page.getByRole('button', { name: 'Revoke the token Weekly sheet' }).click();
    await page.getByTestId('api-tokens-empty').waitFor();
    expect(dialogs.at(-1)).toBe('Revoke the token “Weekly sheet”? The tools using it will stop working at once.');

    const refused = await callWithToken(token, '/api/advertiser/get-campaignex', { campaignId: campaign.id });
    expect(refused.status).toBe(401);
  });

  it('fits a 390 px wide phone: the form and the table in view, the page never scrolling sideways', async () => {
    const phone = await page.context().newPage();
    try {
      acceptDialogs(phone);
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto('/advertiser/settings');
      await createThroughForm(phone, 'Phone dashboard');
      await phone.getByRole('button', { name: 'Hide the token' }).click();
      await phone.getByTestId('api-tokens-table').waitFor();
      for (const target of [
        phone.getByTestId('api-token-name'),
        phone.getByRole('button', { name: 'Create token' }),
        phone.getByRole('button', { name: 'Revoke the token Phone dashboard' }),
      ]) {
        await target.scrollIntoViewIfNeeded();
        const box = await target.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      }
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.getByRole('button', { name: 'Revoke the token Phone dashboard' }).click();
      await phone.getByTestId('api-tokens-empty').waitFor();
    } finally {
      await phone.close();
    }
  });
});

describe('Jetons d’API sur les Paramètres de l’éditeur, en français', () => {
  it('crée un jeton, lit les statistiques avec, le révoque à l’écran, puis reçoit 401', async () => {
    // Marc Lefèvre works in French, on his publisher account.
    const { page, dialogs } = await signedInPage('multi@demo.test', '/publisher/accounting', { agree: true });
    await page.goto('/publisher/settings');
    await page.getByRole('heading', { level: 2, name: "Jetons d'API" }).waitFor();
    await page.getByTestId('api-tokens-empty').waitFor();
    expect(await page.getByTestId('api-tokens-empty').innerText()).toBe("Aucun jeton pour l'instant.");

    await page.getByRole('button', { name: 'Créer un jeton' }).click();
    await page.getByText('Donnez un nom au jeton.').waitFor();

    const token = await createThroughForm(page, 'Tableur');
    expect(await page.getByTestId('api-token-new').innerText()).toContain('il ne sera plus affiché');

    const stats = await callWithToken(token, '/api/publisher/get-stats');
    expect(stats.status).toBe(200);
    expect((await callWithToken(token, '/api/publisher/get-accounting')).status).toBe(200);

    await page.getByRole('button', { name: 'Masquer le jeton' }).click();
    const row = page.getByTestId('api-tokens-table').getByRole('row', { name: /Tableur/ });
    await row.waitFor();
    await page.getByRole('button', { name: 'Révoquer le jeton Tableur' }).click();
    await page.getByTestId('api-tokens-empty').waitFor();
    expect(dialogs.at(-1)).toContain('Révoquer le jeton «\u202fTableur\u202f»');

    expect((await callWithToken(token, '/api/publisher/get-stats')).status).toBe(401);
    await page.close();
  });
});

describe('the admin’s API tokens, from the user menu', () => {
  it('opens the page from the menu, creates a token that reads the admin stats, and revokes it', async () => {
    const { page } = await signedInPage('admin@demo.test', '/admin/stats');
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'API tokens' }).click();
    await page.waitForURL('**/admin/api-tokens');
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();

    const token = await createThroughForm(page, 'Board report');
    expect((await callWithToken(token, '/api/admin/get-stats')).status).toBe(200);
    expect((await callWithToken(token, '/api/admin/get-activity', { sortBy: 'advertiser' })).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke the token Board report' }).click();
    await page.getByTestId('api-tokens-empty').waitFor();
    expect((await callWithToken(token, '/api/admin/get-stats')).status).toBe(401);
    await page.close();
  });
});
