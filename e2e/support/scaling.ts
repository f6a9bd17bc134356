import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import pg from 'pg';
import { codeFrom } from '../../apps/api/test/smtp-catcher.ts';
import { startProduct, type Product } from './product.ts';

/*
 * Helpers of the scaling tests (e2e/scaling.spec.ts): fresh PostgreSQL databases, several started products sharing
 * one, requests each on a connection of its own (spread over WORKERS' processes), signed-in callers that upload.
 */

/** Drops a test database; a killed process's connections go away as the server notices, else they are forced out. */
async function dropDatabase(admin: pg.Client, name: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`drop database if exists ${name}${attempt < 40 ? '' : ' with (force)'}`);
      return;
    } catch (error) {
      if (attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A fresh, empty PostgreSQL database for one run (the product migrates and seeds it), dropped afterwards. */
export async function withFreshDatabase(adminUrl: string, run: (url: string) => Promise<void>) {
  const name = `helium_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await run(url.toString());
  } finally {
    await dropDatabase(admin, name);
    await admin.end();
  }
}

/** Runs `check` with a client of the database at `url`, closed afterwards. */
export async function withClient<T>(url: string, check: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await check(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts `count` products at once on the same settings (each its own DATA_DIR, port and mail catcher), as an
 * orchestrator starts the instances of one network; those started are stopped when another fails to start.
 */
export async function startInstances(count: number, env: Record<string, string>): Promise<Product[]> {
  const results = await Promise.allSettled(Array.from({ length: count }, () => startProduct(env)));
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((product) => product.stop()));
    throw failed.reason;
  }
  return started;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request on a connection of its own (closed after it): WORKERS' primary hands each new connection to the next
 * API process, so that requests sent this way are spread over all of them, as many visitors' browsers are. Rejects
 * when no answer comes (the connection refused or cut, as when its process is killed).
 */
export function onItsOwnConnection(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const target = new URL(url);
  // The product listens on 127.0.0.1 only; `localhost` may resolve to ::1 first.
  if (target.hostname === 'localhost') target.hostname = '127.0.0.1';
  return new Promise((resolve, reject) => {
    const sent = request(target, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    sent.setTimeout(20_000, () => sent.destroy(new Error(`no answer from ${url} in 20 s`)));
    sent.on('error', reject);
    sent.end(init.body);
  });
}

/** The process ids of `pid`'s children (pgrep -P), in increasing order; none when it has none. */
export async function childPids(pid: number): Promise<number[]> {
  try {
    const { stdout } = await promisify(execFile)('pgrep', ['-P', String(pid)]);
    return stdout
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b);
  } catch (error) {
    // pgrep exits with 1 when no process matched.
    if ((error as { code?: number }).code === 1) return [];
    throw error;
  }
}

/**
 * A caller of one product's API as the web app calls it (cookies, anti-forgery token), answering the status and
 * the body of each call; `signIn` signs in with the code mailed to the product's catcher.
 */
export async function apiCaller(product: Product) {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) cookies.set(name.trim(), value.join('='));
    }
  };
  const headers = () => ({
    cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    'x-requested-with': 'XMLHttpRequest',
    'x-xsrf-token': decodeURIComponent(cookies.get('XSRF-TOKEN') ?? ''),
  });
  const answer = async (response: Response) => {
    remember(response);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  remember(await fetch(`${product.url}/sanctum/csrf-cookie`));

  const post = async (path: string, body: unknown = {}) =>
    answer(
      await fetch(`${product.url}${path}`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );

  /** The advertiser's upload, as the browser's FormData sends it (multipart, field `file`). */
  const upload = async (file: { name: string; bytes: Buffer; type: string }) => {
    const boundary = `----helium${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    );
    return answer(
      await fetch(`${product.url}/api/advertiser/upload-file`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([head, file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      }),
    );
  };

  const signIn = async (email: string) => {
    const before = product.smtp.messages.length;
    await post('/api/common/signin', { step: 1, email });
    const code = codeFrom(await product.smtp.waitForMail(email, before));
    const signedIn = await post('/api/common/signin', { step: 2, email, code, hasUserAgreed: true });
    if (signedIn.status !== 200) throw new Error(`sign-in of ${email} failed: ${JSON.stringify(signedIn)}`);
  };

  return { post, upload, signIn };
}

export type ApiCaller = Awaited<ReturnType<typeof apiCaller>>;

const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG of this size whose colours are drawn at random: bytes no other upload has, so that its media key
 * (content-addressed) names this upload only.
 */
export function randomPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter method choice, not interlaced
  const [red = 0, green = 0, blue = 0] = randomBytes(3);
  const rowLength = 1 + width * 3;
  const pixels = Buffer.alloc(rowLength * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with its filter type, 0 (none).
    for (let x = 0; x < width; x++) {
      const at = y * rowLength + 1 + x * 3;
      pixels[at] = (red + x) & 0xff;
      pixels[at + 1] = (green + y) & 0xff;
      pixels[at + 2] = blue;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
