import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';
import { callFromPage } from './support/screens.ts';
import { signedInPage } from './support/sessions.ts';

/*
 * An advertiser an admin gave a second campaign: Activity shows the newest (where new uploads go) and a picker to
 * choose the other; the choice is in the address (reload, back, a mail's link). On a product of its own: the other
 * specs' advertiser has one campaign.
 */

let product: Product;
let browser: Browser;
let page: Page;
let firstId: number;
let newestId: number;

const picker = () => page.getByRole('combobox', { name: 'Campaign', exact: true });
const campaignInAddress = () => new URL(page.url()).searchParams.get('campaign');

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await signedInPage(browser, product, 'advertiser@demo.test');
  const shown = (await callFromPage(page, '/api/advertiser/get-campaignex', {})) as { id: number };
  firstId = shown.id;
  const user = (await callFromPage(page, '/api/common/user', {})) as { accountId: number };
  const admin = await signedInPage(browser, product, 'admin@demo.test');
  const created = (await callFromPage(admin, '/api/admin/create-campaign', {
    advertiserId: user.accountId,
    isCpc: true,
    price: 0.4,
  })) as { campaignId: number };
  newestId = created.campaignId;
  await admin.context().close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('an advertiser with two campaigns', () => {
  it('shows the newest first, and the other once chosen, kept by a reload and undone by back', async () => {
    await page.goto('/advertiser/activity');
    await expect.poll(() => picker().inputValue()).toBe(`Campaign #${newestId} (CPC)`);
    await page.getByText('No validated ads in this campaign yet.').waitFor();

    await picker().click();
    await page.getByRole('option', { name: `Campaign #${firstId} (CPM)` }).click();
    await expect.poll(campaignInAddress).toBe(String(firstId));
    await expect.poll(() => picker().inputValue()).toBe(`Campaign #${firstId} (CPM)`);
    // The first campaign's own ads, not the empty newest's.
    await page.getByRole('button', { name: 'Add' }).waitFor();
    await expect.poll(() => page.getByText('No validated ads in this campaign yet.').count()).toBe(0);

    await page.reload();
    await expect.poll(() => picker().inputValue()).toBe(`Campaign #${firstId} (CPM)`);
    await page.goBack();
    await expect.poll(() => picker().inputValue()).toBe(`Campaign #${newestId} (CPC)`);
  });

  it('names the campaign being paid for in Add credits, and a mail link opens it on its campaign', async () => {
    await page.goto(`/advertiser/activity?addCredits=1&campaign=${firstId}`);
    const dialog = page.getByRole('dialog', { name: `Add credits: Campaign #${firstId} (CPM)` });
    await dialog.waitFor();
    // What the link asked once is cleared; the campaign shown stays in the address.
    expect(new URL(page.url()).search).toBe(`?campaign=${firstId}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await picker().inputValue()).toBe(`Campaign #${firstId} (CPM)`);
  });

  it("says so for a campaign that is not the account's, with the way back to its own", async () => {
    await page.goto('/advertiser/activity?campaign=999999');
    const alert = page.getByRole('alert').filter({ hasText: "This campaign is not one of this account's campaigns." });
    await alert.waitFor();
    await alert.getByRole('link', { name: "Show the account's newest campaign" }).click();
    await expect.poll(() => picker().inputValue()).toBe(`Campaign #${newestId} (CPC)`);
    expect(campaignInAddress()).toBeNull();
    // A malformed one reads the same.
    await page.goto('/advertiser/activity?campaign=abc');
    await alert.waitFor();
  });

  it('fits a phone (390 px): the picker whole, no sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/advertiser/activity');
    await picker().waitFor();
    const box = await picker().boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
