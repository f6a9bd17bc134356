import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_AD_IMAGE_PIXELS } from '@helium/domain';
import { fixture } from '../../test/ads-support.ts';
import {
  DecoderPool,
  DecodersBusyError,
  decodeImage,
  findFfmpeg,
  imageDimensions,
  mediaDecoders,
  MAX_QUEUED_DECODES,
  MAX_RUNNING_DECODES,
  videoDimensions,
  videoPoster,
} from './media-probe.ts';

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([length, Buffer.from(type), data, crc]);
}

/** A PNG's signature and IHDR (8-bit grayscale), then, when `withPixels`, its pixels (all zero) and IEND. */
function grayPng(width: number, height: number, withPixels = true) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  const start = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header)];
  if (!withPixels) return Buffer.concat(start);
  const pixels = deflateSync(Buffer.alloc((width + 1) * height));
  return Buffer.concat([...start, pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

describe('dimensions from the header only', () => {
  it('reads a PNG size from its IHDR, with no pixel data at all', () => {
    expect(imageDimensions(grayPng(16_000, 16_000, false))).toEqual({ width: 16_000, height: 16_000 });
  });

  it('reads a JPEG size from its SOF marker, without the compressed scan after it', () => {
    const jpg = fixture('nordvik-horizontal.jpg');
    let sof = 2;
    while (jpg[sof] === 0xff && !(jpg[sof + 1]! >= 0xc0 && jpg[sof + 1]! <= 0xc2)) sof += 2 + jpg.readUInt16BE(sof + 2);
    expect(jpg[sof]).toBe(0xff);
    const headerOnly = jpg.subarray(0, sof + 2 + jpg.readUInt16BE(sof + 2));
    expect(headerOnly.length).toBeLessThan(jpg.length / 2);
    expect(imageDimensions(headerOnly)).toEqual(imageDimensions(jpg));
    expect(imageDimensions(jpg)).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
  });

  it("reads an MP4's video size from its sample entry", () => {
    const video = Buffer.from(fixture('nordvik-video.mp4'));
    expect(videoDimensions(video)).toEqual({ width: 480, height: 270 });
    const entry = video.indexOf('stsd') + 16;
    expect(video.toString('latin1', entry, entry + 4)).toBe('avc1');
    video.writeUInt16BE(16_000, entry + 28);
    video.writeUInt16BE(9000, entry + 30);
    expect(videoDimensions(video)).toEqual({ width: 16_000, height: 9000 });
  });

  it('answers null for an MP4 whose boxes cannot be read', () => {
    const video = fixture('nordvik-video.mp4');
    expect(videoDimensions(video.subarray(0, video.indexOf('stsd')))).toBeNull();
    expect(videoDimensions(Buffer.from('not a video at all'))).toBeNull();
    expect(videoDimensions(Buffer.alloc(0))).toBeNull();
    const lying = Buffer.from(video);
    lying.writeUInt32BE(0xffffff00, video.indexOf('moov') - 4); // a box larger than the file
    expect(videoDimensions(lying)).toBeNull();
  });
});

describe('the decoder itself', () => {
  it('is on the machine: npm test installs it (scripts/system-tools.mjs)', () => {
    expect(findFfmpeg()).toMatch(/ffmpeg$/);
  });

  it('refuses a frame over the pixel limit whatever the checks before it said, and decodes one at the limit', async () => {
    const side = Math.sqrt(MAX_AD_IMAGE_PIXELS);
    expect(await decodeImage(grayPng(side + 1, side), 'png')).toBe('corrupt');
    expect(await decodeImage(grayPng(side, side), 'png')).toBe('ok');
    expect(mediaDecoders.load).toEqual({ running: 0, queued: 0 });
  });

  it('reads a file only as the format it was checked as, never guessing from its content', async () => {
    expect(await decodeImage(grayPng(64, 64), 'png')).toBe('ok');
    expect(await decodeImage(grayPng(64, 64), 'jpg')).toBe('corrupt');
  });

  it('opens no other file nor address named inside an upload (a playlist posing as a video)', async () => {
    // It names a real video on this machine: read as an HLS playlist, ffmpeg would make that video's poster.
    const video = fileURLToPath(new URL('../../../../packages/db/src/seed/media/nordvik-video.mp4', import.meta.url));
    expect((await videoPoster(fixture('nordvik-video.mp4'))).kind).toBe('ok');
    const playlist = Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:9\n#EXTINF:9,\nfile://${video}\n#EXT-X-ENDLIST\n`);
    expect(await videoPoster(playlist)).toEqual({ kind: 'corrupt' });
  });
});

describe('DecoderPool', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A job that runs until `finish()` is called. */
  function job(log: string[], name: string) {
    let finish = () => {};
    const done = new Promise<string>((resolve) => {
      finish = () => resolve(name);
    });
    return {
      run: () => {
        log.push(name);
        return done;
      },
      finish: () => finish(),
    };
  }

  it('runs at most `running` jobs at once, the others in their order of arrival', async () => {
    const pool = new DecoderPool({ running: 2, queued: 8, waitMs: 60_000 });
    const started: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => job(started, name));
    const results = jobs.map((one) => pool.run(one.run));
    await vi.waitFor(() => expect(started).toEqual(['a', 'b']));
    expect(pool.load).toEqual({ running: 2, queued: 2 });
    jobs[1]!.finish();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b', 'c']));
    expect(pool.load).toEqual({ running: 2, queued: 1 });
    for (const one of jobs) one.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(pool.load).toEqual({ running: 0, queued: 0 });
  });

  it('refuses at once, starting nothing, when the queue is full', async () => {
    const pool = new DecoderPool({ running: 1, queued: 1, waitMs: 60_000 });
    const started: string[] = [];
    const first = job(started, 'first');
    const second = job(started, 'second');
    const results = [pool.run(first.run), pool.run(second.run)];
    await expect(pool.run(job(started, 'third').run)).rejects.toBeInstanceOf(DecodersBusyError);
    first.finish();
    second.finish();
    await Promise.all(results);
    expect(started).toEqual(['first', 'second']);
  });

  it('refuses a job that waited too long, and a failed job frees its place', async () => {
    vi.useFakeTimers();
    const pool = new DecoderPool({ running: 1, queued: 4, waitMs: 1000 });
    const started: string[] = [];
    const slow = job(started, 'slow');
    const running = pool.run(slow.run);
    const waiting = pool.run(job(started, 'late').run);
    const refused = expect(waiting).rejects.toBeInstanceOf(DecodersBusyError);
    await vi.advanceTimersByTimeAsync(1000);
    await refused;
    expect(pool.load).toEqual({ running: 1, queued: 0 });
    slow.finish();
    await running;

    await expect(pool.run(() => Promise.reject(new Error('ffmpeg crashed')))).rejects.toThrow('ffmpeg crashed');
    expect(pool.load).toEqual({ running: 0, queued: 0 });
    expect(started).toEqual(['slow']);
  });

  it('the server has one pool, of a few decoders and a short queue', () => {
    expect(mediaDecoders.limits).toEqual({ running: MAX_RUNNING_DECODES, queued: MAX_QUEUED_DECODES, waitMs: 20_000 });
    expect(MAX_RUNNING_DECODES).toBeLessThanOrEqual(4);
  });
});
