import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Admin: Users and the audit log (issue 24), as an admin does it: finds the demo advertiser by searching, clicks
 * "Sign In ->", and a new tab opens acting as Sophie Laurent (the link works once); every screen and tab says so,
 * and "Back to my account" returns to Users without a code (issue 36); the audit log then shows entering and
 * leaving with the admin's name; both screens in English and in French, and acting as Léa Moreau in French.
 */

let product: Product;
let browser: Browser;
let admin: Page;

async function signInAdmin(): Promise<Page> {
  const page = await signedInPage(browser, product, 'admin@demo.test');
  await page.waitForURL(/\/admin\//);
  return page;
}

/** The "Acting as" bar of a page: a region named by its text, which is also its status, with the way back. */
async function expectActingBar(page: Page, text: string, back = 'Back to my account') {
  const region = page.getByRole('region', { name: text });
  await region.waitFor();
  expect(await region.getByRole('status').innerText()).toBe(text);
  await region.getByRole('button', { name: back }).waitFor();
}

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  admin = await signInAdmin();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('admin Users', () => {
  it('searches a user by e-mail and by name, and shows the badges held', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
    await admin.waitForURL(/\/admin\/users$/);
    await admin.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await admin.getByTestId('admin-users').waitFor();
    expect(await admin.getByTestId('admin-users-total').innerText()).toMatch(/^Users found: \d+$/);

    await admin.getByLabel('Search').fill('ADVERTISER@demo');
    await expect.poll(() => admin.getByTestId('admin-users-total').innerText()).toBe('Users found: 1');
    const row = admin.getByTestId(/^admin-user-\d+$/);
    expect(await row.count()).toBe(1);
    expect(await row.innerText()).toContain('Sophie Laurent');
    expect(await row.locator('[data-held]').filter({ hasText: 'Advertiser' }).getAttribute('data-held')).toBe('true');
    expect(await row.locator('[data-held]').filter({ hasText: 'Publisher' }).getAttribute('data-held')).toBe('false');

    await admin.getByLabel('Search').fill('nobody-at-all');
    await admin.getByTestId('admin-users-empty').waitFor();
    await admin.getByLabel('Search').fill('sophie');
    await expect.poll(() => admin.getByTestId('admin-users-total').innerText()).toBe('Users found: 1');
  });

  it('"Sign In ->" acts as the user in every tab, says so on every screen, and goes back without a code', async () => {
    const link = admin.getByRole('link', { name: 'Sign in as Sophie Laurent (new tab)' });
    expect(await link.innerText()).toBe('Sign In ->');
    expect(await link.getAttribute('target')).toBe('_blank');
    const signinAs: string[] = [];
    admin.context().on('request', (request) => {
      if (request.url().includes('/signin-as/')) signinAs.push(request.url());
    });
    const mailsBefore = product.smtp.messages.length;
    const [tab] = await Promise.all([admin.context().waitForEvent('page'), link.click()]);
    await tab.waitForURL(/\/advertiser\/activity$/);
    await tab.getByRole('button', { name: /Sophie Laurent/ }).waitFor();
    expect(signinAs).toHaveLength(1);
    await expectActingBar(tab, 'Acting as Sophie Laurent (advertiser@demo.test)');

    // A second screen, a second tab opened on the product, and the admin's own tab: each says who it acts as.
    await tab.getByRole('navigation').getByRole('link', { name: 'Ads' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Ads' }).waitFor();
    await expectActingBar(tab, 'Acting as Sophie Laurent (advertiser@demo.test)');
    const second = await admin.context().newPage();
    await second.goto('/');
    await second.waitForURL(/\/advertiser\/activity$/);
    await expectActingBar(second, 'Acting as Sophie Laurent (advertiser@demo.test)');
    await expectActingBar(admin, 'Acting as Sophie Laurent (advertiser@demo.test)');

    // The same link again: refused, and the browser stays Sophie's.
    const again = await second.goto(signinAs[0]!);
    expect(again?.status()).toBe(410);
    await second.getByText('This sign-in link cannot be used').waitFor();
    await second.close();

    // At 390 px the bar is whole, above the page's heading, and nothing is wider than the screen.
    await tab.setViewportSize({ width: 390, height: 800 });
    await tab.getByRole('button', { name: 'Toggle navigation' }).waitFor();
    const layout = () =>
      tab.evaluate(() => {
        const bar = document.querySelector('[data-testid="acting-as-bar"]')!.getBoundingClientRect();
        const heading = document.querySelector('h1')!.getBoundingClientRect();
        return {
          barInside: bar.left >= 0 && bar.right <= 390,
          barAboveHeading: bar.bottom <= heading.top,
          pageWidth: document.documentElement.scrollWidth,
        };
      });
    // Polled: the shell settles into its phone layout after the resize.
    await expect.poll(layout).toEqual({ barInside: true, barAboveHeading: true, pageWidth: 390 });

    // "Back to my account", from the keyboard: the admin's Users at once, without a new code, in every tab.
    await tab.getByRole('button', { name: 'Back to my account' }).focus();
    await tab.keyboard.press('Enter');
    await tab.waitForURL(/\/admin\/users$/);
    await tab.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await tab.getByRole('button', { name: /Claire Dubois/ }).waitFor();
    expect(await tab.getByTestId('acting-as-bar').count()).toBe(0);
    await admin.waitForURL(/\/admin\//);
    await admin.getByRole('button', { name: /Claire Dubois/ }).waitFor();
    expect(await admin.getByTestId('acting-as-bar').count()).toBe(0);
    expect(product.smtp.messages.length).toBe(mailsBefore);
    await tab.close();
  });
});

describe('admin audit log', () => {
  it('shows the sign-in-as and its end with the admin, filtered by action, then reads in French', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
    await admin.waitForURL(/\/admin\/audit$/);
    await admin.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await admin.getByTestId('audit-log').waitFor();

    await admin.getByLabel('Action', { exact: true }).first().click();
    await admin.getByRole('option', { name: 'user.signinAs', exact: true }).click();
    await expect.poll(() => admin.getByTestId('audit-log').locator('tbody tr').count()).toBe(1);
    const entry = admin.getByTestId('audit-log').locator('tbody tr').first();
    expect(await entry.innerText()).toContain('Claire Dubois');
    expect(await entry.innerText()).toContain('admin@demo.test');
    expect(await entry.innerText()).toMatch(/user #\d+/);

    // Leaving is there too, with why.
    await admin.getByLabel('Action', { exact: true }).first().click();
    await admin.getByRole('option', { name: 'user.signinAsEnded' }).click();
    const rows = admin.getByTestId('audit-log').locator('tbody tr');
    await expect.poll(() => rows.first().innerText()).toContain('user.signinAsEnded');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('Claire Dubois');
    expect(await rows.first().innerText()).toMatch(/reason: back/);
    await admin.getByLabel('Action', { exact: true }).first().click();
    await admin.getByRole('option', { name: 'user.signinAs', exact: true }).click();
    await expect.poll(() => rows.first().innerText()).not.toContain('user.signinAsEnded');
    expect(await rows.count()).toBe(1);

    // By user: Sophie Laurent, searched by name, keeps the entry (she was signed in as).
    await admin.getByLabel('User', { exact: true }).first().fill('sophie');
    await admin.getByRole('option', { name: /Sophie Laurent/ }).click();
    await expect.poll(() => admin.getByTestId('audit-log').locator('tbody tr').count()).toBe(1);

    await admin.getByRole('button', { name: /Claire Dubois/ }).click();
    await admin.getByRole('menuitem', { name: 'Français' }).click();
    await admin.getByRole('heading', { level: 1, name: "Journal d'audit" }).waitFor();
    await admin.getByRole('columnheader', { name: 'Qui' }).waitFor();

    await admin.getByRole('navigation').getByRole('link', { name: 'Utilisateurs' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Utilisateurs' }).waitFor();
    await admin.getByLabel('Rechercher').fill('julien');
    const row = admin.getByTestId(/^admin-user-\d+$/).filter({ hasText: 'Julien Martin' });
    await row.waitFor();
    expect(await row.locator('[data-held]').filter({ hasText: 'Éditeur' }).getAttribute('data-held')).toBe('true');
    expect(
      await row.getByRole('link', { name: 'Se connecter en tant que Julien Martin (nouvel onglet)' }).innerText(),
    ).toBe('Se connecter ->');
  });

  it('acts as a French advertiser in French, on every screen and tab, and goes back to Utilisateurs', async () => {
    await admin.getByLabel('Rechercher').fill('moreau');
    const link = admin.getByRole('link', { name: 'Se connecter en tant que Léa Moreau (nouvel onglet)' });
    const mailsBefore = product.smtp.messages.length;
    const [tab] = await Promise.all([admin.context().waitForEvent('page'), link.click()]);
    await tab.waitForURL(/\/advertiser\/activity$/);
    const text = 'Vous agissez en tant que Léa Moreau (trial@demo.test)';
    await expectActingBar(tab, text, 'Revenir à mon compte');
    await tab.getByRole('navigation').getByRole('link', { name: 'Annonces' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Annonces' }).waitFor();
    await expectActingBar(tab, text, 'Revenir à mon compte');
    const second = await admin.context().newPage();
    await second.goto('/');
    await second.waitForURL(/\/advertiser\/activity$/);
    await expectActingBar(second, text, 'Revenir à mon compte');
    await expectActingBar(admin, text, 'Revenir à mon compte');

    await second.getByRole('button', { name: 'Revenir à mon compte' }).click();
    await second.waitForURL(/\/admin\/users$/);
    await second.getByRole('heading', { level: 1, name: 'Utilisateurs' }).waitFor();
    expect(await second.getByTestId('acting-as-bar').count()).toBe(0);
    for (const page of [tab, admin]) {
      // The other tabs follow by themselves; a slow one may begin one navigation, then another (the first is then
      // aborted): the address is polled, not one navigation awaited.
      await expect.poll(() => page.url()).toMatch(/\/admin\//);
      await page.getByRole('button', { name: /Claire Dubois/ }).waitFor();
      expect(await page.getByTestId('acting-as-bar').count()).toBe(0);
    }
    expect(product.smtp.messages.length).toBe(mailsBefore);
    await tab.close();
    await admin.close();
    admin = second;

    await admin.getByRole('button', { name: /Claire Dubois/ }).click();
    await admin.getByRole('menuitem', { name: 'English' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  });
});

// After the audit log's checks, which count the sign-ins as a user.
describe("the acting bar in the admin's language", () => {
  it("speaks the admin's language in the bar while the screen speaks the user's (English admin, French user)", async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await admin.getByLabel('Search').fill('moreau');
    const link = admin.getByRole('link', { name: 'Sign in as Léa Moreau (new tab)' });
    const [tab] = await Promise.all([admin.context().waitForEvent('page'), link.click()]);
    await tab.waitForURL(/\/advertiser\/activity$/);
    await tab.getByRole('heading', { level: 1, name: 'Activité' }).waitFor();
    await expectActingBar(tab, 'Acting as Léa Moreau (trial@demo.test)');
    expect(await tab.getByTestId('acting-as-bar').getAttribute('lang')).toBe('en');
    await tab.getByRole('button', { name: 'Back to my account' }).click();
    await tab.waitForURL(/\/admin\/users$/);
    await tab.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await admin.waitForURL(/\/admin\//);
    await admin.getByRole('button', { name: /Claire Dubois/ }).waitFor();
    await tab.close();
  });
});
