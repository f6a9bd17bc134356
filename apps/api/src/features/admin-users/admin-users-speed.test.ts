import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { listUsers } from './admin-users.ts';

/*
 * Admin: Users at 10,000 users (issue 24): the first page, a search by name and by e-mail, and a far page each answer
 * well under the budget. Measured on PGlite and PostgreSQL (docs/admin.md).
 */

const USERS = 10_000;
/** The budget of one listing, generous for a loaded CI machine (measured: a few to ~30 ms; see docs/admin.md). */
const BUDGET_MS = 250;

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  const FIRST = ['Anne', 'Bruno', 'Chloé', 'David', 'Emma', 'François', 'Gaëlle', 'Hugo', 'Inès', 'Jules'];
  const LAST = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'];
  for (let start = 0; start < USERS; start += 1000) {
    await t.db.insert(users).values(
      Array.from({ length: 1000 }, (_, offset) => {
        const n = start + offset;
        return {
          name: `${FIRST[n % 10]} ${LAST[Math.floor(n / 10) % 10]} ${n}`,
          email: `user${n}@speed.test`,
          currentType: 1,
        };
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** The median of 5 runs, in milliseconds, and the last answer. */
async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; answer: T }> {
  const times: number[] = [];
  let answer: T | undefined;
  await run(); // warm-up
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    answer = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[2]!, answer: answer as T };
}

describe(`get-users at ${USERS.toLocaleString('en')} users`, () => {
  it('answers the first page, a search and a far page within the budget', async () => {
    const cases = {
      firstPage: () => listUsers(t.db, {}),
      searchByName: () => listUsers(t.db, { search: 'chloé dubois 12' }),
      searchByEmail: () => listUsers(t.db, { search: 'USER9999@' }),
      searchCommon: () => listUsers(t.db, { search: 'martin' }),
      page150: () => listUsers(t.db, { page: 150 }),
    };
    const measured: Record<string, number> = {};
    for (const [name, run] of Object.entries(cases)) {
      const { ms, answer } = await timed(run);
      measured[name] = Math.round(ms * 10) / 10;
      expect(answer.users.length, name).toBeGreaterThan(0);
      expect(ms, name).toBeLessThan(BUDGET_MS);
    }
    console.info(`[admin-users speed, ${t.databaseKind}] median ms ${JSON.stringify(measured)}`);
    expect((await listUsers(t.db, { search: 'USER9999@' })).users.map((user) => user.email)).toEqual([
      'user9999@speed.test',
    ]);
    // A demo user may match too.
    expect((await listUsers(t.db, { search: 'martin' })).total).toBeGreaterThanOrEqual(USERS / 10);
  }, 60_000);
});
