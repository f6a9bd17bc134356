import { chromium, type Browser, type Dialog, type Page } from 'playwright-core';
import { codeFrom } from '../../apps/api/test/smtp-catcher.ts';
import { findSystemTool } from '../../scripts/system-tools.mjs';
import type { Product } from './product.ts';

/**
 * Debian's Chromium, headless, with the flags this machine's closed network needs; `resolving` names hosts
 * the browser must reach on this machine (a publisher's site served under its registered domain).
 */
export async function launchBrowser(options: { resolving?: string[] } = {}): Promise<Browser> {
  const resolving = options.resolving ?? [];
  // The same Chromium that `npm test`'s pretest found or installed: CHROMIUM_PATH, else Debian's.
  const executablePath = findSystemTool('chromium');
  if (!executablePath)
    throw new Error('Chromium not found: run npm test (its pretest installs it) or set CHROMIUM_PATH');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...(resolving.length > 0
        ? [`--host-resolver-rules=${resolving.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`]
        : []),
    ],
  });
}

/** A page of a new context (signed out, in English) on `product`: a started one or the shared one. */
export async function newPage(browser: Browser, product: { url: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: product.url, locale: 'en-US' });
  return context.newPage();
}

/** Signs in through the sign-in form as a person would, reading the code from the e-mail. */
export async function signInThroughForm(
  page: Page,
  product: Product,
  email: string,
  options: { agree?: boolean } = {},
) {
  await page.goto('/signin');
  await page.getByLabel('Adresse e-mail').fill(email);
  const before = product.smtp.messages.length;
  await page.getByRole('button', { name: 'Continuer' }).click();
  const code = codeFrom(await product.smtp.waitForMail(email, before));
  if (options.agree) await page.getByRole('checkbox', { name: /conditions/i }).check();
  await page.getByLabel('Code de connexion').fill(code);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Accepts every browser confirm and alert on the page, keeping their texts. */
export function acceptDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog: Dialog) => {
    seen.push(dialog.message());
    void dialog.accept();
  });
  return seen;
}
