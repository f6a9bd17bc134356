import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loginCodes, users } from '@helium/db';
import { MINUTE_MS } from '@helium/domain';
import { createTestDatabase } from '../../../test/test-database.ts';
import { LOGIN_CODE_MINUTES, LoginCodes } from './login-codes.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let codes: LoginCodes;
let userId: number;
const start = new Date('2026-11-25T10:00:00Z');
const later = (minutes: number) => new Date(start.getTime() + minutes * MINUTE_MS);

beforeAll(async () => {
  database = await createTestDatabase();
  codes = new LoginCodes(database.db, 'login-codes-test-secret-'.padEnd(40, 'x'));
  const [user] = await database.db.select().from(users).where(eq(users.email, 'advertiser@demo.test'));
  userId = user!.id;
});
afterAll(async () => {
  await database?.drop();
});

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('the life of a sign-in code', () => {
  it('is issued as 6 digits and stored only as a hash', async () => {
    const code = await codes.issue(userId, start);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await database.db.select().from(loginCodes).where(eq(loginCodes.userId, userId));
    expect(rows.some((row) => row.codeHash.includes(code))).toBe(false);
    expect(await codes.check(userId, code, later(1))).toBe('ok');
  });

  it('checks once: the same code again is expired', async () => {
    const code = await codes.issue(userId, start);
    expect(await codes.check(userId, code, later(1))).toBe('ok');
    expect(await codes.check(userId, code, later(2))).toBe('expired');
  });

  it(`expires after ${LOGIN_CODE_MINUTES} minutes`, async () => {
    const code = await codes.issue(userId, start);
    expect(await codes.check(userId, code, later(LOGIN_CODE_MINUTES))).toBe('expired');
  });

  it('is voided by a wrong code: the right one afterwards is refused', async () => {
    const code = await codes.issue(userId, start);
    expect(await codes.check(userId, wrongOf(code), later(1))).toBe('wrong');
    expect(await codes.check(userId, code, later(2))).toBe('expired');
  });

  it("never signs in another user's code", async () => {
    const [other] = await database.db.select().from(users).where(eq(users.email, 'publisher@demo.test'));
    const code = await codes.issue(other!.id, start);
    expect(await codes.check(userId, code, later(1))).toBe('wrong');
    expect(await codes.check(other!.id, code, later(1))).toBe('ok');
  });
});
