import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { sharedProduct, type SharedProduct } from './support/sessions.ts';

// On the shared product: this reads files and the sign-in page.
let product: SharedProduct;
let browser: Browser;

beforeAll(async () => {
  product = sharedProduct();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A GET as a client that accepts only `encoding`: its status and headers, the body left undecoded. */
function headersOf(url: string, encoding: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const request = httpRequest(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the web app as the server sends it (issue 26, point 1)', () => {
  it('sends every script and style compressed (brotli to Chromium), hashed files immutable, index.html no-cache', async () => {
    const page = await newPage(browser, product);
    const assets: Promise<{ url: string; bytes: number; encoding?: string; cache?: string }>[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/')) {
        assets.push(
          response.body().then((body) => ({
            url: response.url(),
            bytes: body.length,
            encoding: response.headers()['content-encoding'],
            cache: response.headers()['cache-control'],
          })),
        );
      }
    });
    const document = await page.goto('/signin');
    await page.waitForLoadState('networkidle');
    expect(document?.headers()['cache-control']).toBe('no-cache');
    // Under 1 KB the document too is sent as it is (it is about 750 bytes since zod left it: vite.config.ts).
    const documentBytes = (await document?.body())?.length ?? 0;
    expect(document?.headers()['content-encoding']).toBe(documentBytes >= 1024 ? 'br' : undefined);
    const scriptsAndStyles = (await Promise.all(assets)).filter((asset) => /\.(js|css)$/.test(asset.url));
    expect(scriptsAndStyles.length).toBeGreaterThan(3);
    for (const asset of scriptsAndStyles) {
      expect(asset.cache, asset.url).toBe('public, max-age=31536000, immutable');
      // Under 1 KB a file is sent as it is (apps/web/vite.config.ts, MIN_COMPRESS_BYTES).
      if (asset.bytes >= 1024) expect(asset.encoding, asset.url).toBe('br');
    }
    await page.context().close();
  });

  it('sends gzip to a client that asks only for gzip, and the plain file to one that asks for neither', async () => {
    const html = await (await fetch(`${product.url}/signin`, { headers: { accept: 'text/html' } })).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const gzip = await headersOf(`${product.url}${script}`, 'gzip');
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    const plain = await headersOf(`${product.url}${script}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('the sign-in page (issue 26, details)', () => {
  it('loads without any console error or failed request (no 401 from the "who is signed in" probe)', async () => {
    const page = await newPage(browser, product);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto('/signin');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Connexion');
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('draws the bitcoin sign with the bundled fallback where the system fonts lack it', async () => {
    const page = await newPage(browser, product);
    await page.goto('/signin');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(async () => {
      const span = document.createElement('span');
      span.id = 'bitcoin-sign';
      span.textContent = '\u20BF0.00012345';
      document.body.append(span);
      await document.fonts.ready;
      const faces: Promise<unknown>[] = [];
      document.fonts.forEach((face) => faces.push(face.load().catch(() => undefined)));
      await Promise.all(faces);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#bitcoin-sign' });
    const platformFonts = async () => (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts;
    // One glyph (the sign) from the bundled face; the digits from the system's.
    await expect
      .poll(async () => (await platformFonts()).find((font) => font.familyName === 'Helium Bitcoin Sign')?.glyphCount)
      .toBe(1);
    await page.context().close();
  });
});
