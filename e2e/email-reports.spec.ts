import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Reports by e-mail (issue 35, point 4), in Chromium: the preference on Settings ticked and unticked on screen (an
 * advertiser in English, a publisher in French), the admin's preview of a mail in English and in French, and the
 * one-click unsubscribe page of a mail the weekly-reports job sent, opened with no session.
 */

let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** Signs in (agreeing to the terms when asked) and opens the Settings screen from the menu. */
async function settingsOf(email: string, menu: string, heading: string, agree = false): Promise<Page> {
  const page = await newPage(browser, product);
  await signInThroughForm(page, product, email);
  // A user who has not agreed to the terms yet is asked once the code is known to be right.
  if (agree) {
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Se connecter' }).click();
  }
  await page.waitForURL(/\/(advertiser|publisher)\//);
  await page.getByRole('navigation').getByRole('link', { name: menu }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return page;
}

describe('the reports by e-mail on Settings', () => {
  it('lets an advertiser turn the low-credit alerts off and on again, kept after a reload (English)', async () => {
    const page = await settingsOf('advertiser@demo.test', 'Settings', 'Settings');
    const section = page.getByRole('region', { name: 'E-mails' });
    const weekly = section.getByRole('checkbox', { name: 'Weekly report by e-mail' });
    const lowCredit = section.getByRole('checkbox', { name: 'Low-credit alerts' });
    await lowCredit.waitFor();
    expect(await weekly.isChecked()).toBe(true);
    expect(await lowCredit.isChecked()).toBe(true);
    // The box shows the stored choice, changed a moment after the click (the save's optimistic update): poll it.
    await lowCredit.click();
    await expect.poll(() => lowCredit.isChecked()).toBe(false);
    await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.reload();
    await lowCredit.waitFor();
    expect(await lowCredit.isChecked()).toBe(false);
    expect(await weekly.isChecked()).toBe(true);
    // By keyboard: the box takes the focus and Space ticks it.
    await lowCredit.focus();
    await page.keyboard.press('Space');
    await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect.poll(() => lowCredit.isChecked()).toBe(true);
    await page.context().close();
  });

  it('lets a publisher turn the weekly report off, in French, with no low-credit box', async () => {
    const page = await settingsOf('multi@demo.test', 'Paramètres', 'Paramètres', true);
    const section = page.getByRole('region', { name: 'E-mails' });
    const weekly = section.getByRole('checkbox', { name: 'Rapport hebdomadaire par e-mail' });
    await weekly.waitFor();
    expect(await section.getByRole('checkbox').count()).toBe(1);
    expect(await section.innerText()).toContain('votre solde et si un versement peut être demandé');
    await weekly.click();
    await expect.poll(() => weekly.isChecked()).toBe(false);
    await section.getByRole('status').filter({ hasText: 'Enregistré.' }).waitFor();
    await page.reload();
    await weekly.waitFor();
    expect(await weekly.isChecked()).toBe(false);
    await weekly.click();
    await expect.poll(() => weekly.isChecked()).toBe(true);
    await section.getByRole('status').filter({ hasText: 'Enregistré.' }).waitFor();
    await page.context().close();
  });
});

describe("the admin's preview and the unsubscribe page", () => {
  let admin: Page;

  beforeAll(async () => {
    admin = await newPage(browser, product);
    await signInThroughForm(admin, product, 'admin@demo.test');
    await admin.waitForURL(/\/admin\//);
  }, 60_000);

  /** Picks the user whose e-mail is typed in the preview's user box. */
  async function pickUser(email: string) {
    const user = admin.getByTestId('mail-preview-user');
    await user.click();
    await user.fill(email);
    await admin.getByRole('option', { name: new RegExp(email.replace('.', '\\.')) }).click();
  }

  it('renders the weekly report of an advertiser (English)', async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Network settings' }).click();
    const section = admin.getByRole('region', { name: 'E-mails' });
    await section.waitFor();
    await pickUser('advertiser@demo.test');
    await section.getByRole('button', { name: 'Preview' }).click();
    const subject = section.getByTestId('mail-preview-subject');
    await subject.waitFor();
    expect(await subject.innerText()).toMatch(/^Subject: Helium Ads: your week of /);
    const frame = admin.frameLocator('[data-testid="mail-preview-html"]');
    await frame.getByText('Nordvik Outdoor, campaign #').waitFor();
    expect(await frame.locator('body').innerText()).toMatch(/Impressions: [\d,]+/);
    expect(await section.getByTestId('mail-preview-text').innerText()).toContain('Days to empty:');
  });

  it('renders a low-credit alert of a French user, with the screen in French', async () => {
    await admin.getByRole('button', { name: /Claire Dubois/ }).click();
    await admin.getByRole('menuitem', { name: 'Français' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Réglages du réseau' }).waitFor();
    const section = admin.getByRole('region', { name: 'E-mails' });
    await section.getByTestId('mail-preview-kind').click();
    await admin.getByRole('option', { name: 'Alerte de crédits bas' }).click();
    await pickUser('multi@demo.test');
    await section.getByRole('button', { name: 'Aperçu' }).click();
    await expect
      .poll(() => section.getByTestId('mail-preview-subject').innerText())
      .toMatch(/^Objet\u202f: Helium Ads\u202f: .*campagne n° \d+/);
    const frame = admin.frameLocator('[data-testid="mail-preview-html"]');
    await frame.getByText(/Ajoutez des crédits/).waitFor();
    // A user with no advertiser account has nothing to preview: said beside the form.
    await pickUser('publisher@demo.test');
    await section.getByRole('button', { name: 'Aperçu' }).click();
    await section.getByRole('alert').filter({ hasText: "Cet utilisateur n'a aucun compte" }).waitFor();
  });

  it('unsubscribes from the weekly report on the page of its link, with no session', async () => {
    // Run now, as the admin's API call does it.
    const before = product.smtp.messages.length;
    const ran = await admin.evaluate(async () => {
      const token = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '');
      const response = await fetch('/api/admin/run-job', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-xsrf-token': token },
        body: JSON.stringify({ job: 'weekly-reports' }),
      });
      return response.json();
    });
    expect(ran.sent['weekly-advertiser']).toBeGreaterThan(0);
    const mail = await product.smtp.waitForMail('advertiser@demo.test', before);
    const link = /<(http[^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];
    expect(link).toMatch(/\/unsubscribe\//);

    const stranger = await newPage(browser, product);
    await stranger.goto(link!);
    await stranger.getByRole('heading', { level: 1, name: 'Unsubscribe' }).waitFor();
    expect(await stranger.locator('body').innerText()).toContain(
      'Stop sending the weekly summary to advertiser@demo.test?',
    );
    await stranger.getByRole('button', { name: 'Unsubscribe' }).click();
    await stranger.getByRole('status').filter({ hasText: 'will no longer be sent to advertiser@demo.test' }).waitFor();
    await stranger.context().close();

    // Settings then show it off.
    const page = await settingsOf('advertiser@demo.test', 'Settings', 'Settings');
    const weekly = page
      .getByRole('region', { name: 'E-mails' })
      .getByRole('checkbox', { name: 'Weekly report by e-mail' });
    await weekly.waitFor();
    expect(await weekly.isChecked()).toBe(false);
    await page.context().close();
  });
});
