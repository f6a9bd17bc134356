import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { ads, users } from '@helium/db';
import { MAX_AD_FILE_BYTES } from '@helium/domain';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { fixture, signedIn, storedMedia, upload } from '../../../test/ads-support.ts';

let t: TestApp;
let advertiser: TestClient;

beforeAll(async () => {
  t = await buildTestApp();
  advertiser = await signedIn(t, 'advertiser@demo.test');
});
afterAll(async () => {
  await t?.close();
});

async function adCount() {
  const [row] = await t.db.select({ n: count() }).from(ads);
  return row?.n ?? 0;
}

async function adById(id: number) {
  const [row] = await t.db.select().from(ads).where(eq(ads.id, id));
  if (!row) throw new Error(`no ad ${id}`);
  return row;
}

/** Uploads a file that must be refused, and checks that nothing was stored. */
async function expectRefused(file: Parameters<typeof upload>[2], statusCode: number) {
  const mediaBefore = storedMedia(t);
  const adsBefore = await adCount();
  const response = await upload(t, advertiser, file);
  expect(response.statusCode).toBe(statusCode);
  const body = response.json();
  expect(body.adId).toBeNull();
  expect(body.errors.length).toBeGreaterThan(0);
  expect(body.tips).toEqual([]);
  expect(storedMedia(t)).toEqual(mediaBefore);
  expect(await adCount()).toBe(adsBefore);
  return body as { status: string; errors: string[] };
}

