import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openDatabase } from '@helium/db';
import { launchBrowser } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { startProduct, type Product } from './support/product.ts';

/*
 * Admin Stats, the admin's home (issue 24): the admin signs in and lands on Stats, reads the revenue split
 * (h + p + s = total, to the cent), the network figures, the web publishers' table with its totals row, ticks the
 * most-frequent-URLs checkbox, and reads it all again in French. The money audit (issue 32): Run now, its loading
 * state and its result; then an invariant broken in the database while the product is stopped is shown with its
 * rows and mailed to the admin.
 */

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await signedInPage(browser, product, 'admin@demo.test');
  await page.waitForURL('**/admin/stats');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const cells = async (testId: string) =>
  (await page.getByTestId(testId).locator('td').allInnerTexts()).map((cell) => cell.trim());

describe('admin Stats', () => {
  it('is the home page: revenue yesterday and projected, reconciled, and the network figures', async () => {
    await page.getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
    await page.getByTestId('admin-stats-revenue').waitFor();
    const parseEn = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);
    for (const row of ['revenue-yesterday', 'revenue-projected']) {
      const [h, p, s, total] = await cells(row);
      for (const text of [h, p, s, total]) expect(text).toMatch(/^-?[\d,]+\.\d{2} €$/);
      expect(parseEn(h!) + parseEn(p!) + parseEn(s!)).toBe(parseEn(total!));
    }
    expect(parseEn((await cells('revenue-projected'))[3]!)).toBeGreaterThan(0);
    expect(await page.getByTestId('figure-ctr').innerText()).toMatch(/Network CTR\s*[\d.]+%/);
    expect(await page.getByTestId('figure-buy-cpm').innerText()).toMatch(/Buy CPM\s*[\d,.]+ €/);
    expect(await page.getByTestId('admin-stats-footnote').innerText()).toBe(
      'Figures are a daily average over the past 7 days.',
    );
  });

  it('lists the web publishers with a totals row, and the most frequent URLs on demand', async () => {
    const table = page.getByTestId('admin-stats-publishers');
    const blog = table.locator('tbody tr', { hasText: 'Demo Blog' });
    await blog.waitFor();
    expect(await blog.locator('td').count()).toBe(9);
    expect(await blog.getByTestId('desktop-validated').innerText()).toMatch(/^[\d,]+ \/ [\d,]+ \([\d.]+%\)$/);
    expect(await page.getByTestId('stats-totals').locator('td').first().innerText()).toBe('Total');
    await page.getByTestId('show-urls').click();
    await page.getByTestId('frequent-urls').first().waitFor();
  });

  it('reads in French', async () => {
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await page.getByRole('heading', { level: 2, name: 'Éditeurs web' }).waitFor();
    await expect
      .poll(() => page.getByTestId('admin-stats-footnote').innerText())
      .toBe('Les chiffres sont une moyenne quotidienne des 7 derniers jours.');
    await expect.poll(async () => (await cells('revenue-yesterday'))[3]).toMatch(/,\d{2} €$/);
    const [h, , , total] = await cells('revenue-yesterday');
    expect(h).toMatch(/^-?[\d  ]+,\d{2} €$/);
    expect(total).toMatch(/^[\d  ]+,\d{2} €$/);
    // The server writes the figures' texts in the user's language: read again once the language changed.
    await expect.poll(() => page.getByTestId('figure-ctr').innerText()).toMatch(/CTR du réseau\s*[\d,]+ %/);
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { level: 2, name: 'Web publishers' }).waitFor();
  });
});

