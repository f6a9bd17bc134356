/**
 * node --import tsx scripts/bench/admin-users.ts [--users <10000>] [--database-url <PostgreSQL server>]
 *
 * Admin: Users at 10,000 users (issue 24): seeds the demo data plus `--users` users into an embedded PGlite database
 * in a temporary folder (or a throw-away database of a PostgreSQL server), then times what POST /api/admin/get-users
 * does once the gate has let the admin in: the first page, a search by name, by e-mail, a common word and a far
 * page, each the median of 5 runs after a warm-up. Figures go to docs/admin.md by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createThrowAwayDatabase, migrateDatabase, openDatabase, seedDemoData } from '@helium/db';
import { listUsers } from '../../apps/api/src/features/admin-users/admin-users.ts';
import { insertManyUsers } from '../../apps/api/test/many-users.ts';

const { values } = parseArgs({ options: { users: { type: 'string' }, 'database-url': { type: 'string' } } });
const userCount = Number(values.users ?? '10000');

const dataDir = mkdtempSync(join(os.tmpdir(), 'helium-bench-admin-users-'));
const throwAway = values['database-url']
  ? await createThrowAwayDatabase(values['database-url'], { prefix: 'bench_admin_users' })
  : undefined;
const database = await openDatabase(throwAway ? { url: throwAway.url } : { pgliteDir: join(dataDir, 'db') });
try {
  await migrateDatabase(database);
  await seedDemoData(database.db);
  await insertManyUsers(database.db, userCount);
  const cases = {
    firstPage: () => listUsers(database.db, {}),
    searchByName: () => listUsers(database.db, { search: 'chloé dubois 12' }),
    searchByEmail: () => listUsers(database.db, { search: 'USER9999@' }),
    searchCommon: () => listUsers(database.db, { search: 'martin' }),
    page150: () => listUsers(database.db, { page: 150 }),
  };
  console.log(
    `get-users at ${userCount.toLocaleString('en')} users on ${throwAway ? 'PostgreSQL' : 'PGlite'}, median ms of 5:`,
  );
  for (const [name, run] of Object.entries(cases)) {
    await run(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${name.padEnd(14)} ${times[2]!.toFixed(1)}`);
  }
} finally {
  await database.close();
  await throwAway?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
