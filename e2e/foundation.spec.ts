import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { codeFrom } from '../apps/api/test/smtp-catcher.ts';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { fieldError } from './support/forms.ts';
import { callFromPage } from './support/screens.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function heading(page: Page) {
  return page.getByRole('heading', { level: 1 }).innerText();
}

describe('sign-in and landing per role', () => {
  it.each([
    [
      'admin@demo.test',
      '/admin/stats',
      'Stats',
      [
        'Stats',
        'Activity by Advertiser',
        'Activity by Publisher',
        'Ad Validation',
        'Users',
        'Payments',
        'Payouts',
        'Audit log',
        'Accounts',
        'Network settings',
        'Invalid traffic',
        'Placements',
      ],
    ],
    [
      'publisher@demo.test',
      '/publisher/accounting',
      'Accounting',
      ['Accounting', 'Stats', 'Performance', 'Settings', 'Installation', 'Terms of use'],
    ],
    ['advertiser@demo.test', '/advertiser/activity', 'Activity', ['Activity', 'Ads', 'Settings']],
  ])('%s signs in through the form and lands on %s with its menu', async (email, path, title, menu) => {
    const page = await newPage(browser, product);
    await signInThroughForm(page, product, email);
    await page.waitForURL(`**${path}`);
    await expect.poll(() => heading(page)).toBe(title);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const links = await nav.getByRole('link').allInnerTexts();
    expect(links.map((text) => text.trim())).toEqual(menu);
    await page.context().close();
  });

  it('redirects a signed-out visitor to the sign-in form', async () => {
    const page = await newPage(browser, product);
    await page.goto('/advertiser/activity');
    await page.waitForURL('**/signin?next=%2Fadvertiser%2Factivity');
    await expect.poll(() => heading(page)).toBe('Connexion');
    await page.context().close();
  });

  it("comes back to a mail's link once signed in: Add credits opens on Activity", async () => {
    const page = await newPage(browser, product);
    await page.goto('/advertiser/activity?addCredits=1');
    await page.waitForURL('**/signin?next=*');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/advertiser/activity?addCredits=1');
    await page.getByLabel('Adresse e-mail').fill('advertiser@demo.test');
    const before = product.smtp.messages.length;
    await page.getByRole('button', { name: 'Continuer' }).click();
    const code = codeFrom(await product.smtp.waitForMail('advertiser@demo.test', before));
    await page.getByLabel('Code de connexion').fill(code);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('dialog', { name: 'Add credits' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/advertiser/activity');
    await page.context().close();
  });

  it('answers an unknown e-mail as a known one: step 2, no error, no mail (nothing tells it exists)', async () => {
    const page = await newPage(browser, product);
    await page.goto('/signin');
    await page.getByLabel('Adresse e-mail').fill('inconnu@demo.test');
    const before = product.smtp.messages.length;
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Code de connexion').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByLabel('Adresse e-mail').isDisabled()).toBe(true);
    expect(product.smtp.messages.slice(before).filter((mail) => mail.to.includes('inconnu'))).toEqual([]);
    await page.context().close();
  });

  it('refuses an address longer than 254 characters as it is typed, and one the server refuses, in French', async () => {
    const page = await newPage(browser, product);
    await page.goto('/signin');
    const email = page.getByLabel('Adresse e-mail');
    const long = `${'a'.repeat(250)}@demo.test`;
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/common/signin')) sent.push(request.url());
    });
    await email.fill(long);
    expect(await fieldError(email)).toBe("L'adresse e-mail ne doit pas dépasser 254 caractères.");
    // Kept whole, and the button says why it waits: nothing is cut or sent.
    expect(await email.inputValue()).toBe(long);
    expect(await page.getByRole('button', { name: 'Continuer' }).isDisabled()).toBe(true);
    // An address the browser takes but the server's rule refuses (no dot in its domain) gets words, not silence.
    await email.fill('someone@localhost');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe("Cette adresse e-mail n'est pas valide.");
    expect(sent).toHaveLength(1);
    expect(await email.isEditable()).toBe(true);
    await page.context().close();
  });

  it('shows the French error for a wrong code and returns to step 1', async () => {
    const page = await newPage(browser, product);
    await page.goto('/signin?email=publisher@demo.test');
    expect(await page.getByLabel('Adresse e-mail').inputValue()).toBe('publisher@demo.test');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Code de connexion').fill('000001');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Code incorrect');
    expect(await page.getByRole('button', { name: 'Continuer' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('goes back from step 2 to fix a mistyped address, and signs in with the right one', async () => {
    const page = await newPage(browser, product);
    await page.goto('/signin');
    const email = page.getByLabel('Adresse e-mail');
    await email.fill('advertiser@demo.tset');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Code de connexion').waitFor();
    expect(await email.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Utiliser une autre adresse e-mail' }).click();
    // Step 1 again: the field editable and focused, the code gone.
    await expect.poll(() => email.isEditable()).toBe(true);
    expect(await email.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.getByLabel('Code de connexion').count()).toBe(0);
    await email.fill('advertiser@demo.test');
    const before = product.smtp.messages.length;
    await page.getByRole('button', { name: 'Continuer' }).click();
    const code = codeFrom(await product.smtp.waitForMail('advertiser@demo.test', before));
    await page.getByLabel('Code de connexion').fill(code);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/advertiser\//);
    await page.context().close();
  });

  it('asks a user who has not agreed to tick the terms once the code is right, then signs in with it', async () => {
    const page = await newPage(browser, product);
    await page.goto('/signin');
    await page.getByLabel('Adresse e-mail').fill('multi@demo.test');
    const before = product.smtp.messages.length;
    await page.getByRole('button', { name: 'Continuer' }).click();
    const mail = await product.smtp.waitForMail('multi@demo.test', before);
    const code = /(\d{6})/.exec(mail.subject)?.[1] ?? '';
    const terms = page.getByRole('checkbox', { name: "J'accepte les conditions d'utilisation" });
    // Step 1 does not tell whether this user has agreed: the terms are asked for after the right code.
    await page.getByLabel('Code de connexion').fill(code);
    expect(await terms.count()).toBe(0);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await terms.waitFor();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Veuillez accepter les conditions');
    expect(await page.getByRole('button', { name: 'Se connecter' }).isDisabled()).toBe(true);
    // The right code stays in its field: ticking the terms is all that is left to do.
    expect(await page.getByLabel('Code de connexion').inputValue()).toBe(code);
    await terms.check();
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL('**/publisher/accounting');
    await page.context().close();
  });
});

// These run in file order: multi@demo.test agreed to the terms in the sign-in block above.
describe('the shell of a signed-in user', () => {
  it('switches to French and back, with French menu labels', async () => {
    const page = await signedInPage(browser, product, 'advertiser@demo.test');
    await page.waitForURL('**/advertiser/activity');
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await expect.poll(() => nav.getByRole('link').allInnerTexts()).toEqual(['Activité', 'Annonces', 'Paramètres']);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Activité');
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link').allInnerTexts())
      .toEqual(['Activity', 'Ads', 'Settings']);
    await page.context().close();
  });

  it('switches currency without reloading', async () => {
    const page = await signedInPage(browser, product, 'advertiser@demo.test');
    await page.waitForURL('**/advertiser/activity');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await page.getByRole('menuitem', { name: 'Bitcoin' }).click();
    await page.getByRole('button', { name: /Sophie Laurent/ }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Bitcoin' }).getAttribute('aria-current')).toBe('true');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await page.getByRole('menuitem', { name: 'Euro' }).click();
    await page.context().close();
  });

  it('switches account for a user holding several, then lands on the other role', async () => {
    const page = await signedInPage(browser, product, 'multi@demo.test');
    await page.waitForURL('**/publisher/accounting');
    await page.getByRole('button', { name: /Marc Lefèvre/ }).click();
    expect(await page.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Vélo Urbain (Annonceur)' }).click();
    await page.waitForURL('**/advertiser/activity');
    await expect.poll(() => heading(page)).toBe('Activité');
    await page.getByRole('button', { name: /Marc Lefèvre/ }).click();
    expect(await page.getByRole('menuitem', { name: 'Vélo Urbain (Annonceur)' }).getAttribute('aria-current')).toBe(
      'true',
    );
    await page.context().close();
  });

  it("follows a low-credit alert's link to Add credits on the campaign's own advertiser account", async () => {
    const page = await signedInPage(browser, product, 'multi@demo.test');
    await page.waitForURL(/\/(publisher|advertiser)\//);
    const user = (await callFromPage(page, '/api/common/user', {})) as { advertisers: { id: number; brand: string }[] };
    const atelier = user.advertisers.find((account) => account.brand === 'Atelier Céramique');
    // The other advertiser account is in use (the test above): the link's account is put in use first.
    await page.goto(`/advertiser/activity?addCredits=1&advertiser=${atelier!.id}`);
    await page.getByRole('dialog', { name: 'Ajouter des crédits' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /Marc Lefèvre/ }).click();
    expect(
      await page.getByRole('menuitem', { name: 'Atelier Céramique (Annonceur)' }).getAttribute('aria-current'),
    ).toBe('true');
    // A link naming an account the user does not hold changes nothing.
    await page.keyboard.press('Escape');
    await page.goto('/advertiser/activity?advertiser=999999');
    await page.getByRole('button', { name: /Marc Lefèvre/ }).click();
    expect(
      await page.getByRole('menuitem', { name: 'Atelier Céramique (Annonceur)' }).getAttribute('aria-current'),
    ).toBe('true');
    await page.context().close();
  });

  it('sends a user to home from a route of another type, and from an unknown path', async () => {
    const page = await signedInPage(browser, product, 'publisher@demo.test');
    await page.waitForURL('**/publisher/accounting');
    await page.goto('/admin/stats');
    await page.waitForURL('**/publisher/accounting');
    await page.goto('/no/such/page');
    await page.waitForURL('**/publisher/accounting');
    await page.context().close();
  });

  it('lets an admin reach the Admin entry of the switcher', async () => {
    const page = await signedInPage(browser, product, 'admin@demo.test');
    await page.waitForURL('**/admin/stats');
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    expect(await page.getByRole('menuitem', { name: 'Admin' }).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('signs out after the confirmation, and the session is gone', async () => {
    const page = await signedInPage(browser, product, 'publisher@demo.test');
    await page.waitForURL('**/publisher/accounting');
    const prompts: string[] = [];
    page.once('dialog', (dialog) => {
      prompts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: /Julien Martin/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect.poll(() => prompts).toEqual(['Sign out?']);
    expect(page.url()).toContain('/publisher/accounting');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: /Julien Martin/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin');
    await page.goto('/publisher/accounting');
    await page.waitForURL('**/signin?next=%2Fpublisher%2Faccounting');
    await page.context().close();
  });
});
