import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, media, seedDemoData } from '@helium/db';
import { createTestDatabase, TEST_DRIVER, type TestDatabase } from '../../test/test-database.ts';
import { copyFolderMediaToDatabase, DatabaseMediaStorage } from './database-media-storage.ts';
import { LocalMediaStorage, MAX_MEDIA_BYTES, type MediaStorage } from './media-storage.ts';

/** Every medium of these tests is read in chunks of this size from the database: a few chunks each. */
const CHUNK = 1000;

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const freshDir = () => mkdtempSync(join(tmpdir(), 'helium-media-'));

// The database storage is what MEDIA_STORAGE=postgres uses: it is tested on PostgreSQL, as it runs.
let database: TestDatabase | undefined;
beforeAll(async () => {
  if (TEST_DRIVER === 'postgres') database = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await database?.drop();
});

const storages: Array<[string, () => MediaStorage]> = [
  ['the folder (MEDIA_STORAGE=local)', () => new LocalMediaStorage(freshDir())],
  ...(TEST_DRIVER === 'postgres'
    ? [
        ['the database (MEDIA_STORAGE=postgres)', () => new DatabaseMediaStorage(database!.db, CHUNK)] as [
          string,
          () => MediaStorage,
        ],
      ]
    : []),
];

describe.each(storages)('media storage: %s', (_name, open) => {
  it('stores bytes under their SHA-256 and extension, and answers them with their size and type', async () => {
    const storage = open();
    const bytes = randomBytes(4321);
    const key = await storage.put(bytes, 'png');
    expect(key).toBe(`${sha256(bytes)}.png`);
    const stored = await storage.get(key);
    expect(stored).toMatchObject({ size: 4321, contentType: 'image/png' });
    expect((await readAll(stored!.open())).equals(bytes)).toBe(true);
  });

  it('stores the same content once, even when it is stored many times at once', async () => {
    const storage = open();
    const bytes = randomBytes(2500);
    const keys = await Promise.all(Array.from({ length: 8 }, () => storage.put(bytes, 'mp4')));
    expect(new Set(keys)).toEqual(new Set([`${sha256(bytes)}.mp4`]));
    expect((await storage.keys()).filter((key) => key === keys[0])).toHaveLength(1);
    expect((await readAll((await storage.get(keys[0]!))!.open())).equals(bytes)).toBe(true);
  });

  it('answers any byte range, within and across chunks', async () => {
    const storage = open();
    const bytes = randomBytes(5 * CHUNK + 7);
    const stored = await storage.get(await storage.put(bytes, 'mp4'));
    for (const [start, end] of [
      [0, 0],
      [0, 99],
      [CHUNK - 1, CHUNK],
      [CHUNK, 2 * CHUNK - 1],
      [1234, 4321],
      [bytes.length - 1, bytes.length - 1],
      [0, bytes.length - 1],
    ] as const) {
      const part = await readAll(stored!.open({ start, end }));
      expect(part.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('answers null for a key it does not hold or that is not a key, and forgets what is deleted', async () => {
    const storage = open();
    expect(await storage.get(`${'a'.repeat(64)}.png`)).toBeNull();
    expect(await storage.get('../session-secret')).toBeNull();
    const key = await storage.put(randomBytes(10), 'jpg');
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.keys()).not.toContain(key);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('refuses more bytes than an upload may have, and stores nothing', async () => {
    const storage = open();
    const before = await storage.keys();
    await expect(storage.put(new Uint8Array(MAX_MEDIA_BYTES + 1), 'mp4')).rejects.toThrow(RangeError);
    expect(await storage.keys()).toEqual(before);
  });

  it('lists its keys, sorted', async () => {
    const storage = open();
    const keys = [await storage.put(randomBytes(20), 'png'), await storage.put(randomBytes(20), 'jpg')];
    const listed = await storage.keys();
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(keys));
  });
});

describe.runIf(TEST_DRIVER === 'postgres')('media moving to the database (MEDIA_STORAGE=postgres)', () => {
  it('copies the folder media the table lacks, once; skips a damaged file and files that are not media', async () => {
    const dir = freshDir();
    const folder = new LocalMediaStorage(dir);
    const target = new DatabaseMediaStorage(database!.db, CHUNK);
    const [first, second, already] = [randomBytes(3000), randomBytes(40), randomBytes(50)];
    const firstKey = await folder.put(first, 'jpg');
    const secondKey = await folder.put(second, 'png');
    await target.put(already, 'jpg');
    await folder.put(already, 'jpg');
    // A file named as a key whose bytes changed since (a damaged disk): not copied under that name.
    const damagedKey = `${sha256(Buffer.from('other bytes'))}.jpg`;
    writeFileSync(join(dir, damagedKey), 'damaged');
    writeFileSync(join(dir, 'notes.txt'), 'not a medium');

    expect(await copyFolderMediaToDatabase(dir, target)).toEqual({ copied: 2, skipped: [damagedKey] });
    for (const [key, bytes] of [
      [firstKey, first],
      [secondKey, second],
    ] as const) {
      expect((await readAll((await target.get(key))!.open())).equals(bytes)).toBe(true);
    }
    expect(await target.get(damagedKey)).toBeNull();
    // Idempotent: a second start copies nothing; the folder is left as it was.
    expect(await copyFolderMediaToDatabase(dir, target)).toEqual({ copied: 0, skipped: [damagedKey] });
    expect(readFileSync(join(dir, firstKey)).equals(first)).toBe(true);
  });

  it('refuses a row whose size is not its bytes, or whose key is not a media key (the database checks)', async () => {
    const bytes = Buffer.from('abc');
    await expect(
      database!.db.insert(media).values({ key: `${sha256(bytes)}.png`, contentType: 'image/png', bytes, size: 4 }),
    ).rejects.toThrow();
    await expect(
      database!.db.insert(media).values({ key: '../x.png', contentType: 'image/png', bytes, size: 3 }),
    ).rejects.toThrow();
  });
});

describe('the demo seed', () => {
  // A whole seed of a fresh database: tens of seconds for the embedded one on a loaded machine.
  it(
    'stores every medium its ads name in the storage given (the folder, or the database on PostgreSQL)',
    { timeout: 120_000 },
    async () => {
      const fresh = await createTestDatabase({ seed: false });
      try {
        const storage =
          fresh.kind === 'postgres' ? new DatabaseMediaStorage(fresh.db) : new LocalMediaStorage(freshDir());
        await seedDemoData(fresh.db, { media: storage });
        const named = (await fresh.db.select({ image: ads.image, mp4: ads.mp4, poster: ads.poster }).from(ads))
          .flatMap((ad) => [ad.image, ad.mp4, ad.poster])
          .filter((key): key is string => key !== null);
        expect(named.length).toBeGreaterThan(10);
        const stored = new Set(await storage.keys());
        expect(named.filter((key) => !stored.has(key))).toEqual([]);
      } finally {
        await fresh.drop();
      }
    },
  );
});
