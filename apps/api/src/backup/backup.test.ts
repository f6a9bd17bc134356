import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { API_CALLS } from '@helium/contracts';
import { ads, BackupError, migrateDatabase, openDatabase, seedDemoData } from '@helium/db';
import { embeddedDatabaseDir } from '../config.ts';
import { AD_PREVIEWS_JOB } from '../features/ads/previews.ts';
import { buildTestApp, type TestApp, type TestClient } from '../../test/helper.ts';
import { fixture, signedIn, upload } from '../../test/ads-support.ts';
import { CALL_SAMPLES, databaseFingerprint, demoIds, samplePath, type DemoIds } from '../../test/call-samples.ts';
import { blogAndTwoCampaigns, click, decide, view } from '../../test/serve-support.ts';
import { createTestDatabase, TEST_DRIVER, type TestDatabase } from '../../test/test-database.ts';
import { makeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';

const ROLES = ['admin', 'publisher', 'advertiser'] as const;
type Role = (typeof ROLES)[number];

/** Every screen's read call of each role (the contracts' `get-` calls), with the matrix's sample body. */
const READ_CALLS = API_CALLS.filter(
  (call) => call.path.includes('/get-') && (ROLES as readonly string[]).includes(call.access),
);

const root = mkdtempSync(join(tmpdir(), 'helium-backup-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A database for the test: the embedded one in `dataDir` (as the server keeps it), or a fresh PostgreSQL one. */
async function openStorage(dataDir: string, seed: boolean): Promise<TestDatabase> {
  if (TEST_DRIVER === 'postgres') return createTestDatabase({ seed });
  const handle = await openDatabase({ pgliteDir: embeddedDatabaseDir(dataDir) });
  await migrateDatabase(handle);
  if (seed) await seedDemoData(handle.db);
  return { ...handle, url: undefined, drop: () => handle.close() };
}

/** What every screen shows each role: each read call's status and body. */
async function screens(t: TestApp, clients: Record<Role, TestClient>, ids: DemoIds) {
  const seen: Record<string, unknown> = {};
  for (const call of READ_CALLS) {
    const client = clients[call.access as Role];
    const response = await client.post(samplePath(call.path, ids), CALL_SAMPLES[call.path]?.body(ids) ?? {});
    seen[call.path] = { status: response.statusCode, body: response.json() };
  }
  return seen;
}

/** The same signed-in browsers (their cookies) on another instance of the app. */
function sameBrowsers(t: TestApp, clients: Record<Role, TestClient>): Record<Role, TestClient> {
  return Object.fromEntries(
    ROLES.map((role) => {
      const client = t.client();
      for (const [name, value] of clients[role].cookies) client.cookies.set(name, value);
      return [role, client];
    }),
  ) as Record<Role, TestClient>;
}

describe('backup and restore', () => {
  it('restores a network after traffic into an empty folder with the same rows, uploads, sessions and screens', async () => {
    const dataDir = join(root, 'data');
    const database = await openStorage(dataDir, true);
    const env = { DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) };
    // The test closes and drops the database itself: the app only uses it.
    const t = await buildTestApp({ database: { ...database, drop: async () => {} }, env });
    const ids = await demoIds(t.db);

    // Traffic: decisions, views and a click from a few visitors, and an upload.
    const { blog } = await blogAndTwoCampaigns(t.db);
    for (let visitor = 1; visitor <= 4; visitor++) {
      const ip = `10.7.0.${visitor}`;
      const { ads: served } = await decide(t, blog, { ip });
      for (const ad of served) expect((await view(t, ad.view, { ip })).headers['x-helium-counted']).toBe('counted');
      if (visitor === 1 && served[0]) await click(t, served[0].click, { ip });
    }
    await t.app.delivery.recorder.flush();
    const clients = {
      admin: await signedIn(t, 'admin@demo.test'),
      publisher: await signedIn(t, 'publisher@demo.test'),
      advertiser: await signedIn(t, 'advertiser@demo.test'),
    };
    const bytes = fixture('nordvik-square.png');
    const uploaded = await upload(t, clients.advertiser, { name: 'square.png', bytes, type: 'image/png' });
    expect(uploaded.statusCode).toBe(200);
    // Its preview is made by a timed job too (also at the next start): made now, so that both reads see it.
    await t.app.ctx.scheduler.runNow(AD_PREVIEWS_JOB);
    const [ad] = await t.db.select().from(ads).where(eq(ads.id, uploaded.json().adId));
    const before = await screens(t, clients, ids);
    expect(Object.keys(before).length).toBeGreaterThan(20);
    await t.close();
    const rows = await databaseFingerprint(database.db);
    // The embedded database is backed up while no server has it open; PostgreSQL while it serves.
    if (!database.url) await database.close();

    const archive = join(root, 'backups', 'one.tar.gz');
    const manifest = await makeBackup({ dataDir, databaseUrl: database.url }, archive);
    expect(manifest.database).toBe(database.url ? 'postgres' : 'embedded');
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    // Into the folder or database it came from: refused.
    await expect(restoreBackup(archive, { dataDir, databaseUrl: database.url })).rejects.toThrow(BackupError);

    // The data wiped; restored into a new empty folder and, on PostgreSQL, a new database without tables.
    if (database.url) await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    const restoredDir = join(root, 'restored');
    const emptyPostgres = database.url ? await createTestDatabase({ migrate: false }) : undefined;
    await restoreBackup(archive, { dataDir: restoredDir, databaseUrl: emptyPostgres?.url });
    const restored = emptyPostgres ?? (await openStorage(restoredDir, false));

    const again = await buildTestApp({
      database: restored,
      env: { DATA_DIR: restoredDir, ...(restored.url ? { DATABASE_URL: restored.url } : {}) },
    });
    // The figures of "the last minutes" are read at the same time as before.
    again.clock.advance(t.clock.now().getTime() - again.clock.now().getTime());
    try {
      expect(await databaseFingerprint(again.db)).toEqual(rows);
      // The same browsers, still signed in (sessions and the secret came back), see the same figures everywhere.
      expect(await screens(again, sameBrowsers(again, clients), ids)).toEqual(before);
      const media = await again.app.inject({ method: 'GET', url: `/media/${ad!.image}` });
      expect(media.statusCode).toBe(200);
      expect(media.rawPayload.equals(bytes)).toBe(true);
    } finally {
      await again.close();
    }
    // Seeding, traffic, two databases and every screen twice: a minute on a loaded machine.
  }, 180_000);
});
