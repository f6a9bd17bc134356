import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { formatPercent, type Locale } from '@helium/domain/format';
import { niceAxis } from '../apps/web/src/features/advertiser-activity/utils/chartScale.ts';
import { launchBrowser } from './support/browser.ts';
import { startProduct, type Product } from './support/product.ts';
import { ADVERTISER, callFromPage, openScreen, ROLES, signIn } from './support/screens.ts';

/*
 * Nothing cut off or unreadable (issue 36, point 7), in English and French, at 1280 and 390 px: the status badges of
 * Admin Stats and Accounts whole, the Activity budget boxes whole, Add credits' value bubble clear of its heading,
 * icons drawn in SVG, and the Activity chart legible on a phone (labels of 11 px at least, clicks on their own axis,
 * French percents written exactly).
 */

const VIEWPORTS = [
  { name: '1280 px', width: 1280, height: 800 },
  { name: '390 px', width: 390, height: 844 },
];
const LANGUAGES: Array<{ locale: Locale; add: string }> = [
  { locale: 'en', add: 'Add' },
  { locale: 'fr', add: 'Ajouter' },
];
const ADMIN = ROLES[0];

let product: Product;
let browser: Browser;
let admin: Page;
let advertiser: Page;

async function signedIn(email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: product.url, locale: 'en-US', viewport: VIEWPORTS[0] });
  const page = await context.newPage();
  await signIn(page, product, email);
  return page;
}

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  admin = await signedIn(ADMIN.email);
  advertiser = await signedIn(ADVERTISER.email);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The elements whose text is wider than their box (cut or ended with an ellipsis), each as its text and widths. */
function cutOff(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((elements) =>
    elements
      .filter((element) => element.scrollWidth > element.clientWidth)
      .map((element) => {
        const text = element instanceof HTMLInputElement ? element.value : element.textContent;
        return `${text}: ${element.scrollWidth} px in ${element.clientWidth} px`;
      }),
  );
}

