import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { imageSize } from 'image-size';
import { MAX_AD_IMAGE_PIXELS } from '@helium/domain';
import type { MediaExtension } from './media-storage.ts';

/** What the bytes of a file really are, from their first bytes (never from the name). */
export function sniffMediaType(bytes: Uint8Array): MediaExtension | null {
  const at = (offset: number, ...values: number[]) => values.every((value, i) => bytes[offset + i] === value);
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  // ISO base media: a box size, then "ftyp", then a brand.
  if (bytes.length >= 12 && at(4, 0x66, 0x74, 0x79, 0x70)) return 'mp4';
  return null;
}

/**
 * Width and height read from an image's header (PNG IHDR, JPEG SOF marker; `image-size` reads the header only and
 * decodes no pixel), or null when the header cannot be read.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

/**
 * Width and height of an MP4's largest video track, read from its boxes (moov, trak, mdia: handler `vide`,
 * minf, stbl, stsd: the visual sample entry), without decoding anything; null when none can be read. ffmpeg
 * picks the largest video stream by default, so the largest is the one that matters.
 */
export function videoDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const typeAt = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  type Box = { type: string; body: number; end: number };
  const children = (start: number, end: number): Box[] => {
    const found: Box[] = [];
    for (let at = start; at + 8 <= end;) {
      let size = view.getUint32(at);
      let body = at + 8;
      if (size === 1) {
        if (at + 16 > end) break;
        size = Number(view.getBigUint64(at + 8));
        body = at + 16;
      } else if (size === 0) size = end - at;
      if (size < body - at || at + size > end) break;
      found.push({ type: typeAt(at + 4), body, end: at + size });
      at += size;
    }
    return found;
  };
  const child = (box: Box | undefined, type: string) =>
    box && children(box.body, box.end).find((candidate) => candidate.type === type);

  let largest: { width: number; height: number } | null = null;
  for (const moov of children(0, bytes.length).filter((box) => box.type === 'moov')) {
    for (const trak of children(moov.body, moov.end).filter((box) => box.type === 'trak')) {
      const mdia = child(trak, 'mdia');
      const handler = child(mdia, 'hdlr');
      if (!handler || handler.body + 12 > handler.end || typeAt(handler.body + 8) !== 'vide') continue;
      const stsd = child(child(child(mdia, 'minf'), 'stbl'), 'stsd');
      if (!stsd) continue;
      // stsd: version and flags, entry count, then the sample entries; a visual one has its width and height
      // after 24 bytes of its own (SampleEntry and reserved fields).
      for (const sample of children(stsd.body + 8, stsd.end)) {
        if (sample.body + 28 > sample.end) continue;
        const width = view.getUint16(sample.body + 24);
        const height = view.getUint16(sample.body + 26);
        if (!largest || width * height > largest.width * largest.height) largest = { width, height };
      }
    }
  }
  return largest;
}

/** At most this many ffmpeg processes run at once in the server (two cores; each holds a decoded frame). */
export const MAX_RUNNING_DECODES = 2;
/** Decodes waiting for a free decoder beyond this are refused at once ("busy") instead of piling up in memory. */
export const MAX_QUEUED_DECODES = 8;
/** A decode that waited this long for a decoder is refused as "busy" (the uploader may try again). */
export const MAX_DECODE_WAIT_MS = 20_000;
/**
 * ffmpeg refuses any single allocation above this (`-max_alloc`): a frame at MAX_AD_IMAGE_PIXELS takes at most
 * 134 MB (16-bit RGBA), so only a frame beyond the pixel limit could need more.
 */
const MAX_DECODE_ALLOC_BYTES = 256 * 1024 * 1024;

/** No decoder is free and the queue is full, or the wait was too long: answer "busy", try again later. */
export class DecodersBusyError extends Error {
  constructor() {
    super('All media decoders are busy');
    this.name = 'DecodersBusyError';
  }
}

/**
 * A bounded pool of decoders: at most `running` jobs at once, at most `queued` waiting (in arrival order), each
 * waiting at most `waitMs`; beyond that `run` throws DecodersBusyError without starting anything.
 */
export class DecoderPool {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limits: { running: number; queued: number; waitMs: number }) {}

  /** How many jobs run and wait now. */
  get load(): { running: number; queued: number } {
    return { running: this.running, queued: this.waiting.length };
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.limits.running) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.queued) return Promise.reject(new DecodersBusyError());
    return new Promise((resolve, reject) => {
      const start = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(start);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new DecodersBusyError());
      }, this.limits.waitMs);
      this.waiting.push(start);
    });
  }

  /** The slot goes straight to the next waiting job, if any. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

/** The one pool of the server: every ffmpeg process starts through it. */
export const mediaDecoders = new DecoderPool({
  running: MAX_RUNNING_DECODES,
  queued: MAX_QUEUED_DECODES,
  waitMs: MAX_DECODE_WAIT_MS,
});

/** The one demuxer ffmpeg may use for each kind of upload: never guessed from the content. */
const DEMUXER = { png: 'png_pipe', jpg: 'jpeg_pipe', mp4: 'mov' } as const;

/**
 * ffmpeg's options for reading an input within bounds: only the local file (no protocol that opens another file
 * or the network, as a playlist would), only the demuxer of the checked format, one decoding thread (one frame in
 * memory, one core), the decoder refuses a frame over MAX_AD_IMAGE_PIXELS whatever the header said, and no
 * allocation over MAX_DECODE_ALLOC_BYTES.
 */
function boundedInput(file: string, format: keyof typeof DEMUXER): string[] {
  return [
    '-max_alloc',
    String(MAX_DECODE_ALLOC_BYTES),
    '-protocol_whitelist',
    'file',
    '-f',
    DEMUXER[format],
    '-threads',
    '1',
    '-max_pixels',
    String(MAX_AD_IMAGE_PIXELS),
    '-i',
    file,
  ];
}

