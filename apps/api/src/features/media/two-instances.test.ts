import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ads } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { fixture, signedIn, upload } from '../../../test/ads-support.ts';
import { TEST_DRIVER } from '../../../test/test-database.ts';

/**
 * Two instances of the server on one PostgreSQL database, each with its own DATA_DIR (two machines): what is
 * uploaded through one is served by the other. The embedded database is one process by design.
 */
describe.runIf(TEST_DRIVER === 'postgres')('media across two instances (MEDIA_STORAGE=postgres)', () => {
  let first: TestApp;
  let second: TestApp;
  let advertiser: TestClient;

  beforeAll(async () => {
    first = await buildTestApp();
    second = await buildTestApp({ shareDatabaseWith: first });
    advertiser = await signedIn(first, 'advertiser@demo.test');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('each instance has its own DATA_DIR and keeps media in the database (the default with DATABASE_URL)', () => {
    expect(first.app.ctx.config.dataDir).not.toBe(second.app.ctx.config.dataDir);
    expect([first.app.ctx.config.mediaStorage, second.app.ctx.config.mediaStorage]).toEqual(['postgres', 'postgres']);
  });

  it('serves an image uploaded through the other, with the same headers, ETag and ranges', async () => {
    const bytes = fixture('nordvik-square.png');
    const uploaded = await upload(first, advertiser, { name: 'square.png', bytes, type: 'image/png' });
    expect(uploaded.statusCode).toBe(200);
    const [ad] = await second.db.select().from(ads).where(eq(ads.id, uploaded.json().adId));
    const url = `/media/${ad!.image}`;

    const served = await second.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(bytes)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(bytes.length),
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
      etag: `"${ad!.image!.slice(0, 64)}"`,
    });
    const fromFirst = await first.app.inject({ method: 'GET', url });
    expect(fromFirst.headers.etag).toBe(served.headers.etag);

    const again = await second.app.inject({ method: 'GET', url, headers: { 'if-none-match': served.headers.etag! } });
    expect(again.statusCode).toBe(304);
    const range = await second.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-19' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 10-19/${bytes.length}`);
    expect(range.rawPayload.equals(bytes.subarray(10, 20))).toBe(true);
  });

  it('serves a video, its poster and its preview stored through the other', async () => {
    const bytes = fixture('nordvik-video.mp4');
    const uploaded = await upload(first, advertiser, { name: 'clip.mp4', bytes, type: 'video/mp4' });
    expect(uploaded.statusCode).toBe(200);
    const [ad] = await second.db.select().from(ads).where(eq(ads.id, uploaded.json().adId));
    const video = await second.app.inject({ method: 'GET', url: `/media/${ad!.mp4}` });
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(video.rawPayload.equals(bytes)).toBe(true);
    for (const key of [ad!.poster, ad!.preview].filter(Boolean)) {
      const picture = await second.app.inject({ method: 'GET', url: `/media/${key}` });
      expect(picture.statusCode, String(key)).toBe(200);
      expect(picture.headers['content-type']).toBe('image/jpeg');
    }
  });
});

describe.runIf(TEST_DRIVER === 'postgres')('media across two instances with MEDIA_STORAGE=local', () => {
  it('are not served by the other instance: each keeps its uploads in its own DATA_DIR', async () => {
    const first = await buildTestApp({ env: { MEDIA_STORAGE: 'local' } });
    const second = await buildTestApp({ shareDatabaseWith: first, env: { MEDIA_STORAGE: 'local' } });
    try {
      const advertiser = await signedIn(first, 'advertiser@demo.test');
      const uploaded = await upload(first, advertiser, { name: 'a.jpg', bytes: fixture('nordvik-vertical.jpg') });
      const [ad] = await first.db.select().from(ads).where(eq(ads.id, uploaded.json().adId));
      expect((await first.app.inject({ method: 'GET', url: `/media/${ad!.image}` })).statusCode).toBe(200);
      expect((await second.app.inject({ method: 'GET', url: `/media/${ad!.image}` })).statusCode).toBe(404);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
