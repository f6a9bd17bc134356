import type * as ChildProcess from 'node:child_process';
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { advertisers, ads, users } from '@helium/db';
import { AD_UPLOAD_RATE, MAX_AD_FILE_BYTES } from '@helium/domain';
import { MAX_QUEUED_DECODES, MAX_RUNNING_DECODES } from '../../infra/media-probe.ts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { fixture, signedIn, storedMedia, upload } from '../../../test/ads-support.ts';

/**
 * Every process the server starts (only ffmpeg does), watched: how many were started and how many run at once.
 * While `holding`, a process that has ended still counts as running and the server is not told yet (its decoder
 * stays busy) until `release()`: that is how a test keeps many decodes in progress at the same moment.
 */
const processes = vi.hoisted(() => ({
  started: 0,
  running: 0,
  peak: 0,
  holding: false,
  held: [] as Array<() => void>,
  release() {
    this.holding = false;
    for (const finish of this.held.splice(0)) finish();
  },
}));
vi.mock('node:child_process', async (importOriginal) => {
  const original = await importOriginal<typeof ChildProcess>();
  const spawn = ((...args: Parameters<typeof original.spawn>) => {
    const child = original.spawn(...args);
    processes.started += 1;
    processes.running += 1;
    processes.peak = Math.max(processes.peak, processes.running);
    const emit = child.emit.bind(child);
    child.emit = ((event: string | symbol, ...rest: unknown[]) => {
      if (event !== 'close') return emit(event, ...rest);
      const finish = () => {
        processes.running -= 1;
        emit(event, ...rest);
      };
      if (processes.holding) processes.held.push(finish);
      else finish();
      return true;
    }) as typeof child.emit;
    return child;
  }) as typeof original.spawn;
  return { ...original, default: { ...original, spawn }, spawn };
});
// The API tests share a worker between files (`isolate: false`, vitest.config.ts): an earlier file may have loaded the
// server's modules with the real child_process. Load them again for this file, under the mock above.
vi.hoisted(() => vi.resetModules());

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
  const mediaBefore = await storedMedia(t);
  const adsBefore = await adCount();
  const response = await upload(t, advertiser, file);
  expect(response.statusCode).toBe(statusCode);
  const body = response.json();
  expect(body.adId).toBeNull();
  expect(body.errors.length).toBeGreaterThan(0);
  expect(body.tips).toEqual([]);
  expect(await storedMedia(t)).toEqual(mediaBefore);
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
    expect(await storedMedia(t)).toContain(ad.image);

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

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([length, Buffer.from(type), data, crc]);
}

/**
 * The attack of issue 21: a valid RGB PNG of zeros, 16,000 x 16,000 pixels in about 746 KB, which ffmpeg needs
 * about 750 MB to decode. Its zlib stream repeats one fully flushed block of 1,000 zero rows (each block stands
 * alone), so it is made in a blink instead of compressing 768 MB.
 */
function pngBomb(width = 16_000, height = 16_000) {
  const rowsPerBlock = 1000;
  const rowBytes = width * 3 + 1;
  const block = deflateRawSync(Buffer.alloc(rowBytes * rowsPerBlock), {
    level: 9,
    finishFlush: zlibConstants.Z_FULL_FLUSH,
  });
  // Adler-32 of n zero bytes: a stays 1, b is n modulo 65521.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((rowBytes * height) % 65521) * 65536 + 1) >>> 0);
  const zlibStream = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: height / rowsPerBlock }, () => block),
    Buffer.from([0x03, 0x00]), // the last block: empty, fixed codes
    adler,
  ]);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlibStream),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The demo video with the width and height of its video sample entry (avc1) rewritten. */
function videoClaiming(width: number, height: number) {
  const video = Buffer.from(fixture('nordvik-video.mp4'));
  const at = video.indexOf('stsd') + 16; // the type of the first sample entry (after version, flags, count, size)
  expect(video.toString('latin1', at, at + 4)).toBe('avc1');
  video.writeUInt16BE(width, at + 28);
  video.writeUInt16BE(height, at + 30);
  return video;
}

/** Waits (a few seconds at most) until `ready` is true. */
async function until(ready: () => boolean) {
  await vi.waitFor(() => expect(ready()).toBe(true), { timeout: 5000, interval: 10 });
}

