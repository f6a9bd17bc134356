import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { codeFrom } from '../apps/api/test/smtp-catcher.ts';
import { acceptDialogs, launchBrowser, newPage } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Money out (issue 23), as people do it: the demo publisher reads its Accounting (Demo Blog is above the 50 EUR
 * minimum, with PayPal and bank transfer configured, Bitcoin authorised but not configured; La Lettre Tech is below
 * the minimum), asks for a PayPal payout in euros, which the admin marks paid with the transfer's reference; it
 * keeps its bank details (a wrong IBAN refused on the spot), reads its Stats and the terms of use, in English and in
 * French, signed in and signed out.
 */

let product: Product;
let browser: Browser;
let publisher: Page;
let publisherDialogs: string[];

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  publisher = await signedInPage(browser, product, 'publisher@demo.test');
  publisherDialogs = acceptDialogs(publisher);
  await publisher.waitForURL('**/publisher/accounting');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const EUROS = /^-?[\d,]+\.\d{2} €$/;
const parseEn = (text: string) => Number(text.replace(/[^\d.-]/g, ''));

async function balance(page: Page): Promise<number> {
  const text = await page.getByTestId('balance').innerText();
  expect(text).toMatch(EUROS);
  return parseEn(text);
}

async function switchPublisherAccount(page: Page, brand: string) {
  await page.getByRole('button', { name: /Julien Martin/ }).click();
  await page.getByRole('menuitem', { name: brand }).click();
  await page.waitForLoadState('load');
  await expect.poll(() => page.getByRole('button', { name: /Julien Martin/ }).innerText()).toContain(brand);
}

async function switchLanguage(page: Page, name: 'Français' | 'English') {
  await page.getByRole('button', { name: /Julien Martin/ }).click();
  await page.getByRole('menuitem', { name }).click();
}

