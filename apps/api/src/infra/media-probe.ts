import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
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

/** Width and height read from an image's header, or null when the header cannot be read. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

let ffmpegPath: string | null | undefined;

/**
 * The ffmpeg binary shipped inside the npm package @ffmpeg-installer/ffmpeg (no download at install
 * time), or FFMPEG_PATH; null when neither is there (videos then get no poster).
 */
export function findFfmpeg(): string | null {
  if (ffmpegPath !== undefined) return ffmpegPath;
  const fromEnv = process.env.FFMPEG_PATH;
  if (fromEnv && existsSync(fromEnv)) return (ffmpegPath = fromEnv);
  try {
    const require = createRequire(import.meta.url);
    const installer = require('@ffmpeg-installer/ffmpeg') as { path: string };
    ffmpegPath = existsSync(installer.path) ? installer.path : null;
  } catch {
    ffmpegPath = null;
  }
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
 * refused: any decoding error counts. 'unchecked' when no decoder is available.
 */
export async function decodeImage(bytes: Uint8Array, extension: 'jpg' | 'png'): Promise<DecodeResult> {
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) return 'unchecked';
  return withTempFile(bytes, `input.${extension}`, async (_dir, file) => {
    const result = await run(ffmpeg, ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-'], 20_000);
    return result.code === 0 && result.stderr.trim() === '' ? 'ok' : 'corrupt';
  });
}

export type PosterResult =
  { kind: 'ok'; poster: Buffer; width: number; height: number } | { kind: 'corrupt' } | { kind: 'unavailable' };

/** The first frame of a video as a JPEG poster, with the video's dimensions. */
export async function videoPoster(bytes: Uint8Array): Promise<PosterResult> {
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) return { kind: 'unavailable' };
  return withTempFile(bytes, 'input.mp4', async (dir, file) => {
    const output = join(dir, 'poster.jpg');
    const result = await run(
      ffmpeg,
      ['-v', 'error', '-xerror', '-i', file, '-frames:v', '1', '-q:v', '3', '-f', 'image2', '-y', output],
      60_000,
    );
    if (result.code !== 0 || !existsSync(output)) return { kind: 'corrupt' };
    const poster = await readFile(output);
    const size = imageDimensions(poster);
    if (!size) return { kind: 'corrupt' };
    return { kind: 'ok', poster, ...size };
  });
}
