import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Admin: Users and the audit log (issue 24), as an admin does it: finds the demo advertiser by searching, clicks
 * "Sign In ->", and a new tab opens signed in as Sophie Laurent (the link works once); the audit log then shows the
 * sign-in-as with the admin's name; both screens in English and in French.
 */

let product: Product;
let browser: Browser;
let admin: Page;

async function signInAdmin(): Promise<Page> {
  const page = await signedInPage(browser, product, 'admin@demo.test');
  await page.waitForURL(/\/admin\//);
  return page;
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

  it('"Sign In ->" opens a new tab signed in as the user, with a link that works once', async () => {
    const link = admin.getByRole('link', { name: 'Sign in as Sophie Laurent (new tab)' });
    expect(await link.innerText()).toBe('Sign In ->');
    expect(await link.getAttribute('target')).toBe('_blank');
    const signinAs: string[] = [];
    admin.context().on('request', (request) => {
      if (request.url().includes('/signin-as/')) signinAs.push(request.url());
    });
    const [tab] = await Promise.all([admin.context().waitForEvent('page'), link.click()]);
    await tab.waitForURL(/\/advertiser\/activity$/);
    await tab.getByRole('button', { name: /Sophie Laurent/ }).waitFor();
    expect(signinAs).toHaveLength(1);

    // The same link again: refused, and the browser stays Sophie's.
    const again = await tab.goto(signinAs[0]!);
    expect(again?.status()).toBe(410);
    await tab.getByText('This sign-in link cannot be used').waitFor();
    await tab.close();
  });
});

describe('admin audit log', () => {
  it('shows the sign-in-as with the admin, filtered by action, then reads in French', async () => {
    // The first browser is now Sophie's: the admin signs in again.
    await admin.context().close();
    admin = await signInAdmin();
    await admin.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
    await admin.waitForURL(/\/admin\/audit$/);
    await admin.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await admin.getByTestId('audit-log').waitFor();

    await admin.getByLabel('Action', { exact: true }).first().click();
    await admin.getByRole('option', { name: 'user.signinAs' }).click();
    await expect.poll(() => admin.getByTestId('audit-log').locator('tbody tr').count()).toBe(1);
    const entry = admin.getByTestId('audit-log').locator('tbody tr').first();
    expect(await entry.innerText()).toContain('Claire Dubois');
    expect(await entry.innerText()).toContain('admin@demo.test');
    expect(await entry.innerText()).toMatch(/user #\d+/);

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

    await admin.getByRole('button', { name: /Claire Dubois/ }).click();
    await admin.getByRole('menuitem', { name: 'English' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  });
});
