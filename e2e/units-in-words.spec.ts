import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';
import { callFromPage, openScreen, ROLES, signIn } from './support/screens.ts';

/*
 * The user's language and units, never the storage's (issue 36, points 4 and 6), in English and French: the audit
 * log's details in euros and percents, the ledger notes the product writes, and Add credits saying that prices
 * include VAT with the invoice's unit price.
 */

const [ADMIN, ADVERTISER, PUBLISHER] = ROLES;
const LANGUAGES = [
  {
    locale: 'en',
    add: 'Add',
    discount: 'discount: 25.00%',
    broughtForward: 'Balance brought forward from before this ledger',
    payout: /Payout \d+ by PayPal in EUR/,
    vatNote: 'Prices include VAT (20%).',
    unitPrice: /^\d+\.\d{4} € per 1,000 impressions$/,
  },
  {
    locale: 'fr',
    add: 'Ajouter',
    discount: 'remise\u202f: 25,00 %',
    broughtForward: 'Solde reporté d’avant ce registre',
    payout: /Versement \d+ par PayPal en EUR/,
    vatNote: "Les prix s'entendent TTC (TVA 20 %).",
    unitPrice: /^\d+,\d{4} € les 1 000 impressions$/,
  },
] as const;

let product: Product;
let browser: Browser;
const pages: Record<string, Page> = {};

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  for (const role of [ADMIN, ADVERTISER, PUBLISHER]) {
    const context = await browser.newContext({ baseURL: product.url, locale: 'en-US' });
    pages[role.name] = await context.newPage();
    await signIn(pages[role.name]!, product, role.email);
  }
  await callFromPage(pages.admin!, '/api/admin/create-coupon', { code: 'UNITS25', percentOff: 25 });
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe.each(LANGUAGES)('in $locale', (language) => {
  beforeAll(async () => {
    for (const page of Object.values(pages)) {
      await callFromPage(page, '/api/common/update-user', { key: 'locale', value: language.locale });
    }
  });

  it('the audit log reads a coupon in percents', async () => {
    const admin = pages.admin!;
    await openScreen(admin, '/admin/audit');
    const log = admin.getByTestId('audit-log');
    await expect.poll(() => log.innerText()).toContain('coupon.create');
    const row = log.locator('tbody tr', { hasText: 'UNITS25' });
    expect(await row.innerText()).toContain(language.discount);
    expect(await row.innerText()).not.toContain('Bp');
  });

  it('the ledger notes the product wrote read in words', async () => {
    const publisher = pages.publisher!;
    await openScreen(publisher, '/publisher/accounting');
    const table = publisher.getByTestId('transactions');
    await expect.poll(() => table.innerText()).toContain(language.broughtForward);
    expect(await table.innerText()).toMatch(language.payout);
  });

  it('Add credits says prices include VAT, with the unit price the invoice will show', async () => {
    const advertiser = pages.advertiser!;
    await openScreen(advertiser, '/advertiser/activity');
    await advertiser.getByRole('button', { name: language.add, exact: true }).click();
    const dialog = advertiser.getByRole('dialog');
    await dialog.getByTestId('add-credits').waitFor();
    expect(await dialog.getByTestId('buy-vat-note').innerText()).toBe(language.vatNote);
    await expect.poll(() => dialog.getByTestId('buy-unit-price').innerText()).toMatch(language.unitPrice);
    await advertiser.keyboard.press('Escape');
  });
});
