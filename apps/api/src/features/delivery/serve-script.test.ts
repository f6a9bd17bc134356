import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHER_EXTRAS_FILE, PUBLISHER_SCRIPT_FILE } from './publisher-script-files.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
// The script as built (npm run build, which the tests' set-up runs).
const built = readFileSync(PUBLISHER_SCRIPT_FILE);
/** The script's version: the start of its content's SHA-256, so that a new build is a new version. */
const version = createHash('sha256').update(built).digest('hex').slice(0, 10);

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const getScript = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /serve/script.js', () => {
  it('answers the built script, cached for 5 minutes with its version as etag, open to any origin', async () => {
    const response = await getScript('/serve/script.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers.etag).toBe(`"${version}"`);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(built)).toBe(true);
  });

  it('is cached for a year under its current version only', async () => {
    const current = await getScript(`/serve/script.js?v=${version}`);
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const stale = await getScript('/serve/script.js?v=0123456789');
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers gzip to browsers that accept it, the same script once decompressed, within the 2 KB budget', async () => {
    const response = await getScript('/serve/script.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('accept-encoding');
    expect(response.rawPayload.length).toBeLessThanOrEqual(2 * 1024);
    expect(response.rawPayload.length).toBeLessThan(built.length);
    expect(gunzipSync(response.rawPayload).equals(built)).toBe(true);
    // gzip refused with q=0: the plain script.
    const refused = await getScript('/serve/script.js', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(built)).toBe(true);
  });

  it('answers an empty 304 to a browser that already has this version, and the script to one with another', async () => {
    const etag = `"${version}"`;
    const same = await getScript('/serve/script.js', { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    expect(same.headers.etag).toBe(etag);
    const weak = await getScript('/serve/script.js', { 'if-none-match': `"other", W/${etag}` });
    expect(weak.statusCode).toBe(304);
    const other = await getScript('/serve/script.js', { 'if-none-match': '"0123456789"' });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.equals(built)).toBe(true);
  });
});

describe('GET /serve/extras.js', () => {
  it("is the module at the script's import, cached a year under that version, open to any origin", async () => {
    const address = /"(\/serve\/extras\.js\?v=[0-9a-f]{10})"/.exec(built.toString())?.[1];
    expect(address).toBeDefined();
    const response = await getScript(address!);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A module script is fetched with CORS: without this header the browser refuses it.
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.rawPayload.equals(readFileSync(PUBLISHER_EXTRAS_FILE))).toBe(true);
    expect(response.body).toMatch(/export\s*\{/);
    const gzipped = await getScript(address!, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzipped.rawPayload).equals(response.rawPayload)).toBe(true);
  });

  it('is cached 5 minutes under another version', async () => {
    const stale = await getScript('/serve/extras.js?v=0123456789');
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('CORS preflight of the serving endpoints', () => {
  it('allows GET and POST with a content type from any origin, without credentials', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/serve/v',
      headers: {
        origin: 'https://publisher.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(response.headers['access-control-allow-headers']).toBe('content-type');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
