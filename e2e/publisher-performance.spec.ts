import { join } from 'node:path';
import { and, eq, gte, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { dailyPublisherStats, openDatabase, publishers, realtimeCounters, users } from '@helium/db';
import { formatDate, formatNumber } from '@helium/domain/format';
import { launchBrowser, newPage, signInThroughForm } from './support/browser.ts';
import { signedInPage } from './support/sessions.ts';
import { DEMO_BLOG_ID } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const NEW_PUBLISHER_EMAIL = 'new-publisher@demo.test';

let product: Product;
let browser: Browser;
let page: Page;
/** What the demo publisher's 'validated ads' panel must show as the 30-day average, in English. */
let expectedAverage = '';
let yesterday = '';

/**
 * The demo data plus, written while the product is stopped: known per-minute counters for the demo blog (the
 * minutes around now, so whichever minute the test runs in is the latest complete one, and one busier minute
 * earlier), known figures for yesterday and today, and a new publisher with no history, not installed.
 */
async function prepareData(dataDir: string) {
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  const { db } = database;
  try {
    const now = Date.now();
    const minute = Math.floor(now / MINUTE) * MINUTE;
    const todayStart = Math.floor(now / DAY) * DAY;
    const day = (back: number) => new Date(todayStart - back * DAY).toISOString().slice(0, 10);
    yesterday = day(1);

    await db.delete(realtimeCounters).where(eq(realtimeCounters.publisherId, DEMO_BLOG_ID));
    const perMinute = { pageviewsDesktop: 12, pageviewsMobile: 8, impressionsDesktop: 6, impressionsMobile: 4 };
    await db.insert(realtimeCounters).values([
      ...Array.from({ length: 30 }, (_, index) => ({
        publisherId: DEMO_BLOG_ID,
        minute: new Date(minute + (index - 5) * MINUTE),
        ...perMinute,
      })),
      {
        publisherId: DEMO_BLOG_ID,
        minute: new Date(minute - 60 * MINUTE),
        pageviewsDesktop: 48,
        pageviewsMobile: 20,
        impressionsDesktop: 30,
        impressionsMobile: 45,
      },
    ]);

    await db
      .delete(dailyPublisherStats)
      .where(
        and(
          eq(dailyPublisherStats.publisherId, DEMO_BLOG_ID),
          gte(dailyPublisherStats.day, day(1)),
          lte(dailyPublisherStats.day, day(0)),
        ),
      );
    await db.insert(dailyPublisherStats).values([
      { day: day(1), publisherId: DEMO_BLOG_ID, device: 'desktop', pageviews: 1000, impressions: 500 },
      { day: day(1), publisherId: DEMO_BLOG_ID, device: 'mobile', pageviews: 800, impressions: 600 },
      { day: day(0), publisherId: DEMO_BLOG_ID, device: 'desktop', pageviews: 2000, impressions: 1234 },
      { day: day(0), publisherId: DEMO_BLOG_ID, device: 'mobile', pageviews: 300, impressions: 100 },
    ]);
    const history = await db
      .select()
      .from(dailyPublisherStats)
      .where(
        and(
          eq(dailyPublisherStats.publisherId, DEMO_BLOG_ID),
          gte(dailyPublisherStats.day, day(30)),
          lte(dailyPublisherStats.day, day(1)),
        ),
      );
    // Spread over the days from the first with data to yesterday (the 30 of the seed), days without data as 0.
    const firstDay = Math.min(...history.map((row) => Date.parse(`${row.day}T00:00:00Z`)));
    const days = Math.round((todayStart - firstDay) / DAY);
    const total = history.reduce((sum, row) => sum + row.impressions, 0);
    expectedAverage = formatNumber(total / days, 'en');

    const [user] = await db
      .insert(users)
      .values({
        name: 'Nina Petit',
        email: NEW_PUBLISHER_EMAIL,
        locale: 'en',
        currentType: 1,
        agreedAt: new Date(),
      })
      .returning();
    const [publisher] = await db
      .insert(publishers)
      .values({ userId: user!.id, brand: 'Nouveau Site', isWeb: true, domain: 'nouveau-site.example' })
      .returning();
    await db.update(users).set({ currentAccountId: publisher!.id }).where(eq(users.id, user!.id));
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  const first = await startProduct();
  await first.stop({ keepData: true });
  await prepareData(first.dataDir);
  product = await startProduct({}, { dataDir: first.dataDir });
  browser = await launchBrowser();
  page = await signedInPage(browser, product, 'publisher@demo.test');
  await page.waitForURL('**/publisher/accounting');
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The lines of an element's text (paragraphs are separated by blank lines in innerText). */
const lines = async (locator: ReturnType<Page['getByTestId']>) => (await locator.innerText()).split(/\n+/);

const dial = (name: string) => page.getByRole('meter', { name, exact: true });

async function readDial(name: string) {
  const meter = dial(name);
  await meter.waitFor({ state: 'visible' });
  return {
    label: await meter.getByTestId('dial-label').innerText(),
    value: await meter.getByTestId('dial-value').innerText(),
    max: await meter.getAttribute('aria-valuemax'),
    text: await meter.innerText(),
  };
}

// These run in file order on one signed-in page.
describe('Publisher Performance', () => {
  it('shows the live dials, the validated ads panel and one row per day', async () => {
    const realtimeCalls: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/publisher/get-realtime-performance')) realtimeCalls.push(Date.now());
    });
    await page.getByRole('navigation').getByRole('link', { name: 'Performance' }).click();
    await page.waitForURL('**/publisher/performance');
    await page.getByRole('heading', { level: 1, name: 'Performance' }).waitFor();

    expect(await readDial('Desktop pageviews per minute')).toMatchObject({
      label: 'Desktop pageviews per minute',
      value: '12',
      max: '48',
    });
    expect(await readDial('Mobile pageviews per minute')).toMatchObject({ value: '8', max: '20' });
    // The two impressions dials share the larger of their maxima (45, not 30).
    const impressionsDesktop = await readDial('Desktop impressions per minute');
    expect(impressionsDesktop).toMatchObject({ value: '6', max: '45' });
    expect(impressionsDesktop.text).toContain('max 45 in the last 24 hours');
    expect(await readDial('Mobile impressions per minute')).toMatchObject({ value: '4', max: '45' });
    // The gauge of specification 02 section 9: 150 px, 21 ticks and a needle, 0 and the maximum written on it.
    const face = dial('Desktop impressions per minute').getByTestId('dial-face');
    expect(await face.getAttribute('width')).toBe('150');
    expect(await face.locator('line').count()).toBe(21 + 1);
    expect(await face.locator('text').allTextContents()).toEqual(['0', '45']);

    const panel = page.getByTestId('validated-ads');
    expect(await panel.getByRole('heading').innerText()).toBe('Validated ads');
    expect(await lines(panel.getByTestId('validated-today'))).toEqual(['Validated impressions today', '1,334']);
    expect(await lines(panel.getByTestId('validated-average'))).toEqual([
      'Average per day over the last 30 days',
      expectedAverage,
    ]);

    const rows = page.getByTestId('performance-day');
    expect(await rows.count()).toBe(30);
    const first = rows.first();
    expect(await first.getAttribute('data-day')).toBe(yesterday);
    expect(await first.getByTestId('day-label').innerText()).toBe(formatDate(yesterday, 'en'));
    const desktop = first.getByTestId('day-desktop');
    expect(await desktop.getByTestId('pageviews').innerText()).toBe('1,000 pageviews');
    expect(await desktop.getByTestId('views').innerText()).toBe('500 views · 50.0%');
    // Half the desktop pageviews had no validated ad: below 60%, shown red.
    const desktopMissing = desktop.getByTestId('missing');
    expect(await desktopMissing.innerText()).toBe('50.0% of pageviews without a validated ad');
    expect(await desktopMissing.getAttribute('data-low')).toBe('true');
    const mobile = first.getByTestId('day-mobile');
    expect(await mobile.getByTestId('views').innerText()).toBe('600 views · 75.0%');
    expect(await mobile.getByTestId('missing').getAttribute('data-low')).toBe('false');
    expect(await first.getByTestId('day-total').innerText()).toBe('1,100');

    // The realtime figures are asked again every 10 s while the screen is open.
    await expect.poll(() => realtimeCalls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const gap = realtimeCalls[1]! - realtimeCalls[0]!;
    expect(gap).toBeGreaterThan(9_000);
    expect(gap).toBeLessThan(13_000);
  });

  it('shows French labels and numbers when the user chooses French', async () => {
    await page.getByRole('button', { name: /Julien Martin/ }).click();
    await page.getByRole('menuitem', { name: 'Français' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).first().innerText()).toBe('Publicités validées');
    expect(await readDial('Pages vues ordinateur par minute')).toMatchObject({ value: '12', max: '48' });
    expect((await readDial('Impressions mobile par minute')).text).toContain('max 45 sur les dernières 24 heures');
    const panel = page.getByTestId('validated-ads');
    expect(await lines(panel.getByTestId('validated-today'))).toEqual([
      "Impressions validées aujourd'hui",
      formatNumber(1334, 'fr'),
    ]);
    const first = page.getByTestId('performance-day').first();
    expect(await first.getByTestId('day-label').innerText()).toBe(formatDate(yesterday, 'fr'));
    expect(await first.getByTestId('day-desktop').getByTestId('views').innerText()).toBe('500 vues · 50,0 %');
    expect(await first.getByTestId('day-desktop').getByTestId('missing').innerText()).toBe(
      '50,0 % des pages vues sans publicité validée',
    );
    expect(await page.getByRole('columnheader', { name: 'Ordinateur' }).count()).toBe(1);
  });

  it('shows a publisher without history the empty state, with the link to the installation', async () => {
    const other = await newPage(browser, product);
    try {
      await signInThroughForm(other, product, NEW_PUBLISHER_EMAIL);
      // Its script not installed yet, it starts on Installation.
      await other.waitForURL('**/publisher/installation');
      await other.getByRole('navigation').getByRole('link', { name: 'Performance' }).click();
      const empty = other.getByTestId('performance-empty');
      await empty.waitFor({ state: 'visible' });
      expect(await empty.getByRole('heading').innerText()).toBe('No performance yet');
      expect(await empty.innerText()).toContain('Install the Helium Ads script on your site');
      expect(await other.getByRole('meter').count()).toBe(0);
      expect(await other.getByTestId('validated-ads').count()).toBe(0);
      const link = empty.getByRole('link', { name: 'Install the script' });
      expect(await link.getAttribute('href')).toBe('/publisher/installation');
      await link.click();
      await other.waitForURL('**/publisher/installation');
      await other.getByRole('heading', { level: 1, name: 'Installation' }).waitFor();
    } finally {
      await other.context().close();
    }
  });
});