describe('publisher Accounting', () => {
  it('shows total revenues, the balance above the minimum, the payout terms and the transactions', async () => {
    await publisher.getByRole('heading', { level: 1, name: 'Accounting' }).waitFor();
    await publisher.getByTestId('balance').waitFor();
    expect(await balance(publisher)).toBeGreaterThan(50);
    expect(await publisher.getByTestId('balance').getAttribute('data-sign')).toBe('positive');
    expect(await publisher.getByTestId('minimum-for-payout').innerText()).toBe('50.00 €');
    expect(await publisher.getByTestId('total-revenues').innerText()).toMatch(EUROS);
    expect(await publisher.getByTestId('pending-payout').count()).toBe(0);

    expect(await publisher.getByTestId('transfer-time-usd').innerText()).toBe('USD: 1 business day');
    expect(await publisher.getByTestId('transfer-time-btc').innerText()).toBe('BTC: 30 minutes');
    expect(await publisher.getByTestId('transfer-time-eur').innerText()).toBe('EUR: 30 business days');
    expect(await publisher.getByTestId('data-delay-note').innerText()).toContain('at least 24 hours');
    const configure = publisher.getByRole('link', { name: 'Configure your payout methods' });
    expect(await configure.getAttribute('href')).toBe('/publisher/settings');

    const table = publisher.getByTestId('transactions');
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
    const firstRow = (await table.locator('tbody tr').first().locator('td').allInnerTexts()).map((cell) => cell.trim());
    // Day, amount, impressions, type, note, balance: the first line's balance is the balance shown above.
    expect(firstRow).toHaveLength(6);
    expect(firstRow[1]).toMatch(EUROS);
    expect(firstRow[5]).toBe(await publisher.getByTestId('balance').innerText());
    expect(await publisher.getByTestId('payout-button').isEnabled()).toBe(true);
    expect(await publisher.getByTestId('payout-blocked').count()).toBe(0);
  });

  it('fits a 390 px wide phone: cards and the Payout button on screen, the table scrolling in its box', async () => {
    const phone = await publisher.context().newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto('/publisher/accounting');
      await phone.getByTestId('balance').waitFor();
      await phone.getByTestId('transactions').waitFor();
      for (const target of [phone.getByTestId('balance'), phone.getByTestId('payout-button')]) {
        await target.scrollIntoViewIfNeeded();
        const box = await target.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      }
      // The page itself never scrolls sideways: only the table's own box does.
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.getByTestId('payout-button').click();
      const menu = phone.getByTestId('payout-menu');
      await menu.waitFor();
      const menuBox = await menu.boundingBox();
      expect(menuBox && menuBox.x >= 0 && menuBox.x + menuBox.width <= 390).toBe(true);
      await phone.keyboard.press('Escape');
    } finally {
      await phone.close();
    }
  });

  it('offers each method in its currencies, then asks for a PayPal payout in euros: pending, payout disabled', async () => {
    const before = await balance(publisher);
    await publisher.getByTestId('payout-button').click();
    const menu = publisher.getByTestId('payout-menu');
    await menu.waitFor();

    // Bitcoin is authorised but not configured: dimmed, with the reason; no fees in bitcoins.
    const bitcoin = publisher.getByTestId('payout-bitcoin-btc');
    expect(await bitcoin.isDisabled()).toBe(true);
    expect(await bitcoin.innerText()).toMatch(/BTC · ₿\d\.\d{8}/);
    expect(await bitcoin.innerText()).toContain('No fees');
    // PayPal in euros shows its fee; in dollars no fees.
    const paypalEur = publisher.getByTestId('payout-paypal-eur');
    const paypalUsd = publisher.getByTestId('payout-paypal-usd');
    expect(await paypalEur.isEnabled()).toBe(true);
    expect(await paypalEur.innerText()).toMatch(/EUR · [\d,]+\.\d{2} €/);
    expect(await paypalEur.innerText()).toMatch(/Transfer fee: [\d,]+\.\d{2} €/);
    expect(await paypalEur.innerText()).toContain('30 business days');
    expect(await paypalUsd.innerText()).toMatch(/USD · \$[\d,]+\.\d{2}/);
    expect(await paypalUsd.innerText()).toContain('No fees');
    expect(await publisher.getByTestId('payout-wire-eur').isEnabled()).toBe(true);

    await publisher.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const seen = publisherDialogs.length;
    await paypalEur.click();
    await expect.poll(() => publisherDialogs.length).toBeGreaterThan(seen);
    expect(publisherDialogs[seen]).toMatch(/^Request a payout of [\d,]+\.\d{2} € by PayPal \(EUR\)\?/);

    // The page reloads once the request returns: the pending payout, and no other can be asked.
    await expect
      .poll(() => publisher.evaluate(() => (window as unknown as { marker?: number }).marker ?? null))
      .toBeNull();
    const banner = publisher.getByTestId('pending-payout');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('PayPal');
    expect(await publisher.getByTestId('payout-button').isDisabled()).toBe(true);
    // The reason is beside the disabled button, and read with it.
    expect(await publisher.getByTestId('payout-blocked').innerText()).toBe(
      'Payout unavailable: a payout is already being processed.',
    );
    expect(await publisher.getByTestId('payout-button').getAttribute('aria-describedby')).toBe('payout-blocked');
    // The whole balance was debited.
    await expect.poll(() => balance(publisher)).toBeLessThan(before);
  });

  it('shows La Lettre Tech below the minimum with the payout disabled, then goes back to Demo Blog', async () => {
    await switchPublisherAccount(publisher, 'La Lettre Tech');
    await publisher.getByTestId('balance').waitFor();
    expect(await balance(publisher)).toBeLessThan(50);
    expect(await publisher.getByTestId('payout-button').isDisabled()).toBe(true);
    expect(await publisher.getByTestId('payout-blocked').innerText()).toMatch(
      /^Payout unavailable: your balance is below the .*50\.00.* minimum\.$/,
    );
    expect(await publisher.getByTestId('pending-payout').count()).toBe(0);
    await switchPublisherAccount(publisher, 'Demo Blog');
    await publisher.getByTestId('pending-payout').waitFor();
  });
});

