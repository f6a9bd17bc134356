import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../test/helper.ts';
import { MIN_COMPRESSED_ANSWER_BYTES } from './compress-answers.ts';

describe('compressed API answers', () => {
  let t: TestApp;
  let advertiser: TestClient;

  beforeAll(async () => {
    t = await buildTestApp();
    advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test', { agree: true });
  });
  afterAll(async () => t.close());

  it("sends a country's places in brotli or gzip, the same JSON once decoded", async () => {
    const plain = await advertiser.get('/api/locations?country=FR');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await advertiser.get('/api/locations?country=FR', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await advertiser.get('/api/locations?country=FR', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('picks what the browser accepts: brotli before gzip, a refusal (q=0) kept, nothing usable sent plain', async () => {
    const encodingFor = async (acceptEncoding: string) =>
      (await advertiser.get('/api/locations?country=FR', { 'accept-encoding': acceptEncoding })).headers[
        'content-encoding'
      ];
    expect(await encodingFor('gzip, deflate')).toBe('gzip');
    expect(await encodingFor('gzip;q=0.5, br;q=1')).toBe('br');
    expect(await encodingFor('br;q=0, gzip')).toBe('gzip');
    expect(await encodingFor('br;q=0, gzip;q=0')).toBeUndefined();
    expect(await encodingFor('identity, deflate')).toBeUndefined();
  });

  it('leaves small answers and refusals as they are', async () => {
    const small = await advertiser.post('/api/common/user', {}, { headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(MIN_COMPRESSED_ANSWER_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    const refused = await t.client().get('/api/locations?country=FR', { 'accept-encoding': 'br' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('does not touch the ad-serving routes, which are outside the API scope', async () => {
    const script = await t.client().get('/serve/script.js', { 'accept-encoding': 'br' });
    expect(script.statusCode).toBe(200);
    expect(script.rawPayload.length).toBeGreaterThan(MIN_COMPRESSED_ANSWER_BYTES);
    expect(script.headers['content-encoding']).not.toBe('br');
  });
});
