import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '@helium/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acceptDialogs, launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Money that cannot leak (issue 32), as people meet it: the admin sees what each advertiser owes on invoices, an
 * overdue invoice marked in red and in words, and sets an advertiser's ceiling; the advertiser is told in the buy
 * modal why an invoice is refused and why a purchase is at full price while its coupon is held; the admin records a
 * payment received after a cancellation, and chooses in the network settings what such payments do.
 */

const ENV = { STRIPE_SECRET_KEY: '', STRIPE_API_URL: '' };

let product: Product;
let browser: Browser;
let admin: Page;
let advertiser: Page;
let advertiserDialogs: string[];

beforeAll(async () => {
  // The demo's unpaid invoice, issued 33 days ago: overdue. Written while the product is stopped (PGlite has one
  // owner), then the product starts again on the same data.
  const first = await startProduct(ENV);
  await first.stop({ keepData: true });
  const database = await openDatabase({ pgliteDir: join(first.dataDir, 'db') });
  try {
    await database.db.execute(sql`
      UPDATE sales SET created_at = now() - interval '33 days', due_at = now() - interval '3 days'
      WHERE method = 'invoice' AND state = 'unpaid'`);
  } finally {
    await database.close();
  }
  product = await startProduct(ENV, { dataDir: first.dataDir });
  browser = await launchBrowser();
  admin = await signedInPage(browser, product, 'admin@demo.test');
  acceptDialogs(admin);
  await admin.waitForURL(/\/admin\//);
  advertiser = await signedInPage(browser, product, 'advertiser@demo.test');
  advertiserDialogs = acceptDialogs(advertiser);
  await advertiser.waitForURL('**/advertiser/activity');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function openAddCredits() {
  await advertiser.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = advertiser.getByRole('dialog', { name: 'Add credits' });
  await dialog.getByTestId('add-credits').waitFor();
  return dialog;
}

async function nordvikOwes() {
  await admin.goto('/admin/payments');
  await admin.getByRole('heading', { level: 2, name: 'Unpaid invoices by advertiser' }).waitFor();
  const row = admin.getByTestId(/^outstanding-\d+$/).filter({ hasText: 'Nordvik Outdoor' });
  await row.waitFor();
  return row;
}

describe('admin Payments: unpaid invoices by advertiser', () => {
  it('shows what Nordvik owes against its default ceiling, its overdue invoice marked in red with words', async () => {
    const row = await nordvikOwes();
    expect(await row.getByTestId('outstanding-total').innerText()).toBe('1,187.50 €');
    expect(await row.getByTestId('outstanding-ceiling').innerText()).toBe('10,000.00 € (default)');
    const summary = row.getByTestId('outstanding-overdue');
    expect((await summary.textContent())?.trim()).toBe('Overdue: 1 invoice, 1,187.50 €');
    const mark = row.getByText('OVERDUE', { exact: true });
    await mark.waitFor();
    // Red, and saying so in words: the mark is never colour alone.
    const background = await mark.evaluate(
      (element) => getComputedStyle(element.closest('[data-overdue]')!).backgroundColor,
    );
    const [red, green, blue] = (background.match(/\d+/g) ?? []).map(Number);
    expect(red).toBeGreaterThan(150);
    expect(green!).toBeLessThan(100);
    expect(blue!).toBeLessThan(100);
  });

  it("an admin sets Nordvik's ceiling in Accounts; Payments shows it", async () => {
    await admin.goto('/admin/accounts');
    await admin.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    await admin.getByLabel('Search').fill('Nordvik');
    await admin.getByRole('button', { name: 'Edit the advertiser Nordvik Outdoor' }).click();
    const dialog = admin.getByRole('dialog');
    const ceiling = dialog.getByLabel('Ceiling of unpaid invoices (€)');
    expect(await ceiling.inputValue()).toBe('');
    await dialog.getByText('Empty: 10 times the minimum order paid by invoice (network settings).').waitFor();
    await ceiling.fill('1500');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = await nordvikOwes();
    expect(await row.getByTestId('outstanding-ceiling').innerText()).toBe('1,500.00 €');
  });
});

describe('the buy modal', () => {
  it('refuses an invoice beyond the ceiling and says why', async () => {
    const dialog = await openAddCredits();
    await dialog.getByRole('slider', { name: 'Impressions to buy' }).focus();
    await advertiser.keyboard.press('End');
    const invoice = dialog.getByRole('button', { name: 'Pay on invoice (EUR)' });
    await invoice.waitFor();
    await expect.poll(() => invoice.isEnabled()).toBe(true);
    await invoice.click();
    const error = dialog.getByTestId('payment-error');
    await error.waitFor();
    expect(await error.innerText()).toMatch(
      /^With this invoice your unpaid invoices would come to [\d,]+\.\d{2} €, above your limit of 1,500\.00 € \(unpaid today: 1,187\.50 €\)\. Pay an open invoice, or pay by card\.$/,
    );
    await advertiser.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('while a Bitcoin purchase holds the coupon, the next purchase is at full price and says why', async () => {
    const dialog = await openAddCredits();
    await dialog.getByLabel('Coupon code').fill('WELCOME10');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Coupon applied.').waitFor();
    expect(await dialog.getByTestId('coupon-str').innerText()).toBe('Coupon WELCOME10: 10% off your next purchase.');
    await dialog.getByRole('slider', { name: 'Impressions to buy' }).focus();
    await advertiser.keyboard.press('Home');
    await advertiser.keyboard.press('ArrowRight');
    const bitcoin = dialog.getByRole('button', { name: 'Pay in Bitcoin' });
    await expect.poll(() => bitcoin.isEnabled()).toBe(true);
    const seen = advertiserDialogs.length;
    await bitcoin.click();
    await expect.poll(() => advertiserDialogs.length).toBeGreaterThanOrEqual(seen + 2);
    await advertiser.getByTestId('credits-text').waitFor();

    const again = await openAddCredits();
    expect(await again.getByTestId('coupon-str').innerText()).toBe(
      'Coupon WELCOME10 is held by a purchase awaiting payment: this purchase is at full price. The coupon comes back if that purchase is cancelled or expires.',
    );
    await again.getByRole('slider', { name: 'Impressions to buy' }).focus();
    await advertiser.keyboard.press('Home');
    await advertiser.keyboard.press('ArrowRight');
    // 100,000 impressions: no tier discount, and no coupon now.
    await expect.poll(() => again.getByTestId('buy-discounted').innerText()).toBe('250.00 €');
    await advertiser.keyboard.press('Escape');
  });
});

describe('a payment received after a cancellation', () => {
  it('the admin cancels the Bitcoin sale (the coupon comes back), then records its payment: credited, admins told', async () => {
    await admin.goto('/admin/payments');
    const sale = admin
      .getByTestId(/^admin-sale-\d+$/)
      .filter({ hasText: 'Nordvik Outdoor' })
      .filter({ hasText: 'Bitcoin' })
      .filter({ hasText: 'Pending' })
      .first();
    await sale.waitFor();
    const testId = (await sale.getAttribute('data-testid')) as string;
    const saleId = testId.replace('admin-sale-', '');
    await sale.getByRole('button', { name: `Cancel: sale ${saleId}` }).click();
    await admin.getByTestId(testId).waitFor({ state: 'detached' });

    await advertiser.reload();
    const dialog = await openAddCredits();
    await expect
      .poll(() => dialog.getByTestId('coupon-str').innerText())
      .toBe('Coupon WELCOME10: 10% off your next purchase.');
    await advertiser.keyboard.press('Escape');

    await admin.getByLabel('Show').selectOption('cancelled');
    const cancelled = admin.getByTestId(testId);
    const before = product.smtp.messages.length;
    await cancelled.getByRole('button', { name: `Payment received after cancellation: sale ${saleId}` }).click();
    await admin.getByLabel('Show').selectOption('paid');
    await admin.getByTestId(testId).getByTestId('late-payment').waitFor();
    expect(await admin.getByTestId(testId).getByTestId('late-payment').innerText()).toBe(
      'Paid after cancellation: credited',
    );
    const mail = await product.smtp.waitForMail('admin@demo.test', before);
    expect(mail.subject).toBe(`Helium Ads: payment received for cancelled sale ${saleId}`);
  });

  it('the network settings say what such a payment does: credit by default, or refund', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Network settings' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Network settings' }).waitFor();
    const choice = admin.getByLabel('A payment for a cancelled sale');
    expect(await choice.inputValue()).toBe('credit');
    await choice.selectOption({ label: 'Refund it (through Stripe for a card, by hand otherwise)' });
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    await admin.getByRole('status').filter({ hasText: 'The settings are saved' }).waitFor();
    const newest = admin.getByTestId('settings-history').locator('tbody tr').first();
    await expect.poll(() => newest.innerText()).toContain('A payment for a cancelled sale');
    await admin.reload();
    expect(await admin.getByLabel('A payment for a cancelled sale').inputValue()).toBe('refund');
  });
});
