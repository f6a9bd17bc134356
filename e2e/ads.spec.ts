import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { acceptDialogs, launchBrowser, newPage } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

const MEDIA = fileURLToPath(new URL('../packages/db/src/seed/media/', import.meta.url));

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

const signedIn = (email: string, path: string) => signedInPage(browser, product, email, { path });

describe('ads and their validation, as people do it', () => {
  it('advertiser uploads and submits; admin approves and requests a publisher; the publisher accepts by the e-mailed link', async () => {
    // The advertiser uploads an image: its preview opens.
    const advertiser = await signedIn('advertiser@demo.test', '/advertiser/ads');
    const advertiserDialogs = acceptDialogs(advertiser);
    await advertiser.getByRole('heading', { level: 1, name: 'Ads' }).waitFor();
    await advertiser.locator('input[type=file]').setInputFiles(join(MEDIA, 'nordvik-horizontal.jpg'));
    const preview = advertiser.getByRole('complementary', { name: 'Preview' });
    await preview.waitFor();
    const previewTitle = await preview.getByRole('heading').innerText();
    const adId = Number(/#(\d+)/.exec(previewTitle)?.[1]);
    expect(adId).toBeGreaterThan(0);
    await preview.getByText('Mobile').click();
    await preview.getByTestId('preview-mobile').getByRole('img').waitFor();

    // It sets the link (autosaved), then submits the ad after the confirm.
    const card = advertiser.getByRole('article', { name: `Ad #${adId}` });
    await card.getByLabel('Redirect link').fill('https://nordvik-outdoor.example/e2e');
    await card.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await card.getByRole('button', { name: 'Submit for validation' }).click();
    await card.getByText(/Pending validation: ready by/).waitFor();
    expect(advertiserDialogs).toContain('Submit this ad for validation? Its link can no longer be changed afterwards.');
    expect(await card.getByLabel('Redirect link').getAttribute('readonly')).not.toBeNull();

    // The admin approves it, then e-mails Demo Blog (and only Demo Blog) a request.
    const admin = await signedIn('admin@demo.test', '/admin/ad-validation');
    const adminDialogs = acceptDialogs(admin);
    const adminCard = admin.getByRole('article', { name: `Id ${adId}` });
    await adminCard.getByRole('button', { name: 'Approve this ad' }).click();
    await adminCard.getByText('Emailed as Validated', { exact: true }).waitFor();
    expect(adminDialogs).toContain('This will approve this ad.');
    const demoBlog = adminCard.getByRole('checkbox', { name: 'Select Demo Blog' });
    const cuisine = adminCard.getByRole('checkbox', { name: 'Select Cuisine Facile' });
    expect(await demoBlog.isChecked()).toBe(true);
    expect(await cuisine.isChecked()).toBe(true);
    await cuisine.uncheck();
    const mailsBefore = product.smtp.messages.length;
    await adminCard.getByRole('button', { name: 'Request selected publishers to validate' }).click();
    expect(adminDialogs).toContain('Email selected publishers to request them to validate this ad?');
    const mail = await product.smtp.waitForMail('publisher@demo.test', mailsBefore);
    await adminCard.getByText(/^expires /).waitFor();
    expect(await adminCard.getByRole('checkbox', { name: 'Select Cuisine Facile' }).isChecked()).toBe(true);
    expect(await adminCard.getByRole('checkbox', { name: 'Select Demo Blog' }).count()).toBe(0);

    // The e-mail's link opens the public, French page; the publisher accepts.
    const link = /(https?:\/\/\S+\/publisher-ad-validation\/[A-Za-z0-9]+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    expect(link).not.toContain(`/publisher-ad-validation/${adId}`);
    const publisher = await newPage(browser, product);
    await publisher.goto(link as string);
    await publisher.getByRole('heading', { level: 1, name: "Validation de l'annonce" }).waitFor();
    expect(await publisher.getByRole('link').first().getAttribute('href')).toBe('https://nordvik-outdoor.example/e2e');
    await publisher.getByRole('radio', { name: /Oui, cette annonce sera affichée/ }).check();
    await publisher.getByText('Votre choix est enregistré').waitFor();
    await publisher.getByRole('button', { name: 'Retour au tableau de bord' }).waitFor();

    // The admin sees Demo Blog approved; the advertiser sees the ad validated.
    await admin.reload();
    await admin
      .getByRole('article', { name: `Id ${adId}` })
      .locator('[data-publisher-id] [data-state="1"]')
      .first()
      .waitFor();
    await advertiser.reload();
    const validated = advertiser.getByRole('article', { name: `Ad #${adId}` });
    await validated.getByText('This ad is validated.').waitFor();
    expect(await validated.locator('[aria-current="step"]').innerText()).toMatch(/validated/i);
    expect(await validated.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    for (const page of [advertiser, admin, publisher]) await page.context().close();
  });

  it('refuses a bad file with the client check or the red Error banner, and keeps nothing', async () => {
    const page = await signedIn('advertiser@demo.test', '/advertiser/ads');
    const dialogs = acceptDialogs(page);
    await page.getByRole('article').first().waitFor();
    const before = await page.getByRole('article').count();

    const gif = join(product.dataDir, 'banner.gif');
    writeFileSync(gif, 'GIF89a');
    await page.locator('input[type=file]').setInputFiles(gif);
    await expect.poll(() => dialogs).toContain('Only jpg, jpeg, png and mp4 files can be uploaded.');

    const fake = join(product.dataDir, 'photo.png');
    writeFileSync(fake, 'this is not an image');
    await page.locator('input[type=file]').setInputFiles(fake);
    const banner = page.getByRole('alert').filter({ hasText: 'Error' });
    await banner.waitFor();
    expect(await banner.innerText()).toContain('not really a PNG');
    expect(await page.getByRole('article').count()).toBe(before);
    await page.context().close();
  });
});
