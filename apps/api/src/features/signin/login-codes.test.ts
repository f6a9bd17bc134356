import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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
/** Browser ids (the helium_browser cookie): the owner's and someone else's. */
const OWNER = 'owner-browser-id';
const OTHER = 'other-browser-id';

beforeAll(async () => {
  database = await createTestDatabase();
  codes = new LoginCodes(database.db, 'login-codes-test-secret-'.padEnd(40, 'x'));
  const [user] = await database.db.select().from(users).where(eq(users.email, 'advertiser@demo.test'));
  userId = user!.id;
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await database?.drop();
});

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const openCodes = async () =>
  (await database.db.select().from(loginCodes).where(eq(loginCodes.userId, userId))).filter(
    (row) => row.consumedAt === null,
  );

describe('the life of a sign-in code', () => {
  it('is issued as 6 digits and stored only as a hash', async () => {
    const code = await codes.issue(userId, OWNER, start);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await database.db.select().from(loginCodes).where(eq(loginCodes.userId, userId));
    expect(rows.some((row) => row.codeHash.includes(code) || row.codeHash.includes(OWNER))).toBe(false);
    expect(await codes.check(userId, OWNER, code, later(1))).toBe('ok');
  });

  it('checks once: the same code again is expired', async () => {
    const code = await codes.issue(userId, OWNER, start);
    expect(await codes.check(userId, OWNER, code, later(1))).toBe('ok');
    expect(await codes.check(userId, OWNER, code, later(2))).toBe('expired');
  });

  it(`expires after ${LOGIN_CODE_MINUTES} minutes`, async () => {
    const code = await codes.issue(userId, OWNER, start);
    expect(await codes.check(userId, OWNER, code, later(LOGIN_CODE_MINUTES))).toBe('expired');
  });

  it('is voided by a wrong code typed in the same browser: the right one afterwards is refused', async () => {
    const code = await codes.issue(userId, OWNER, start);
    expect(await codes.check(userId, OWNER, wrongOf(code), later(1))).toBe('wrong');
    expect(await codes.check(userId, OWNER, code, later(2))).toBe('expired');
  });

  it("never signs in another user's code", async () => {
    const [other] = await database.db.select().from(users).where(eq(users.email, 'publisher@demo.test'));
    const code = await codes.issue(other!.id, OWNER, start);
    expect(await codes.check(userId, OWNER, code, later(1))).toBe('wrong');
    expect(await codes.check(other!.id, OWNER, code, later(1))).toBe('ok');
  });
});

describe('a code is bound to the browser that asked for it', () => {
  it('does not match in another browser, and wrong codes there spend none of the owner’s', async () => {
    const code = await codes.issue(userId, OWNER, start);
    expect(await codes.check(userId, OTHER, code, later(1))).toBe('wrong');
    for (let i = 0; i < 10; i += 1) expect(await codes.check(userId, OTHER, wrongOf(code), later(1))).toBe('wrong');
    expect(await codes.check(userId, OWNER, code, later(2))).toBe('ok');
  });

  it('spends only the checking browser’s open codes', async () => {
    await codes.check(userId, OWNER, '000000', start);
    await codes.issue(userId, OWNER, start);
    await codes.issue(userId, OTHER, start);
    expect(await codes.spendOpen(userId, OTHER, later(1))).toHaveLength(1);
    expect(await openCodes()).toHaveLength(1);
    expect(await codes.spendOpen(userId, OWNER, later(1))).toHaveLength(1);
    expect(await openCodes()).toHaveLength(0);
  });

  it('tells whether a code is open without spending it (isOpen)', async () => {
    const code = await codes.issue(userId, OWNER, start);
    expect(await codes.isOpen(userId, OWNER, code, later(1))).toBe(true);
    expect(await codes.isOpen(userId, OWNER, wrongOf(code), later(1))).toBe(false);
    expect(await codes.isOpen(userId, OTHER, code, later(1))).toBe(false);
    expect(await codes.isOpen(userId, OWNER, code, later(LOGIN_CODE_MINUTES))).toBe(false);
    expect(await codes.check(userId, OWNER, code, later(2))).toBe('ok');
    expect(await codes.isOpen(userId, OWNER, code, later(3))).toBe(false);
  });
});

describe('concurrent checks (issue 21, point 5: the check-and-spend is one statement)', () => {
  it('lets the right code, sent five times at once, succeed once', async () => {
    const code = await codes.issue(userId, OWNER, start);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => codes.check(userId, OWNER, code, later(1))));
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'expired')).toHaveLength(4);
  });

  it.each([
    ['the wrong ones first', (code: string) => [wrongOf(code), wrongOf(wrongOf(code)), '999999', '000007', code]],
    ['the right one first', (code: string) => [code, wrongOf(code), wrongOf(wrongOf(code)), '999999', '000007']],
  ])('spends the open codes exactly once among 4 wrong and the right one at once (%s)', async (_order, guessesOf) => {
    // Two open codes: a wrong guess must not get past either.
    await codes.issue(userId, OWNER, start);
    const code = await codes.issue(userId, OWNER, start);
    const guesses = guessesOf(code).filter((guess, i, all) => all.indexOf(guess) === i);
    const spends = vi.spyOn(codes, 'spendOpen');
    const outcomes = await Promise.all(guesses.map((guess) => codes.check(userId, OWNER, guess, later(1))));
    // Each check spends first (its call order is the checks' order), so spends[i] belongs to guesses[i].
    const spent = await Promise.all(spends.mock.results.map(async (result) => (await result.value).length));
    expect(spent).toHaveLength(guesses.length);
    expect(spent.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(spent.filter((count) => count > 0)).toHaveLength(1);
    guesses.forEach((guess, i) => {
      // Only the right code, and only when its own check spent the codes, signs in.
      expect(outcomes[i] === 'ok').toBe(guess === code && spent[i] === 2);
      if (guess !== code) expect(outcomes[i]).toBe('wrong');
    });
    expect(outcomes.filter((outcome) => outcome === 'ok').length).toBeLessThanOrEqual(1);
    expect(await openCodes()).toHaveLength(0);
  });
});
