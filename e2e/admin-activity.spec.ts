import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { sharedProduct, signedInPage } from './support/sessions.ts';

// On the shared product: the toggles here are the screen's own state, nothing saved.
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await signedInPage(browser, sharedProduct(), 'admin@demo.test');
  await page.waitForURL('**/admin/stats');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const nav = () => page.getByRole('navigation', { name: 'Main navigation' });

describe('admin activity views', () => {
  it('Activity by Advertiser lists the campaigns with pricing, credits and pace', async () => {
    await nav().getByRole('link', { name: 'Activity by Advertiser' }).click();
    await page.waitForURL('**/admin/activity-by-advertiser');
    const card = page.locator('[data-testid^="campaign-card-"]').filter({ hasText: 'Nordvik Outdoor' });
    await card.waitFor();
    expect(await card.getByText('CPM 2.50 €').count()).toBe(1);
    expect(await card.innerText()).toMatch(/Impressions: [\d,]+/);
    expect(await card.innerText()).toMatch(/CPC equivalent [\d.,]+ €/);
    expect(await card.innerText()).toMatch(/[\d,]+ impressions left \([\d.]+%\)/);
    expect(await card.innerText()).toMatch(/Yesterday: [\d,]+ impressions/);
    // Showing, with its days to empty in the colour of its threshold.
    expect(await card.getAttribute('data-showing')).toBe('true');
    expect(await card.getByTestId('days-to-empty').innerText()).toMatch(/^Empty in [\d,]+ Days$/);
    expect(await card.getByTestId('campaign-header').getAttribute('data-colour')).toBe('green');
    const ceramics = page.locator('[data-testid^="campaign-card-"]').filter({ hasText: 'Atelier Céramique' });
    expect(await ceramics.getByText('CPC 0.30 €').count()).toBe(1);
    // Click-priced: CPM 0, so its header is red although its figures give it a CPM equivalent (issue 26).
    expect(await ceramics.getByTestId('campaign-header').getAttribute('data-colour')).toBe('red');
  });

  it('Activity by Publisher shows each publisher with its modes, shares and ad cards', async () => {
    await nav().getByRole('link', { name: 'Activity by Publisher' }).click();
    await page.waitForURL('**/admin/activity-by-publisher');
    const anchors = page.getByRole('navigation', { name: 'Publishers' });
    await anchors.getByRole('link', { name: 'Demo Blog' }).waitFor();
    const href = await anchors.getByRole('link', { name: 'Demo Blog' }).getAttribute('href');
    expect(href).toMatch(/^#publisher-\d+$/);
    const section = page.locator(href as string);
    expect(await section.getByRole('heading', { level: 2 }).innerText()).toMatch(/^Demo Blog \(#\d+\)$/);
    const desktop = section.locator('[data-testid$="-desktop"]').first();
    expect(['AutoPilot', 'Balancer']).toContain((await desktop.getByTestId('mode-indicator').textContent())?.trim());
    expect(await desktop.innerText()).toMatch(/[\d,]+ \/ [\d,]+ impressions today/);
    expect(await desktop.getByTestId('card-window').innerText()).toBe(
      "Each ad's impressions, clicks and CTR: the last 7 days on this display.",
    );
    expect(await desktop.textContent()).toMatch(/Balancer [\d.]+%/);
    expect(await section.locator('[data-testid^="ad-card-"]').count()).toBeGreaterThan(0);
  });

  it('switches the sort to advertiser, which resets the complete/inactive toggle', async () => {
    const toggle = page.getByRole('checkbox', { name: 'Include complete campaigns and inactive ads' });
    await toggle.check();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.getByRole('navigation', { name: 'Publishers' }).waitFor();
    await page.getByText('Advertiser', { exact: true }).click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await page.locator('[data-testid^="campaign-card-"]').filter({ hasText: 'Nordvik Outdoor' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Publishers' }).count()).toBe(0);
    await page.getByText('Publisher', { exact: true }).click();
    await page.getByRole('navigation', { name: 'Publishers' }).waitFor();
  });
});
