import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { fieldError } from './support/forms.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Running the network (issue 24, parts 3 and 4), as an admin does it: change the dollar rate in the network
 * settings and see it in the history; create a web publisher whose new user gets the welcome mail, signs in at once
 * and reaches its installation screen; both screens in English and in French.
 */

let product: Product;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  admin = await signedInPage(browser, product, 'admin@demo.test');
  await admin.waitForURL(/\/admin\//);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('network settings', () => {
  it('changes the dollar rate and shows the change in the history', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Network settings' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Network settings' }).waitFor();
    const rows = admin.getByTestId('settings-history').locator('tbody tr');
    await rows.first().waitFor();
    const before = await rows.count();
    const rate = admin.getByLabel(/^Euros per US dollar/);
    await rate.fill('0.8765');
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    await admin.getByRole('status').filter({ hasText: 'The settings are saved' }).waitFor();
    await expect.poll(() => rows.count()).toBe(before + 1);
    const newest = await rows.first().locator('td').allInnerTexts();
    expect(newest[1]).toBe('admin@demo.test');
    expect(newest[2]).toBe('0.8765');
    expect(newest[4]).toContain('Euros per US dollar');
  });

  it('refuses a share above 100 % beside its field and changes nothing', async () => {
    const rows = admin.getByTestId('settings-history').locator('tbody tr');
    const before = await rows.count();
    const share = admin.getByLabel(/^Publisher revenue share/);
    const original = await share.inputValue();
    await share.fill('120');
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    expect(await fieldError(share)).toBe('At most 100.');
    expect(await rows.count()).toBe(before);
    await share.fill(original);
  });

  // Issue 32: a bitcoin rate of 0.001 was saved as 0.00 and broke every purchase.
  it('refuses a bitcoin rate with more decimals than stored beside its field, saving nothing', async () => {
    const rows = admin.getByTestId('settings-history').locator('tbody tr');
    const before = await rows.count();
    const newest = await rows.first().locator('td').allInnerTexts();
    const rate = admin.getByLabel(/^Euros per bitcoin/);
    await rate.fill('0.001');
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    expect(await fieldError(rate)).toBe('At most 2 decimals: the value is stored exactly as typed.');
    // Below its range, the next refusal names the minimum; the other fields carry no error.
    await rate.fill('5');
    expect(await rate.getAttribute('aria-invalid')).not.toBe('true');
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    expect(await fieldError(rate)).toBe('At least 100.');
    expect(await admin.getByLabel(/^Euros per US dollar/).getAttribute('aria-invalid')).not.toBe('true');
    expect(await rows.count()).toBe(before);
    expect(await rows.first().locator('td').allInnerTexts()).toEqual(newest);
    // Corrected, it is saved.
    await rate.fill('61250.5');
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    await admin.getByRole('status').filter({ hasText: 'The settings are saved' }).waitFor();
    await expect.poll(() => rows.count()).toBe(before + 1);
    expect((await rows.first().locator('td').allInnerTexts())[3]).toBe('61,250.50');
  });

  it('reads in French, refusals included', async () => {
    await admin.getByRole('button', { name: /Claire Dubois/ }).click();
    await admin.getByRole('menuitem', { name: 'Français' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Réglages du réseau' }).waitFor();
    await admin.getByRole('heading', { level: 2, name: 'Historique' }).waitFor();
    const rate = admin.getByLabel(/^Euros par dollar US/);
    await rate.fill('0.123456789');
    await admin.getByRole('button', { name: 'Enregistrer les réglages' }).click();
    expect(await fieldError(rate)).toBe('Au plus 8 décimales\u202f: la valeur est enregistrée telle que saisie.');
    await admin.getByLabel(/^Euros par bitcoin/).waitFor();
  });
});

