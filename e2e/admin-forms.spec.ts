import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { fieldError } from './support/forms.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Forms that explain (issue 36, points 2 and 8), as a careful admin tries them: bad values in each admin form are
 * refused beside their field (marked aria-invalid, the message named by aria-describedby), in English and in French,
 * before anything is sent, and nothing is created; nothing is brought into range or cut. A refusal only the server
 * can make (an unknown e-mail) lands beside its field too. A billing address over its length is refused as it is
 * typed, and a long one that fits wraps instead of widening the page.
 */

let product: Product;
let browser: Browser;
let admin: Page;
/** The admin's calls that change something, by path: a refusal in the browser sends none. */
const sent: string[] = [];

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  admin = await newPage(browser, product);
  admin.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/admin\/(create|update|grant)-/.test(request.url())) {
      sent.push(new URL(request.url()).pathname);
    }
  });
  await signInThroughForm(admin, product, 'admin@demo.test');
  await admin.waitForURL(/\/admin\//);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const isValid = async (field: Locator) => (await field.getAttribute('aria-invalid')) !== 'true';

/** Opens Payments from the menu and waits for its tables, then for the coupon form (shown once they are in). */
async function toPayments(linkName: 'Payments' | 'Paiements') {
  await admin.getByRole('navigation').getByRole('link', { name: linkName }).click();
  for (const table of ['admin-sales', 'outstanding', 'coupons']) await admin.getByTestId(table).waitFor();
  const formName = linkName === 'Payments' ? 'New coupon' : 'Nouveau code promo';
  await admin.getByRole('form', { name: formName }).waitFor();
}

async function toLanguage(page: Page, name: 'Français' | 'English') {
  await page.getByRole('button', { name: /Claire Dubois/ }).click();
  await page.getByRole('menuitem', { name }).click();
}

describe('create an account (Accounts), in English', () => {
  it('refuses an empty, zero or negative price and negative or fractional trial credits, sending nothing', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Accounts' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    const form = admin.getByRole('region', { name: 'Create an account' });
    await form.getByText('Advertiser', { exact: true }).click();
    await form.getByLabel('Brand').fill('Refused Brand');
    await form.getByLabel('E-mail').fill('refused@forms.test');
    await form.getByLabel(/^Name/).fill('Rita Refused');
    const price = form.getByLabel(/^Price/);
    const trial = form.getByLabel('Trial credits');
    const create = form.getByRole('button', { name: 'Create', exact: true });

    await price.fill('');
    await trial.fill('-500');
    await create.click();
    expect(await fieldError(price)).toBe('Required.');
    expect(await fieldError(trial)).toBe('At least 0.');

    await price.fill('-2');
    await trial.fill('2.5');
    await create.click();
    expect(await fieldError(price)).toBe('Must be above 0.');
    expect(await fieldError(trial)).toBe('A whole number.');
    // Nothing was brought into range: the values stay as typed.
    expect(await price.inputValue()).toBe('-2');
    expect(await trial.inputValue()).toBe('2.5');

    await price.fill('0');
    await create.click();
    expect(await fieldError(price)).toBe('Must be above 0.');
    expect(sent).toEqual([]);
    expect(await form.getByRole('status').count()).toBe(0);
  });

  it('says a brand is too long as it is typed, and an e-mail that is not one, beside each', async () => {
    const form = admin.getByRole('region', { name: 'Create an account' });
    const brand = form.getByLabel('Brand');
    await brand.fill('B'.repeat(130));
    expect(await fieldError(brand)).toBe('At most 120 characters. (130 typed)');
    // Not cut: the 130 characters are still there.
    expect((await brand.inputValue()).length).toBe(130);
    const email = form.getByLabel('E-mail');
    await email.fill('not-an-address');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    expect(await fieldError(email)).toBe('Enter an e-mail address such as name@example.com.');
    expect(sent).toEqual([]);
  });

  it('puts a refusal only the server can make beside its field (an unknown holder), changing nothing', async () => {
    await admin.getByLabel('Search').fill('Atelier');
    const row = admin.getByTestId(/^advertiser-\d+$/).filter({ hasText: 'Atelier Céramique' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Edit the advertiser Atelier Céramique' }).click();
    const dialog = admin.getByRole('dialog');
    const holder = dialog.getByLabel('Held by (e-mail)');
    await holder.fill('nobody@nowhere.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await fieldError(holder)).toContain('No user has the e-mail nobody@nowhere.test.');
    expect(sent).toEqual(['/api/admin/update-advertiser']);
    // A new campaign at 0.00 is refused beside its price, before sending.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('button', { name: 'New campaign for Atelier Céramique' }).click();
    const price = admin.getByRole('dialog').getByLabel('CPM (€)');
    await price.fill('0');
    await admin.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    expect(await fieldError(price)).toBe('Must be above 0.');
    expect(sent).toEqual(['/api/admin/update-advertiser']);
    await admin.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('the coupon form (Payments), in English', () => {
  it('appears only once the tables above it are in, so that none arriving later moves it from under a click', async () => {
    const outstandingCall = '**/api/admin/get-outstanding-invoices';
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await admin.route(outstandingCall, async (route) => {
      await answered;
      await route.continue();
    });
    await admin.reload();
    await admin.getByRole('navigation').getByRole('link', { name: 'Payments' }).click();
    await admin.getByTestId('admin-sales').waitFor();
    await admin.getByTestId('coupons').waitFor();
    const form = admin.getByRole('form', { name: 'New coupon' });
    expect(await form.count()).toBe(0);
    answer();
    await admin.getByTestId('outstanding').waitFor();
    await form.waitFor();
    await admin.unroute(outstandingCall);
  });

  it('refuses -5 %, 150 % and a 300-character code beside each field, never changing them, creating nothing', async () => {
    await toPayments('Payments');
    const form = admin.getByRole('form', { name: 'New coupon' });
    const code = form.getByLabel('Code');
    const percent = form.getByLabel('Percentage off (1 to 100)');
    const create = form.getByRole('button', { name: 'Create the coupon' });

    await code.fill('SPRING36');
    await percent.fill('-5');
    await create.click();
    expect(await fieldError(percent)).toBe('At least 1.');
    expect(await percent.inputValue()).toBe('-5');

    await percent.fill('150');
    await percent.blur();
    expect(await percent.inputValue()).toBe('150');
    await create.click();
    expect(await fieldError(percent)).toBe('At most 100.');

    await percent.fill('10');
    await code.fill('C'.repeat(300));
    expect(await fieldError(code)).toContain('At most 40 characters. (300 typed)');
    expect((await code.inputValue()).length).toBe(300);
    await create.click();
    expect(await isValid(percent)).toBe(true);
    expect(sent.filter((path) => path.endsWith('create-coupon'))).toEqual([]);
    expect(await admin.getByText('SPRING36').count()).toBe(0);
  });
});

describe('Network settings and Placements, in English', () => {
  it('marks an emptied number and a text over its length beside their fields, saving nothing', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Network settings' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Network settings' }).waitFor();
    const rate = admin.getByLabel(/^Euros per US dollar/);
    await rate.fill('');
    const seller = admin.getByLabel(/^Seller details on invoices/);
    await seller.fill('S'.repeat(1001));
    expect(await fieldError(seller)).toBe('At most 1,000 characters. (1,001 typed)');
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    expect(await fieldError(rate)).toBe('Required.');
    expect(sent.filter((path) => path.endsWith('update-network-settings'))).toEqual([]);
    await admin.reload();
  });

  it('marks a placement without selector beside it, saving nothing', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Placements' }).click();
    await admin.getByRole('combobox', { name: 'Web publisher' }).click();
    await admin.getByRole('option', { name: /Demo Blog/ }).click();
    await admin.getByRole('button', { name: 'Add a placement' }).click();
    await admin.getByRole('button', { name: 'Save placements' }).click();
    expect(await fieldError(admin.getByLabel(/^CSS selector/))).toContain('Required.');
    expect(sent.filter((path) => path.endsWith('update-placements'))).toEqual([]);
  });
});

describe('in French', () => {
  it('words the same refusals in French, beside their fields', async () => {
    await toLanguage(admin, 'Français');
    await admin.getByRole('navigation').getByRole('link', { name: 'Comptes' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Comptes' }).waitFor();
    const form = admin.getByRole('region', { name: 'Créer un compte' });
    await form.getByText('Annonceur', { exact: true }).click();
    await form.getByLabel('Marque').fill('Marque Refusée');
    await form.getByLabel('E-mail').fill('refusee@forms.test');
    await form.getByLabel(/^Nom/).fill('Rita');
    const price = form.getByLabel(/^Prix/);
    const trial = form.getByLabel("Crédits d'essai");
    await price.fill('-2');
    await trial.fill('-500');
    await form.getByRole('button', { name: 'Créer', exact: true }).click();
    expect(await fieldError(price)).toBe('Doit être supérieur à 0.');
    expect(await fieldError(trial)).toBe('Au moins 0.');

    await toPayments('Paiements');
    const coupon = admin.getByRole('form', { name: 'Nouveau code promo' });
    const percent = coupon.getByLabel('Pourcentage de remise (1 à 100)');
    const code = coupon.getByLabel('Code', { exact: true });
    await code.fill('C'.repeat(300));
    expect(await fieldError(code)).toContain('Au plus 40 caractères. (300 saisis)');
    await code.fill('PRINTEMPS');
    await percent.fill('150');
    await coupon.getByRole('button', { name: 'Créer le code promo' }).click();
    expect(await fieldError(percent)).toBe('Au plus 100.');
    expect(sent.filter((path) => !path.endsWith('update-advertiser'))).toEqual([]);
    await toLanguage(admin, 'English');
  });
});

describe('a billing address (point 8)', () => {
  let advertiser: Page;

  beforeAll(async () => {
    advertiser = await newPage(browser, product);
    await signInThroughForm(advertiser, product, 'advertiser@demo.test');
    await advertiser.waitForURL(/\/advertiser\//);
  }, 60_000);

  it('refuses 20,000 characters as they are typed, keeping them, and saves nothing', async () => {
    await advertiser.goto('/advertiser/settings');
    await advertiser.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const before = await advertiser.getByTestId('billing-address').innerText();
    await advertiser.getByRole('button', { name: 'Modify' }).click();
    const field = advertiser.getByLabel('Billing address');
    await field.fill('x'.repeat(20_000));
    expect(await fieldError(field)).toBe('At most 2,000 characters. (20,000 typed)');
    expect((await field.inputValue()).length).toBe(20_000);
    const saves: string[] = [];
    advertiser.on('request', (request) => {
      if (request.url().endsWith('/api/advertiser/save-settings')) saves.push(request.url());
    });
    await advertiser.getByRole('button', { name: 'Save' }).click();
    expect(await fieldError(field)).toContain('At most 2,000 characters.');
    expect(saves).toEqual([]);
    await advertiser.getByRole('button', { name: 'Cancel' }).click();
    expect(await advertiser.getByTestId('billing-address').innerText()).toBe(before);
  });

  it('wraps a long word that fits instead of widening the page, at 1280 px and at 390 px', async () => {
    await advertiser.getByRole('button', { name: 'Modify' }).click();
    await advertiser.getByLabel('Billing address').fill(`Nordvik Outdoor SAS\n${'W'.repeat(1900)}`);
    await advertiser.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => advertiser.getByTestId('billing-address').innerText()).toContain('WWWW');
    for (const width of [1280, 390]) {
      await advertiser.setViewportSize({ width, height: 900 });
      const sizes = await advertiser.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
      }));
      expect(sizes.page, `${width} px`).toBeLessThanOrEqual(sizes.window);
    }
  });
});