describe('the money audit on Stats', () => {
  const audit = () => page.getByTestId('money-audit');
  const runNow = () => audit().getByRole('button', { name: 'Run now' });

  it('has not run yet; Run now says it is running, then shows every invariant holding', async () => {
    await audit().getByRole('heading', { level: 2, name: 'Money audit' }).waitFor();
    await expect.poll(() => audit().innerText()).toContain('The audit has not run yet.');
    // The answer is held until the screen has shown that the audit is running.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/run-money-audit', async (route) => {
      await held;
      await route.continue();
    });
    await runNow().click();
    await audit().getByRole('status').waitFor();
    expect(await audit().getByRole('status').innerText()).toBe('Checking every invariant…');
    expect(await runNow().isDisabled()).toBe(true);
    release();
    await page.getByTestId('money-audit-state').waitFor();
    expect(await page.getByTestId('money-audit-state').innerText()).toMatch(/^Every invariant holds$/i);
    expect(await page.getByTestId('money-audit-time').innerText()).toMatch(/^Last run .+ UTC \(run by an admin\)$/);
    const checks = page.getByTestId('money-audit-checks').locator('tbody tr');
    expect(await checks.count()).toBe(7);
    expect(await checks.locator('td:nth-child(2)').allInnerTexts()).toEqual(Array<string>(7).fill('Holds'));
    expect(await checks.first().locator('td').first().innerText()).toBe(
      'Each day, advertiser cost (+ trial cost) = publisher + sales rep + company revenue',
    );
    expect(await audit().getByRole('status').count()).toBe(0);
    await page.unroute('**/api/admin/run-money-audit');
  });

  it('shows an invariant broken in the database with its rows, mails it, and reads in French', async () => {
    // A stored balance changed by hand while the product is stopped.
    await product.stop({ keepData: true });
    const database = await openDatabase({ pgliteDir: join(product.dataDir, 'db') });
    let blog = 0;
    try {
      const result = (await database.db.execute(
        sql`update ledger_balances set balance = balance + 1 where account_type = 'publisher'
          and account_id = (select id from publishers where brand = 'Demo Blog') returning account_id`,
      )) as unknown as { rows: Array<{ account_id: number }> };
      blog = Number(result.rows[0]!.account_id);
    } finally {
      await database.close();
    }
    product = await startProduct({}, { dataDir: product.dataDir });
    await page.context().close();
    page = await signedInPage(browser, product, 'admin@demo.test');
    await page.waitForURL('**/admin/stats');
    // The last run is the one stored before the stop.
    await page.getByTestId('money-audit-state').waitFor();
    expect(await page.getByTestId('money-audit-state').innerText()).toMatch(/^Every invariant holds$/i);

    const mails = product.smtp.messages.length;
    await runNow().click();
    await expect.poll(() => page.getByTestId('money-audit-state').innerText()).toMatch(/^Invariants broken: 1$/i);
    const broken = page.getByTestId('money-audit-check-ledgerBalances');
    expect(await broken.getAttribute('data-ok')).toBe('false');
    expect(await broken.locator('td').nth(1).innerText()).toBe('Rows breaking it: 1');
    const rows = page.getByTestId('money-audit-rows-ledgerBalances');
    expect(await rows.locator('th').allInnerTexts()).toEqual(['accountType', 'accountId', 'stored', 'ledger']);
    const [type, account, stored, ledger] = await rows.locator('tbody td').allInnerTexts();
    expect([type, Number(account)]).toEqual(['publisher', blog]);
    expect(Number(stored) - Number(ledger)).toBe(1);
    const mail = await product.smtp.waitForMail('admin@demo.test', mails);
    expect(mail.subject).toBe('Helium Ads: the money audit found 1 broken invariant');
    expect(mail.text).toContain(`accountType: publisher, accountId: ${blog}, stored: ${stored}, ledger: ${ledger}`);

    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await audit().getByRole('heading', { level: 2, name: 'Audit de l’argent' }).waitFor();
    expect(await page.getByTestId('money-audit-state').innerText()).toMatch(/^Invariants rompus\u202f: 1$/i);
    expect(await broken.locator('td').first().innerText()).toBe(
      'Le solde de chaque compte = la somme de ses écritures',
    );
    expect(await audit().getByRole('button', { name: 'Lancer maintenant' }).count()).toBe(1);
    await page.getByRole('button', { name: /Claire Dubois/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await audit().getByRole('heading', { level: 2, name: 'Money audit' }).waitFor();
  });
});
