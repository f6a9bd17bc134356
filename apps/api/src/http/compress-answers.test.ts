import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../test/helper.ts';
import { answerEncoding, MIN_COMPRESSED_ANSWER_BYTES } from './compress-answers.ts';

describe('answerEncoding', () => {
  it('prefers brotli, then gzip, among what the browser accepts', () => {
    expect(answerEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(answerEncoding('gzip, deflate')).toBe('gzip');
    expect(answerEncoding('GZIP;q=0.5, Br;q=1')).toBe('br');
  });

  it('answers null when nothing usable is accepted, or q=0 refuses it', () => {
    expect(answerEncoding(undefined)).toBeNull();
    expect(answerEncoding('')).toBeNull();
    expect(answerEncoding('identity, deflate')).toBeNull();
    expect(answerEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(answerEncoding('br;q=0, gzip')).toBe('gzip');
  });
});

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
    expect(plain.headers.vary).toContain('Accept-Encoding');

    const br = await advertiser.get('/api/locations?country=FR', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await advertiser.get('/api/locations?country=FR', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
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