let ffmpegPath: string | null | undefined;

/**
 * FFMPEG_PATH, else the first `ffmpeg` on PATH (Debian's package, which `npm test` and `npm start` install when
 * missing: scripts/system-tools.mjs); null when there is none (images are then checked by their header only and
 * videos get no poster).
 */
export function findFfmpeg(): string | null {
  if (ffmpegPath !== undefined) return ffmpegPath;
  const fromEnv = process.env.FFMPEG_PATH;
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'ffmpeg'));
  ffmpegPath = [fromEnv, ...onPath].find((path): path is string => !!path && existsSync(path)) ?? null;
  return ffmpegPath;
}

function run(binary: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stderr: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

async function withTempFile<T>(bytes: Uint8Array, name: string, work: (dir: string, file: string) => Promise<T>) {
  const dir = await mkdtemp(join(tmpdir(), 'helium-media-'));
  try {
    const file = join(dir, name);
    await writeFile(file, bytes);
    return await work(dir, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type DecodeResult = 'ok' | 'corrupt' | 'unchecked';

/**
 * Decodes a whole image with a real decoder (ffmpeg), so a file with a valid header but damaged data is
 * refused: any decoding error counts, and so does a frame over MAX_AD_IMAGE_PIXELS. 'unchecked' when no decoder
 * is available. Runs in the pool (`mediaDecoders`): throws DecodersBusyError when it is full; killed after 20 s.
 */
export async function decodeImage(bytes: Uint8Array, extension: 'jpg' | 'png'): Promise<DecodeResult> {
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) return 'unchecked';
  return withTempFile(bytes, `input.${extension}`, async (_dir, file) => {
    // The first frame only: a still image has one, and an animated PNG's others would only cost decoding time.
    const args = ['-v', 'error', '-xerror', ...boundedInput(file, extension), '-frames:v', '1', '-f', 'null', '-'];
    const result = await mediaDecoders.run(() => run(ffmpeg, args, 20_000));
    return result.code === 0 && result.stderr.trim() === '' ? 'ok' : 'corrupt';
  });
}

export type PosterResult =
  { kind: 'ok'; poster: Buffer; width: number; height: number } | { kind: 'corrupt' } | { kind: 'unavailable' };

/**
 * The first frame of a video as a JPEG poster, with the video's dimensions (a frame over MAX_AD_IMAGE_PIXELS
 * counts as corrupt). Runs in the pool (`mediaDecoders`): throws DecodersBusyError when it is full; killed after
 * 30 s.
 */
export async function videoPoster(bytes: Uint8Array): Promise<PosterResult> {
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) return { kind: 'unavailable' };
  return withTempFile(bytes, 'input.mp4', async (dir, file) => {
    const output = join(dir, 'poster.jpg');
    const args = ['-v', 'error', '-xerror', ...boundedInput(file, 'mp4')];
    args.push('-frames:v', '1', '-q:v', '3', '-f', 'image2', '-y', output);
    const result = await mediaDecoders.run(() => run(ffmpeg, args, 30_000));
    if (result.code !== 0 || !existsSync(output)) return { kind: 'corrupt' };
    const poster = await readFile(output);
    const size = imageDimensions(poster);
    if (!size) return { kind: 'corrupt' };
    return { kind: 'ok', poster, ...size };
  });
}

/**
 * The box a preview fits in. 160 high: the tallest thumbnail (the admin's validation cards) at its size, and two to
 * three times the others (Activity 54, the admin's Activity cards 60, the Ads cards 120) for high-density screens;
 * 440 wide, twice the widest thumbnail (220), so a wide banner is not kept at full width. The ratio is kept;
 * nothing is enlarged.
 */
export const PREVIEW_BOX = { width: 440, height: 160 } as const;

/** The size of an image of `width` x `height` fitted into PREVIEW_BOX (never larger than the image). */
export function previewSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, PREVIEW_BOX.width / width, PREVIEW_BOX.height / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A small JPEG of an image (an upload or a video's poster) fitted into PREVIEW_BOX, transparent parts on white (a
 * JPEG has no transparency and the screens are white). Null when there is no ffmpeg, the header cannot be read, or
 * ffmpeg fails: the screens then show the full image. Runs in the pool (`mediaDecoders`) with the same input bounds
 * as the checks: throws DecodersBusyError when it is full; killed after 20 s.
 */
export async function imagePreview(bytes: Uint8Array, extension: 'jpg' | 'png'): Promise<Buffer | null> {
  const ffmpeg = findFfmpeg();
  const source = imageDimensions(bytes);
  if (!ffmpeg || !source) return null;
  const { width, height } = previewSize(source.width, source.height);
  return withTempFile(bytes, `input.${extension}`, async (dir, file) => {
    const output = join(dir, 'preview.jpg');
    const graph =
      `[0:v]scale=${width}:${height}:flags=bicubic,format=rgba[image];` +
      // Overlaid in RGB: in YUV 4:2:0 the overlay would drop an odd last line or column.
      `color=c=white:s=${width}x${height},format=rgba[white];[white][image]overlay=shortest=1:format=rgb,format=yuvj420p`;
    const args = ['-v', 'error', ...boundedInput(file, extension), '-filter_complex', graph];
    args.push('-frames:v', '1', '-q:v', '3', '-f', 'image2', '-y', output);
    const result = await mediaDecoders.run(() => run(ffmpeg, args, 20_000));
    if (result.code !== 0 || !existsSync(output)) return null;
    const preview = await readFile(output);
    return imageDimensions(preview) ? preview : null;
  });
}
