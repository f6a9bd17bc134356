import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { insertManyUsers } from '../../../test/many-users.ts';
import { listUsers } from './admin-users.ts';

/*
 * Admin: Users at 10,000 users (issue 24): the first page, a search by name and by e-mail, a common word and a far
 * page each find the right users, on PGlite and PostgreSQL. How long they take is `npm run bench:admin-users`'s to
 * measure (docs/admin.md), not a test's: a loaded machine would make a timed test fail at random.
 */

const USERS = 10_000;

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  await insertManyUsers(t.db, USERS);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe(`get-users at ${USERS.toLocaleString('en')} users`, () => {
  it('finds by name and e-mail anywhere in them, counts every match, and pages to the end', async () => {
    const firstPage = await listUsers(t.db, {});
    expect(firstPage.users).toHaveLength(firstPage.pageSize);
    expect(firstPage.total).toBeGreaterThan(USERS);

    // User 122 is Chloé Dubois 122 (see insertManyUsers); so are 1222, 1232... which the search finds too.
    const byName = await listUsers(t.db, { search: 'chloé dubois 12' });
    expect(byName.users.map((user) => user.name)).toContain('Chloé Dubois 122');
    expect(byName.users.every((user) => user.name.toLowerCase().includes('chloé dubois 12'))).toBe(true);

    expect((await listUsers(t.db, { search: 'USER9999@' })).users.map((user) => user.email)).toEqual([
      'user9999@speed.test',
    ]);

    // One in ten is a Martin; a demo user may be one too.
    const common = await listUsers(t.db, { search: 'martin' });
    expect(common.total).toBeGreaterThanOrEqual(USERS / 10);
    expect(common.users).toHaveLength(common.pageSize);

    const far = await listUsers(t.db, { page: 150 });
    expect(far.users.length).toBeGreaterThan(0);
    expect(far.users.map((user) => user.id)).not.toEqual(firstPage.users.map((user) => user.id));
  }, 60_000);
});