function intersects(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe.each(LANGUAGES)('in $locale', ({ locale, add }) => {
  beforeAll(async () => {
    for (const page of [admin, advertiser]) {
      await callFromPage(page, '/api/common/update-user', { key: 'locale', value: locale });
    }
  });

  afterAll(async () => {
    for (const page of [admin, advertiser]) {
      await callFromPage(page, '/api/common/update-user', { key: 'locale', value: 'en' });
    }
  });

  describe.each(VIEWPORTS)('at $name', (viewport) => {
    beforeAll(async () => {
      await admin.setViewportSize(viewport);
      await advertiser.setViewportSize(viewport);
    });

    it.each(['/admin/stats', '/admin/accounts'])('%s shows every status badge whole', async (path) => {
      await openScreen(admin, path);
      const badges = admin.locator('main .mantine-Badge-root, main .mantine-Badge-label');
      expect(await badges.count()).toBeGreaterThan(0);
      expect(await cutOff(badges)).toEqual([]);
    });

    it("Admin Activity draws a campaign's showing or paused sign in SVG, not a character", async () => {
      await openScreen(admin, '/admin/activity-by-advertiser');
      const states = admin.getByTestId('showing-state');
      expect(await states.count()).toBeGreaterThan(0);
      for (const state of await states.all()) {
        expect(await state.locator('svg').count()).toBe(1);
        expect(await state.innerText()).not.toMatch(/[\u2300-\u23FF\u25A0-\u25FF]/u);
      }
      expect(await cutOff(states.locator('.mantine-Badge-label'))).toEqual([]);
    });

    it('Activity shows each budget box whole', async () => {
      await openScreen(advertiser, '/advertiser/activity');
      const boxes = advertiser.locator('main input[aria-label="Budget"]');
      expect(await boxes.count()).toBeGreaterThan(0);
      expect(await cutOff(boxes)).toEqual([]);
      expect(await cutOff(advertiser.locator('main .mantine-Badge-label'))).toEqual([]);
    });

    it("Add credits keeps the slider's value bubble clear of its heading", async () => {
      await openScreen(advertiser, '/advertiser/activity');
      await advertiser.getByRole('button', { name: add, exact: true }).click();
      const dialog = advertiser.getByRole('dialog');
      const thumb = dialog.getByRole('slider');
      await thumb.waitFor();
      await thumb.hover();
      await thumb.focus();
      const bubble = dialog.locator('.mantine-Slider-label');
      await bubble.waitFor();
      const bubbleBox = await bubble.boundingBox();
      expect(bubbleBox).not.toBeNull();
      for (const heading of [dialog.locator('#buy-quantity-label'), dialog.getByTestId('buy-quantity')]) {
        const box = await heading.boundingBox();
        expect(box).not.toBeNull();
        expect(intersects(bubbleBox!, box!)).toBe(false);
      }
      await advertiser.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });

    it('draws the Activity chart legibly: labels of 11 px at least, apart, clicks on their own axis', async () => {
      await openScreen(advertiser, '/advertiser/activity');
      const chart = advertiser.getByTestId('activity-chart').locator('svg[role="img"]');
      await chart.waitFor();
      // The size a label is drawn at: its font size times the drawing's scale (an SVG narrower than its viewBox shrinks).
      const sizes = await chart.evaluate((svg) => {
        const element = svg as SVGSVGElement;
        const scale = element.getBoundingClientRect().width / element.viewBox.baseVal.width;
        return Array.from(element.querySelectorAll('text')).map(
          (text) => parseFloat(getComputedStyle(text).fontSize) * scale,
        );
      });
      expect(sizes.length).toBeGreaterThan(0);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);

      // The day labels do not overlap and stay inside the drawing.
      const svgBox = (await chart.boundingBox())!;
      const days = await chart
        .locator('[data-axis="days"] text')
        .evaluateAll((texts) =>
          texts.map((text) => text.getBoundingClientRect()).map(({ x, width }) => ({ x, width })),
        );
      expect(days.length).toBeGreaterThanOrEqual(2);
      if (viewport.width < 500) expect(days.length).toBeLessThanOrEqual(4);
      for (const [index, day] of days.entries()) {
        expect(day.x).toBeGreaterThanOrEqual(svgBox.x);
        expect(day.x + day.width).toBeLessThanOrEqual(svgBox.x + svgBox.width + 0.5);
        if (index > 0) expect(day.x).toBeGreaterThan(days[index - 1]!.x + days[index - 1]!.width);
      }

      // Clicks have an axis of their own, on the right, and their line is not flat against impressions.
      const impressionsAxis = await chart
        .locator('[data-axis="impressions"] text')
        .evaluateAll((texts) => texts.map((text) => text.getBoundingClientRect()));
      const clicksAxis = await chart
        .locator('[data-axis="clicks"] text')
        .evaluateAll((texts) => texts.map((text) => text.getBoundingClientRect()));
      expect(clicksAxis.length).toBeGreaterThanOrEqual(2);
      expect(Math.min(...clicksAxis.map((box) => box.x))).toBeGreaterThan(
        Math.max(...impressionsAxis.map((box) => box.x + box.width)),
      );
      const spread = (series: string) =>
        chart.locator(`[data-series="${series}"] circle`).evaluateAll((circles) => {
          const ys = circles.map((circle) => Number(circle.getAttribute('cy')));
          return Math.max(...ys) - Math.min(...ys);
        });
      const bandHeight =
        Math.max(...impressionsAxis.map((box) => box.y)) - Math.min(...impressionsAxis.map((box) => box.y));
      expect(await spread('clicks')).toBeGreaterThan(bandHeight / 4);

      // The CTR axis: percents written exactly, in the user's language (1.25 % is "1,25 %" in French, never "1,3 %").
      const ctrLabels = await chart.locator('[data-axis="ctr"] text').allTextContents();
      const ctrs = await chart.locator('[data-series="ctr"] circle title').allTextContents();
      // A percent as written in either language ("1.25%", "1,25 %") as a number.
      const percent = (text: string) => Number(/(\d+(?:[.,]\d+)?)\s?%$/.exec(text)![1]!.replace(',', '.'));
      const axis = niceAxis(Math.max(...ctrs.map(percent)), 2);
      expect(ctrLabels).toEqual(axis.ticks.map((tick) => formatPercent(tick, locale, axis.decimals)));
      expect(ctrLabels.every((label) => (locale === 'fr' ? /^\d+(,\d+)? %$/ : /^\d+(\.\d+)?%$/).test(label))).toBe(
        true,
      );
      const values = ctrLabels.map(percent);
      const step = values[1]! - values[0]!;
      for (const [index, value] of values.entries()) expect(value).toBeCloseTo(index * step, 9);
    });
  });
});
