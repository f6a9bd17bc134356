import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

let t: TestApp;
let https: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  https = await buildTestApp({ env: { APP_URL: 'https://ads.example.test' } });
});
afterAll(async () => {
  await t?.close();
  await https?.close();
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

const page = (app: TestApp, url = '/') => app.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

describe('security headers (issue 21, point 6)', () => {
  it('sends the web app with a CSP that allows no inline or foreign script, and cannot be framed', async () => {
    const response = await page(t, '/advertiser/activity');
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends the same headers with an /api answer, and with a refusal', async () => {
    const answer = await t.client().post('/api/common/user');
    expect(answer.statusCode).toBe(401);
    const refused = await t.app.inject({ method: 'POST', url: '/api/common/user' });
    expect(refused.statusCode).toBe(419);
    for (const response of [answer, refused]) {
      expect(directives(response.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('keeps the publisher script and the serving routes loadable from other sites', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/serve/script.js' });
    expect(script.headers['access-control-allow-origin']).toBe('*');
    expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    // The click redirect keeps the publisher page's referrer for the advertiser, as before.
    const click = await t.app.inject({ method: 'GET', url: '/c/not-a-token' });
    expect(click.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(click.headers['referrer-policy']).toBeUndefined();
    const media = await t.app.inject({ method: 'GET', url: `/media/${'a'.repeat(64)}.png` });
    expect(media.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('adds HSTS and upgrades insecure requests only when APP_URL is https', async () => {
    const response = await page(https);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(directives(response.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
    const api = await https.app.inject({ method: 'POST', url: '/api/common/user' });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});

describe('the built web app: compression and caching (issue 26, point 1)', () => {
  /** The first hashed script index.html names, as the browser would load it. */
  async function firstScript(): Promise<string> {
    const html = (await page(t)).body;
    const src = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    return src!;
  }

  it('sends a hashed script brotli- or gzip-compressed as asked, cached for a year, immutable', async () => {
    const src = await firstScript();
    const plain = await t.app.inject({ method: 'GET', url: src });
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url: src, headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    }
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('has index.html revalidated on every visit, for the root and for a client route', async () => {
    for (const url of ['/', '/advertiser/activity', '/signin']) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': 'br' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-type']).toMatch(/text\/html/);
      // Under 1 KB (about 750 bytes) the document is sent as it is: a compressed copy would save less than its headers.
      const documentBytes = statSync(join(t.app.ctx.config.webDistDir, 'index.html')).size;
      expect(response.headers['content-encoding']).toBe(documentBytes >= 1024 ? 'br' : undefined);
    }
    expect((await page(t, '/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });
});