describe('onboarding', () => {
  it('creates a web publisher whose user is welcomed, signs in at once and reaches its installation screen', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Comptes' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Comptes' }).waitFor();
    await admin.getByLabel('Marque').fill('Le Jardin Secret');
    await admin.getByLabel('E-mail').fill('helene@jardin-secret.test');
    await admin.getByLabel(/^Nom/).fill('Hélène Roux');
    await admin.getByLabel('Domaine').fill('https://jardin-secret.test/');
    const before = product.smtp.messages.length;
    await admin.getByRole('button', { name: 'Créer', exact: true }).click();
    await admin.getByRole('status').filter({ hasText: 'Le Jardin Secret est créé' }).waitFor();
    const welcome = await product.smtp.waitForMail('helene@jardin-secret.test', before);
    expect(welcome.subject).toBe('Welcome to Helium Ads');
    expect(welcome.text).toContain('/signin');

    await admin.getByLabel('Rechercher').fill('jardin secret');
    const row = admin.getByTestId(/^publisher-\d+$/).filter({ hasText: 'Le Jardin Secret' });
    await row.waitFor();
    expect(await row.innerText()).toContain('jardin-secret.test');

    const publisher = await newPage(browser, product);
    // A new publisher agrees to the terms once its code is known to be right, then signs in.
    await signInThroughForm(publisher, product, 'helene@jardin-secret.test');
    await publisher.getByRole('checkbox').check();
    await publisher.getByRole('button', { name: 'Se connecter' }).click();
    // Its script not installed yet, it lands on its installation screen.
    await publisher.waitForURL(/\/publisher\/installation$/);
    await publisher.getByRole('heading', { level: 1, name: 'Installation' }).waitFor();
    expect(publisher.url()).toMatch(/\/publisher\/installation$/);
    await publisher.close();
  });

  it('edits the publisher’s revenue share in English', async () => {
    await admin.getByRole('button', { name: /Claire Dubois/ }).click();
    await admin.getByRole('menuitem', { name: 'English' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    await admin.getByRole('button', { name: 'Edit Le Jardin Secret' }).click();
    await admin.getByLabel('Revenue share (%)').fill('65');
    await admin.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    const row = admin.getByTestId(/^publisher-\d+$/).filter({ hasText: 'Le Jardin Secret' });
    await expect.poll(() => row.innerText()).toContain('65');
  });

  it('adds a click-priced campaign to an advertiser, renames its user and moves the advertiser to another user', async () => {
    await admin.getByLabel('Search').fill('Atelier');
    const advertiserRow = admin.getByTestId(/^advertiser-\d+$/).first();
    await advertiserRow.waitFor();
    const campaignsBefore = await admin.getByTestId(/^campaign-\d+$/).count();
    await advertiserRow.getByRole('button', { name: 'New campaign' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('CPC', { exact: true }).click();
    await dialog.getByLabel('CPC (€)').fill('0.35');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => admin.getByTestId(/^campaign-\d+$/).count()).toBe(campaignsBefore + 1);
    expect(
      await admin
        .getByTestId(/^campaign-\d+$/)
        .last()
        .innerText(),
    ).toContain('0.35');

    await advertiserRow.getByRole('button', { name: /^Edit the user / }).click();
    await dialog.getByLabel('Name').fill('Marc L.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    await advertiserRow.getByRole('button', { name: /^Edit the advertiser / }).click();
    await dialog.getByLabel('Held by (e-mail)').fill('nobody@nowhere.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The server's refusal is beside the field it names (issue 36).
    expect(await fieldError(dialog.getByLabel('Held by (e-mail)'))).toContain(
      'No user has the e-mail nobody@nowhere.test.',
    );
    await dialog.getByLabel('Held by (e-mail)').fill('advertiser@demo.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => advertiserRow.innerText()).toContain('advertiser@demo.test');
  });

  it('targets a campaign at a country from its editor; the editor then shows it', async () => {
    const campaignRow = admin.getByTestId(/^campaign-\d+$/).first();
    await campaignRow.getByRole('button', { name: /^Edit Atelier Céramique: campaign #\d+$/ }).click();
    const editor = admin.getByRole('dialog', { name: /campaign #/ });
    expect((await editor.getByTestId('targeting-summary').innerText()).replace(/\s+/g, ' ')).toContain('Everywhere');
    await editor.getByRole('button', { name: 'Targeting', exact: true }).click();
    const targeting = admin.getByRole('dialog', { name: /Where this campaign is shown/ });
    await targeting.getByRole('checkbox', { name: 'Belgium', exact: true }).check();
    await targeting.getByRole('button', { name: 'Save', exact: true }).click();
    await targeting.waitFor({ state: 'detached' });
    await campaignRow.getByRole('button', { name: /^Edit Atelier Céramique: campaign #\d+$/ }).click();
    await expect
      .poll(async () => (await admin.getByTestId('targeting-summary').innerText()).replace(/\s+/g, ' '))
      .toContain('Belgium');
    await admin.keyboard.press('Escape');
  });
});