describe('upload-file: decompression bombs and load (issue 21)', () => {
  // Each test starts a new rate window, so that the uploads of one test do not count for the next.
  beforeEach(() => t.clock.advance(AD_UPLOAD_RATE.windowMs));

  it('refuses a 16,000 x 16,000 PNG of 746 KB from its header, before any decode', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(800 * 1024);
    const startedBefore = processes.started;
    const body = await expectRefused({ name: 'bomb.png', bytes: bomb }, 422);
    expect(body.status).toBe('fileRefused');
    expect(body.errors).toEqual([
      'The image is too large (16000 x 16000 pixels): an ad may have at most 16.8 million pixels, such as 4096 x 4096.',
    ]);
    expect(processes.started).toBe(startedBefore);

    await t.db.update(users).set({ locale: 'fr' }).where(eq(users.email, 'advertiser@demo.test'));
    try {
      const french = await expectRefused({ name: 'bomb.png', bytes: bomb }, 422);
      expect(french.errors[0]).toMatch(/^L'image est trop grande \(16000 x 16000 pixels\).*16,8 millions de pixels/);
    } finally {
      await t.db.update(users).set({ locale: 'en' }).where(eq(users.email, 'advertiser@demo.test'));
    }
    expect(processes.started).toBe(startedBefore);
  });

  it('refuses a video whose header announces too many pixels, before any decode', async () => {
    const startedBefore = processes.started;
    const body = await expectRefused({ name: 'clip.mp4', bytes: videoClaiming(16_000, 9000) }, 422);
    expect(body.errors[0]).toMatch(/^The video is too large \(16000 x 9000 pixels\)/);
    expect(processes.started).toBe(startedBefore);
  });

  it(`never runs more than ${MAX_RUNNING_DECODES} decoders at once, however many uploads arrive together`, async () => {
    const uploads = 3 * MAX_RUNNING_DECODES;
    const adsBefore = await adCount();
    const startedBefore = processes.started;
    processes.peak = processes.running;
    processes.holding = true;
    let responses: Awaited<ReturnType<typeof upload>>[] = [];
    try {
      const sent = Array.from({ length: uploads }, (_, i) =>
        upload(t, advertiser, { name: `square-${i}.png`, bytes: fixture('nordvik-square.png') }),
      );
      await until(() => processes.started - startedBefore >= MAX_RUNNING_DECODES);
      // Time for the other uploads to reach the decoders while the first ones are kept busy.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(processes.peak).toBe(MAX_RUNNING_DECODES);
      processes.release();
      responses = await Promise.all(sent);
    } finally {
      processes.release();
    }
    expect(responses.map((response) => response.statusCode)).toEqual(Array(uploads).fill(200));
    // Two runs per upload, each in the pool: the check, then the preview.
    expect(processes.started - startedBefore).toBe(2 * uploads);
    expect(processes.peak).toBe(MAX_RUNNING_DECODES);
    expect(await adCount()).toBe(adsBefore + uploads);
  });

  it('answers 503 at once when the queue of waiting decodes is full, and stores nothing for those', async () => {
    const extra = 2;
    const uploads = MAX_RUNNING_DECODES + MAX_QUEUED_DECODES + extra;
    const adsBefore = await adCount();
    processes.holding = true;
    let responses: Awaited<ReturnType<typeof upload>>[] = [];
    try {
      const answered: number[] = [];
      const sent = Array.from({ length: uploads }, (_, i) =>
        upload(t, advertiser, { name: `square-${i}.png`, bytes: fixture('nordvik-square.png') }).then((response) => {
          answered.push(response.statusCode);
          return response;
        }),
      );
      // The uploads beyond the queue are answered while the decoders are still busy.
      await until(() => answered.length >= extra);
      expect(answered).toEqual(Array(extra).fill(503));
      processes.release();
      responses = await Promise.all(sent);
    } finally {
      processes.release();
    }
    const busy = responses.filter((response) => response.statusCode === 503);
    expect(busy.length).toBe(extra);
    for (const response of busy) {
      expect(response.headers['retry-after']).toBeDefined();
      expect(response.json()).toMatchObject({ status: 'serverBusy', adId: null, tips: [] });
      expect(response.json().errors[0]).toMatch(/try again/);
    }
    expect(responses.filter((response) => response.statusCode === 200).length).toBe(uploads - extra);
    expect(await adCount()).toBe(adsBefore + uploads - extra);
  });

  it(`answers 429 to the upload after ${AD_UPLOAD_RATE.limit} in an hour from one advertiser, and stores nothing`, async () => {
    // Refused files count too: each upload may cost a decode.
    for (let i = 0; i < AD_UPLOAD_RATE.limit; i += 1) {
      expect((await upload(t, advertiser, { name: `notes-${i}.txt`, bytes: Buffer.from('hello') })).statusCode).toBe(
        422,
      );
    }
    const startedBefore = processes.started;
    const body = await expectRefused({ name: 'square.png', bytes: fixture('nordvik-square.png') }, 429);
    expect(body.status).toBe('tooManyUploads');
    expect(body.errors[0]).toContain(`at most ${AD_UPLOAD_RATE.limit} files per hour`);
    expect(processes.started).toBe(startedBefore);

    // Another advertiser has a count of its own: its file is accepted.
    const other = await signedIn(t, 'multi@demo.test');
    const [ceramics] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Atelier Céramique'));
    await other.post('/api/common/update-user', { key: 'type', value: `2,${ceramics?.id}` });
    const otherAnswer = await upload(t, other, { name: 'square.png', bytes: fixture('nordvik-square.png') });
    expect(otherAnswer.statusCode).toBe(200);
    expect((await adById(otherAnswer.json().adId)).advertiserId).toBe(ceramics?.id);

    // The next window accepts files again.
    t.clock.advance(AD_UPLOAD_RATE.windowMs);
    expect((await upload(t, advertiser, { name: 'square.png', bytes: fixture('nordvik-square.png') })).statusCode).toBe(
      200,
    );
  });
});
