import { readFileSync } from 'node:fs';
import type { TestApp, TestClient } from './helper.ts';

export const SEED_MEDIA = new URL('../../../packages/db/src/seed/media/', import.meta.url);
export const fixture = (name: string) => readFileSync(new URL(name, SEED_MEDIA));

/** Sends a multipart upload as the browser's FormData does, with the client's cookies and anti-forgery token. */
export async function upload(
  t: TestApp,
  client: TestClient,
  file: { name: string; bytes: Buffer | Uint8Array; type?: string; field?: string },
) {
  if (!client.cookies.has('XSRF-TOKEN')) await client.csrf();
  const boundary = `----helium${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
      `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return t.app.inject({
    method: 'POST',
    url: '/api/advertiser/upload-file',
    headers: {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': client.cookies.get('XSRF-TOKEN') ?? '',
      'x-requested-with': 'XMLHttpRequest',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([head, Buffer.from(file.bytes), tail]),
  });
}

/** The keys in media storage, the folder's or the database's (none until something is stored). */
export function storedMedia(t: TestApp): Promise<string[]> {
  return t.app.ctx.media.keys();
}

export async function signedIn(t: TestApp, email: string) {
  const client = t.client();
  const response = await client.signIn(email);
  if (response.statusCode !== 200 || response.json().status !== 'ok')
    throw new Error(`sign-in failed: ${response.body}`);
  return client;
}