describe('admin Payouts', () => {
  let admin: Page;

  beforeAll(async () => {
    admin = await signedInPage(browser, product, 'admin@demo.test');
    acceptDialogs(admin);
    await admin.waitForURL(/\/admin\//);
  });

  afterAll(async () => {
    await admin?.context().close();
  });

  it('lists the pending PayPal payout of Demo Blog and marks it paid with the transfer reference', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Payouts' }).click();
    await admin.waitForURL(/\/admin\/payouts$/);
    await admin.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor();

    const row = admin
      .getByTestId(/^admin-payout-\d+$/)
      .filter({ hasText: 'Demo Blog' })
      .filter({ hasText: 'PayPal' })
      .filter({ hasText: 'Pending' })
      .first();
    await row.waitFor();
    expect(await row.innerText()).toContain('publisher@demo.test');
    expect(await row.innerText()).toContain('PayPal e-mail:');
    expect(await row.getByTestId('amount-to-send').innerText()).toMatch(EUROS);
    const testId = (await row.getAttribute('data-testid')) as string;
    const id = testId.replace('admin-payout-', '');

    await row.getByRole('button', { name: `Mark paid: payout ${id}` }).click();
    const dialog = admin.getByRole('dialog', { name: `Mark payout ${id} as paid` });
    await dialog.waitFor();
    // The reference is required.
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await dialog.getByText("Enter the transfer's reference.").waitFor();
    await dialog.getByLabel('Transfer reference').fill('PP-E2E-0001');
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await dialog.waitFor({ state: 'detached' });

    // No longer pending; listed among the paid ones with its reference.
    await admin.getByTestId(testId).waitFor({ state: 'detached' });
    await admin.getByLabel('Show').selectOption('paid');
    const paid = admin.getByTestId(testId);
    await paid.getByText('Paid', { exact: true }).waitFor();
    expect(await paid.getByTestId('payout-reference').innerText()).toBe('Reference: PP-E2E-0001');
  });

  it('leaves the publisher without a pending payout once it is paid', async () => {
    await publisher.reload();
    await publisher.getByTestId('balance').waitFor();
    expect(await publisher.getByTestId('pending-payout').count()).toBe(0);
  });
});

describe('publisher Settings', () => {
  it('shows the authorised methods: PayPal and bank transfer configured, Bitcoin not yet', async () => {
    await publisher.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
    await publisher.waitForURL('**/publisher/settings');
    await publisher.getByTestId('payout-card-wire').waitFor();
    await publisher.getByTestId('payout-card-paypal').waitFor();
    await publisher.getByTestId('payout-bitcoin-empty').waitFor();
    expect(await publisher.getByTestId('payout-paypal-email').innerText()).toContain('@');
    expect(await publisher.getByTestId('payout-wire-iban').innerText()).toMatch(/^[A-Z]{2}\d{2}[A-Z0-9]+$/);
  });

  it('refuses a wrong IBAN with the focus on it and saves nothing; saves a right one, kept after a reload', async () => {
    const saves: Request[] = [];
    const onRequest = (request: Request) => {
      if (request.url().endsWith('/api/publisher/save-settings')) saves.push(request);
    };
    publisher.on('request', onRequest);
    try {
      const ibanShown = publisher.getByTestId('payout-wire-iban');
      const before = await ibanShown.innerText();

      await publisher.getByRole('button', { name: 'Modify: Bank transfer' }).click();
      const card = publisher.getByTestId('payout-card-wire');
      const iban = card.getByLabel('IBAN');
      await iban.fill('FR14 2004 1010 0505 0001 3M02 607');
      await card.getByRole('button', { name: 'Save' }).click();
      await card.getByText('Incorrect IBAN.').waitFor();
      expect(await publisher.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('iban');
      expect(await iban.getAttribute('aria-invalid')).toBe('true');
      expect(saves).toHaveLength(0);
      // Cancel reads the details again: unchanged.
      await card.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => ibanShown.innerText()).toBe(before);

      await publisher.getByRole('button', { name: 'Modify: Bank transfer' }).click();
      await card.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
      await card.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => publisher.getByTestId('payout-wire-iban').innerText()).toBe('DE89370400440532013000');
      expect(saves).toHaveLength(1);
      await publisher.reload();
      await expect.poll(() => publisher.getByTestId('payout-wire-iban').innerText()).toBe('DE89370400440532013000');
    } finally {
      publisher.off('request', onRequest);
    }
  });
});

