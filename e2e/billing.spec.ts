import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acceptDialogs, launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';
import { pdfText } from '../apps/api/src/features/billing-documents/pdf-text.ts';

/*
 * Money in (issue 22), as people do it: the advertiser buys credits by card through the local test checkout (no
 * STRIPE_SECRET_KEY here), applies a coupon, asks to pay in Bitcoin, keeps its billing information and downloads
 * a receipt; the admin confirms the demo's unpaid invoice and creates a coupon.
 */

let product: Product;
let browser: Browser;
let advertiser: Page;
let advertiserDialogs: string[];
/** What the breakdown showed before the card purchase, which its receipt must show too. */
let paidByCard: { total: string; excludingVat: string; vat: string } | undefined;

beforeAll(async () => {
  // Whatever this machine's environment holds, no Stripe key: the product serves its own test checkout.
  product = await startProduct({ STRIPE_SECRET_KEY: '', STRIPE_API_URL: '' });
  browser = await launchBrowser();
  advertiser = await signedInPage(browser, product, 'advertiser@demo.test');
  advertiserDialogs = acceptDialogs(advertiser);
  await advertiser.waitForURL('**/advertiser/activity');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const parseEn = (text: string) => Number(text.replace(/[^\d.]/g, ''));

async function remainingImpressions(page: Page): Promise<number> {
  const text = await page.getByTestId('credits-text').innerText();
  expect(text).toMatch(/^Impressions left: [\d,]+$/);
  return parseEn(text);
}

async function openAddCredits(page: Page) {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add credits' });
  await dialog.getByTestId('add-credits').waitFor();
  return dialog;
}

describe('buying credits', () => {
  it('prices the slider by keyboard and pays by card on the test checkout; the credits go up', async () => {
    await advertiser.getByTestId('credits-text').waitFor();
    const before = await remainingImpressions(advertiser);

    const dialog = await openAddCredits(advertiser);
    const slider = dialog.getByRole('slider', { name: 'Impressions to buy' });
    const payEur = dialog.getByRole('button', { name: 'Pay by card (EUR)' });
    await slider.focus();

    // Nothing to buy: every way to pay is disabled, and no invoice is offered.
    await advertiser.keyboard.press('Home');
    await expect.poll(() => dialog.getByTestId('buy-quantity').innerText()).toBe('0 impressions');
    await expect.poll(() => dialog.getByTestId('buy-full').innerText()).toBe('0.00 €');
    expect(await payEur.isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Pay in Bitcoin' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Pay on invoice (EUR)' }).count()).toBe(0);
    // ...but a line says from what amount it is.
    expect(await dialog.getByTestId('invoice-from').innerText()).toMatch(
      /^Paying on invoice is available from [\d,]+\.\d{2} €\.$/,
    );

    // The largest purchase reaches the minimum order of direct billing.
    await advertiser.keyboard.press('End');
    await expect.poll(() => dialog.getByTestId('buy-quantity').innerText()).toBe('2,000,000 impressions');
    await dialog.getByRole('button', { name: 'Pay on invoice (EUR)' }).waitFor();
    expect(await dialog.getByTestId('invoice-from').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Pay on invoice (USD)' }).waitFor();
    const priceOfMax = await dialog.getByTestId('buy-full').innerText();

    // Three steps up from nothing: the breakdown follows, in euros, Bitcoin and dollars.
    await advertiser.keyboard.press('Home');
    for (let step = 0; step < 3; step++) await advertiser.keyboard.press('ArrowRight');
    await expect.poll(() => dialog.getByTestId('buy-quantity').innerText()).toBe('300,000 impressions');
    await expect.poll(() => payEur.isEnabled()).toBe(true);
    const full = await dialog.getByTestId('buy-full').innerText();
    expect(full).toMatch(/^[\d,]+\.\d{2} €$/);
    expect(full).not.toBe(priceOfMax);
    expect(parseEn(full)).toBeGreaterThan(0);
    expect(await dialog.getByTestId('buy-discounted').innerText()).toMatch(/^[\d,]+\.\d{2} €$/);
    expect(await dialog.getByTestId('buy-bitcoin').innerText()).toMatch(/^₿\d+\.\d{8} \([\d,]+\.\d{2} €\)$/);
    expect(await dialog.getByTestId('buy-dollar').innerText()).toMatch(/^\$[\d,]+\.\d{2} \([\d,]+\.\d{2} €\)$/);
    // VAT: prices include it; split as the receipt will split it, with the invoice's unit price.
    expect(await dialog.getByTestId('buy-vat-note').innerText()).toBe('Prices include VAT (20%).');
    paidByCard = {
      total: await dialog.getByTestId('buy-discounted').innerText(),
      excludingVat: await dialog.getByTestId('buy-excluding-vat').innerText(),
      vat: await dialog.getByTestId('buy-vat').innerText(),
    };
    expect(parseEn(paidByCard.excludingVat) + parseEn(paidByCard.vat)).toBeCloseTo(parseEn(paidByCard.total), 2);
    expect(await dialog.getByTestId('buy-unit-price').innerText()).toMatch(/^\d+\.\d{4} € per 1,000 impressions$/);

    // By card: the local test checkout says plainly that nothing is charged.
    await payEur.click();
    await advertiser.waitForURL(/\/test-checkout\/[^/]+$/);
    expect(await advertiser.getByTestId('test-checkout-banner').innerText()).toBe(
      'TEST CHECKOUT: no real payment is made (Stripe is not configured)',
    );
    expect(await advertiser.getByTestId('checkout-brand').innerText()).toBe('Nordvik Outdoor');
    expect(await advertiser.getByTestId('checkout-quantity').innerText()).toBe('300,000 impressions');
    expect(await advertiser.getByTestId('checkout-amount').innerText()).toMatch(/^[\d,]+\.\d{2} €$/);
    await advertiser.getByRole('button', { name: 'Pay', exact: true }).click();

    // Back on the activity: the thanks, and the credits bar shows what was bought.
    await advertiser.waitForURL(/\/advertiser\/activity/);
    const thanks = advertiser.getByRole('dialog', { name: 'Purchase successful' });
    await thanks.waitFor();
    await thanks.getByRole('button', { name: 'OK' }).click();
    await thanks.waitFor({ state: 'hidden' });
    await expect.poll(() => remainingImpressions(advertiser)).toBeGreaterThanOrEqual(before + 300_000);
  });

  it('refuses an unknown coupon with its reason and applies WELCOME10', async () => {
    const dialog = await openAddCredits(advertiser);
    const code = dialog.getByLabel('Coupon code');
    await code.fill('NO-SUCH-CODE');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');

    await code.fill('WELCOME10');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Coupon applied.').waitFor();
    expect(await code.inputValue()).toBe('');
    await dialog.getByTestId('coupon-str').waitFor();
    // The 10 % coupon adds to the tier discount of any quantity.
    const slider = dialog.getByRole('slider', { name: 'Impressions to buy' });
    await slider.focus();
    await advertiser.keyboard.press('Home');
    await advertiser.keyboard.press('ArrowRight');
    await dialog.getByText(/^Discounted price \(\d+(\.\d+)?% off\)$/).waitFor();
    await advertiser.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('asks to pay in Bitcoin: confirmed with 12 decimals, then the e-mailed instructions', async () => {
    const dialog = await openAddCredits(advertiser);
    const slider = dialog.getByRole('slider', { name: 'Impressions to buy' });
    await slider.focus();
    await advertiser.keyboard.press('Home');
    await advertiser.keyboard.press('ArrowRight');
    const bitcoin = dialog.getByRole('button', { name: 'Pay in Bitcoin' });
    await expect.poll(() => bitcoin.isEnabled()).toBe(true);
    const mailsBefore = product.smtp.messages.length;
    const seen = advertiserDialogs.length;
    await bitcoin.click();
    await expect.poll(() => advertiserDialogs.length).toBeGreaterThanOrEqual(seen + 2);
    expect(advertiserDialogs[seen]).toMatch(/^Buy 100,000 impressions for ₿\d+\.\d{12}\?/);
    expect(advertiserDialogs[seen + 1]).toBe(
      'Your Bitcoin payment request has been received. Please check your e-mail for the payment instructions.',
    );
    await product.smtp.waitForMail('advertiser@demo.test', mailsBefore);
    // The page reloads: the modal is gone.
    await advertiser.getByTestId('credits-text').waitFor();
    expect(await advertiser.getByRole('dialog', { name: 'Add credits' }).count()).toBe(0);
  });

  it('fits a 390 px wide phone', async () => {
    const context = advertiser.context();
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto('/advertiser/activity');
    const dialog = await openAddCredits(phone);
    const box = await dialog.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(390);
    const pay = dialog.getByRole('button', { name: 'Pay by card (USD)' });
    await pay.scrollIntoViewIfNeeded();
    const payBox = await pay.boundingBox();
    expect((payBox?.x ?? -1) >= 0 && (payBox?.x ?? 0) + (payBox?.width ?? 0) <= 390).toBe(true);
    await phone.close();
  });

  it('shows an unknown test checkout session as such', async () => {
    await advertiser.goto('/test-checkout/cs_test_unknown');
    await advertiser.getByTestId('test-checkout-error').waitFor();
    await advertiser.getByRole('link', { name: 'Back to my activity' }).click();
    await advertiser.waitForURL(/\/advertiser\/activity$/);
  });
});

describe('advertiser Settings', () => {
  it('shows the advertiser and keeps its billing information, refusing an empty one', async () => {
    await advertiser.goto('/advertiser/settings');
    await advertiser.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await advertiser.getByTestId('advertiser-name').innerText()).toBe('Nordvik Outdoor');
    expect(await advertiser.getByTestId('advertiser-type').innerText()).toBe('Advertiser');
    expect(await advertiser.getByTestId('advertiser-since').innerText()).not.toBe('');
    const address = advertiser.getByTestId('billing-address');
    expect(await address.innerText()).toContain('Nordvik Outdoor SAS');

    // Empty: the message, and nothing saved.
    await advertiser.getByRole('button', { name: 'Modify' }).click();
    const field = advertiser.getByLabel('Billing address');
    await field.fill('   ');
    await advertiser.getByRole('button', { name: 'Save' }).click();
    await advertiser.getByText('Please enter your billing address.').waitFor();
    await advertiser.getByRole('button', { name: 'Cancel' }).click();
    expect(await address.innerText()).toContain('Nordvik Outdoor SAS');

    // Saved, and still there after a reload.
    await advertiser.getByRole('button', { name: 'Modify' }).click();
    await field.fill('Nordvik Outdoor SAS\n1 quai des Tests\n38000 Grenoble');
    await advertiser.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => address.innerText()).toContain('1 quai des Tests');
    await advertiser.reload();
    await expect.poll(() => advertiser.getByTestId('billing-address').innerText()).toContain('1 quai des Tests');
  });

  it('lists the purchases with their state and a receipt that downloads as a PDF', async () => {
    const table = advertiser.getByTestId('sales-table');
    await table.waitFor();
    // The demo's three sales, the card purchase and the Bitcoin request above.
    expect(await table.locator('tbody tr').count()).toBeGreaterThanOrEqual(5);
    await table.getByText('Unpaid').first().waitFor();
    await table.getByText('Pending').first().waitFor();
    expect(await table.getByText('Paid', { exact: true }).count()).toBeGreaterThanOrEqual(3);

    const receipt = table.getByRole('link', { name: /^Download the receipt of purchase \d+ \(PDF\)$/ }).first();
    const href = (await receipt.getAttribute('href')) as string;
    expect(href).toMatch(/^\/advertiser\/receipt\/[A-Za-z0-9]+$/);
    const response = await advertiser.request.get(href);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The card purchase's receipt shows the total and the VAT the breakdown showed before paying.
    const texts: string[] = [];
    for (const link of await table.getByRole('link', { name: /^Download the receipt of purchase/ }).all()) {
      const pdf = await advertiser.request.get((await link.getAttribute('href')) as string);
      texts.push(pdfText(await pdf.body()));
    }
    const paid = texts.find((text) => text.includes(paidByCard!.total) && text.includes('Of which VAT (20%)'));
    expect(paid, `no receipt of ${paidByCard!.total}`).toBeDefined();
    expect(paid).toContain(paidByCard!.vat);
    expect(paid).toContain(paidByCard!.excludingVat);
  });
});

describe('admin Payments', () => {
  let admin: Page;

  beforeAll(async () => {
    admin = await signedInPage(browser, product, 'admin@demo.test');
    acceptDialogs(admin);
    await admin.waitForURL(/\/admin\//);
  });

  it("is in the admin's menu and confirms the demo's unpaid invoice", async () => {
    await admin.getByRole('link', { name: 'Payments' }).click();
    await admin.waitForURL(/\/admin\/payments$/);
    await admin.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();

    const invoice = admin
      .getByTestId(/^admin-sale-\d+$/)
      .filter({ hasText: 'Nordvik Outdoor' })
      .filter({ hasText: 'Invoice' })
      .filter({ hasText: 'Unpaid' })
      .first();
    await invoice.waitFor();
    const testId = (await invoice.getAttribute('data-testid')) as string;
    await invoice.getByRole('button', { name: /^Confirm paid: sale \d+$/ }).click();
    // Paid: no longer to confirm, listed among the paid sales.
    await admin.getByTestId(testId).waitFor({ state: 'detached' });
    await admin.getByLabel('Show').selectOption('paid');
    await admin.getByTestId(testId).getByText('Paid').waitFor();
  });

  it('lists the coupons and creates one, showing the refusals of the server', async () => {
    const coupons = admin.getByTestId('coupons');
    await coupons.getByText('WELCOME10').waitFor();

    const code = admin.getByLabel('Code', { exact: true });
    await code.fill('x!');
    await admin.getByLabel('Percentage off (1 to 100)').fill('15');
    await admin.getByRole('button', { name: 'Create the coupon' }).click();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');

    await code.fill('E2E_SPRING');
    await admin.getByRole('button', { name: 'Create the coupon' }).click();
    await admin.getByText('Coupon E2E_SPRING created.').waitFor();
    await coupons.getByText('E2E_SPRING').waitFor();
  });
});