describe('upload-file: accepted files', () => {
  it('stores a png, decides its format from its dimensions and creates a not-validated ad', async () => {
    const bytes = fixture('nordvik-square.png');
    const response = await upload(t, advertiser, { name: 'Square.PNG', bytes, type: 'image/png' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'ok', errors: [] });
    const ad = await adById(body.adId);
    expect(ad).toMatchObject({ type: 'image', formatId: 3, width: 300, height: 300, adminValidation: 0, link: null });
    expect(ad.image).toMatch(/^[a-f0-9]{64}\.png$/);
    expect(storedMedia(t)).toContain(ad.image);

    const served = await t.app.inject({ method: 'GET', url: `/media/${ad.image}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(bytes)).toBe(true);
  });

  it.each([
    ['nordvik-vertical.jpg', 1],
    ['nordvik-horizontal.jpg', 4],
    ['nordvik-horizontal-large.jpg', 5],
    ['nordvik-newsletter.png', 2],
  ])('%s gets format %i', async (name, formatId) => {
    const response = await upload(t, advertiser, { name: name.replace('.jpg', '.jpeg'), bytes: fixture(name) });
    expect(response.statusCode).toBe(200);
    expect((await adById(response.json().adId)).formatId).toBe(formatId);
  });

  it('tells in tips that a vertical ad is not shown on mobile', async () => {
    const response = await upload(t, advertiser, { name: 'tall.jpg', bytes: fixture('nordvik-vertical.jpg') });
    expect(response.json().tips.join(' ')).toMatch(/mobile/);
  });

  it('stores an mp4 with a poster made from its first frame', async () => {
    const response = await upload(t, advertiser, { name: 'clip.mp4', bytes: fixture('nordvik-video.mp4') });
    expect(response.statusCode).toBe(200);
    const ad = await adById(response.json().adId);
    expect(ad).toMatchObject({ type: 'video', isVideoThumbnailReady: true, width: 480, height: 270, formatId: 4 });
    expect(ad.mp4).toMatch(/\.mp4$/);
    expect(ad.poster).toMatch(/\.jpg$/);
    const poster = await t.app.inject({ method: 'GET', url: `/media/${ad.poster}` });
    expect(poster.headers['content-type']).toBe('image/jpeg');
    const range = await t.app.inject({ method: 'GET', url: `/media/${ad.mp4}`, headers: { range: 'bytes=0-99' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-type']).toBe('video/mp4');
    expect(range.rawPayload.length).toBe(100);
  });

  it('gives a heavy-file suggestion (in the user language) but keeps the file', async () => {
    // A sound PNG made heavy by a private ancillary chunk (with its CRC) after the header.
    const png = fixture('nordvik-square.png');
    const data = Buffer.alloc(600 * 1024, 7);
    const type = Buffer.from('zzPd');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
    const heavy = Buffer.concat([png.subarray(0, 33), length, type, data, crc, png.subarray(33)]);
    const response = await upload(t, advertiser, { name: 'heavy.png', bytes: heavy });
    expect(response.statusCode).toBe(200);
    expect(response.json().tips.join(' ')).toMatch(/weighs 60\d KB/);
  });

  it('answers in French for a French user', async () => {
    await t.db.update(users).set({ locale: 'fr' }).where(eq(users.email, 'advertiser@demo.test'));
    try {
      const body = await expectRefused({ name: 'notes.txt', bytes: Buffer.from('hello') }, 422);
      expect(body.errors[0]).toMatch(/n'est pas accepté/);
    } finally {
      await t.db.update(users).set({ locale: 'en' }).where(eq(users.email, 'advertiser@demo.test'));
    }
  });
});

describe('upload-file: refused files (nothing stored)', () => {
  it('refuses a wrong extension', async () => {
    const body = await expectRefused({ name: 'banner.gif', bytes: fixture('nordvik-square.png') }, 422);
    expect(body.errors[0]).toMatch(/jpg, jpeg, png and mp4/);
  });

  it('refuses a renamed non-image', async () => {
    const body = await expectRefused({ name: 'photo.png', bytes: Buffer.from('%PDF-1.4 this is not an image') }, 422);
    expect(body.errors[0]).toMatch(/not really a PNG/);
  });

  it('refuses an image whose content does not match its extension', async () => {
    await expectRefused({ name: 'photo.png', bytes: fixture('nordvik-horizontal.jpg') }, 422);
    await expectRefused({ name: 'video.mp4', bytes: fixture('nordvik-horizontal.jpg') }, 422);
  });

  it('refuses a file over 10 MB', async () => {
    const big = Buffer.alloc(MAX_AD_FILE_BYTES + 1, 0);
    fixture('nordvik-square.png').copy(big);
    const body = await expectRefused({ name: 'big.png', bytes: big }, 413);
    expect(body.status).toBe('fileTooLarge');
    expect(body.errors[0]).toMatch(/10 MB/);
  });

  it('refuses a corrupt image (valid header, damaged data)', async () => {
    const png = Buffer.from(fixture('nordvik-newsletter.png'));
    for (let i = 200; i < 1200; i += 1) png[i] = ((png[i] ?? 0) * 7 + 3) % 256;
    const body = await expectRefused({ name: 'damaged.png', bytes: png }, 422);
    expect(body.errors[0]).toMatch(/damaged/);
    const jpg = fixture('nordvik-horizontal.jpg').subarray(0, 3000);
    await expectRefused({ name: 'cut.jpg', bytes: jpg }, 422);
    await expectRefused({ name: 'header-only.png', bytes: png.subarray(0, 20) }, 422);
  });

  it('refuses a corrupt video', async () => {
    const bytes = Buffer.concat([fixture('nordvik-video.mp4').subarray(0, 32), Buffer.alloc(5000, 1)]);
    const body = await expectRefused({ name: 'clip.mp4', bytes }, 422);
    expect(body.errors[0]).toMatch(/video/);
  });

  it('refuses an empty file, a missing file field and a request that is not multipart', async () => {
    await expectRefused({ name: 'empty.png', bytes: Buffer.alloc(0) }, 422);
    await expectRefused({ name: 'a.png', bytes: fixture('nordvik-square.png'), field: 'other' }, 422);
    const json = await advertiser.post('/api/advertiser/upload-file', { file: 'x' });
    expect(json.statusCode).toBe(422);
    expect(json.json().errors.length).toBe(1);
  });

  it('refuses a user who cannot add ads', async () => {
    await t.db.update(users).set({ cannotAddAds: true }).where(eq(users.email, 'advertiser@demo.test'));
    try {
      await expectRefused({ name: 'a.png', bytes: fixture('nordvik-square.png') }, 403);
    } finally {
      await t.db.update(users).set({ cannotAddAds: false }).where(eq(users.email, 'advertiser@demo.test'));
    }
  });

  it('refuses other roles and signed-out callers', async () => {
    const admin = await signedIn(t, 'admin@demo.test');
    const publisher = await signedIn(t, 'publisher@demo.test');
    const adsBefore = await adCount();
    expect((await upload(t, admin, { name: 'a.png', bytes: fixture('nordvik-square.png') })).statusCode).toBe(403);
    expect((await upload(t, publisher, { name: 'a.png', bytes: fixture('nordvik-square.png') })).statusCode).toBe(403);
    expect((await upload(t, t.client(), { name: 'a.png', bytes: fixture('nordvik-square.png') })).statusCode).toBe(401);
    expect(await adCount()).toBe(adsBefore);
  });
});

describe('media', () => {
  it('answers 404 for unknown or malformed keys', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/media/${'a'.repeat(64)}.png` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/media/..%2F..%2Fsession-secret' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/media/abc.exe' })).statusCode).toBe(404);
  });
});