describe('publisher Stats', () => {
  it('shows the days newest first, each with its impressions, revenue and ads', async () => {
    await publisher.getByRole('navigation').getByRole('link', { name: 'Stats' }).click();
    await publisher.waitForURL('**/publisher/stats');
    await publisher.getByTestId('stats-total-revenues').waitFor();
    expect(await publisher.getByTestId('stats-total-revenues').innerText()).toMatch(EUROS);
    const days = publisher.getByTestId('stats-day');
    await days.first().waitFor();
    const isoDays = await days.evaluateAll((cards) => cards.map((card) => card.getAttribute('data-day') ?? ''));
    expect(isoDays.length).toBeGreaterThan(0);
    expect([...isoDays].sort().reverse()).toEqual(isoDays);
    const first = days.first();
    expect(parseEn(await first.getByTestId('day-impressions').innerText())).toBeGreaterThan(0);
    expect(await first.getByTestId('day-revenue').innerText()).toMatch(EUROS);
    // Demo Blog is a web site: its ads with their desktop and mobile split.
    const webAds = first.getByTestId('web-ads');
    await webAds.waitFor();
    expect(await webAds.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await webAds.locator('tbody tr').first().innerText()).toMatch(/Desktop [\d,]+ \([\d.]+%\)/);
  });
});

describe('terms of use', () => {
  const termsBox = (page: Page) => page.getByTestId('terms-text');

  it('are in the publisher menu, in English, then in French once the user switches language', async () => {
    await publisher.getByRole('navigation').getByRole('link', { name: 'Terms of use' }).click();
    await publisher.waitForURL('**/publisher/terms');
    const box = publisher.getByRole('region', { name: 'Publisher terms of use' });
    await box.waitFor();
    const english = await box.innerText();
    for (const point of ['250 USD', 'within 75 days', 'within 60 days', '1,000 USD per violation', 'UTC']) {
      expect(english).toContain(point);
    }
    // The full text scrolls inside its own box.
    expect(await termsBox(publisher).evaluate((element) => element.scrollHeight > element.clientHeight + 10)).toBe(
      true,
    );

    await switchLanguage(publisher, 'Français');
    await publisher.getByRole('heading', { level: 1, name: "Conditions d'utilisation" }).waitFor();
    const french = await publisher.getByRole('region', { name: "Conditions d'utilisation des éditeurs" }).innerText();
    expect(french).toContain('une fois par heure, par personne et par création');
    expect(french).toContain('5 000 000');
    await switchLanguage(publisher, 'English');
    await publisher.getByRole('heading', { level: 1, name: 'Terms of use' }).waitFor();
  });

  it('are public at /terms in the browser language, with a French / English switch', async () => {
    const context = await browser.newContext({ baseURL: product.url, locale: 'fr-FR' });
    try {
      const page = await context.newPage();
      await page.goto('/terms');
      await page.getByRole('region', { name: "Conditions d'utilisation des éditeurs" }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
      await page.getByText('English', { exact: true }).click();
      await page.getByRole('region', { name: 'Publisher terms of use' }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await termsBox(page).innerText()).toContain('no more than 5% of the unique visitors');
    } finally {
      await context.close();
    }
  });

  it("are linked from the sign-in's agreement step, opening in a new tab", async () => {
    const page = await newPage(browser, product);
    try {
      await page.goto('/signin');
      // multi@demo.test has not agreed to the terms: the agreement is asked once the code is right.
      await page.getByLabel('Adresse e-mail').fill('multi@demo.test');
      const before = product.smtp.messages.length;
      await page.getByRole('button', { name: 'Continuer' }).click();
      const code = codeFrom(await product.smtp.waitForMail('multi@demo.test', before));
      await page.getByLabel('Code de connexion').fill(code);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      const checkbox = page.getByRole('checkbox', { name: "J'accepte les conditions d'utilisation" });
      await checkbox.waitFor();
      const link = page.getByRole('link', { name: "conditions d'utilisation" });
      expect(await link.getAttribute('href')).toBe('/terms');
      expect(await link.getAttribute('target')).toBe('_blank');
      const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
      await tab.waitForURL('**/terms');
      await termsBox(tab).waitFor();
      // Following the link does not tick the box.
      expect(await checkbox.isChecked()).toBe(false);
    } finally {
      await page.context().close();
    }
  });
});
