import { and, eq, gt, isNull } from 'drizzle-orm';
import { loginCodes, type Database } from '@helium/db';
import { hmac, safeEqual, sixDigitCode } from '../../infra/tokens.ts';

/** How long a mailed code signs in (decisions.md section 7). */
export const LOGIN_CODE_MINUTES = 15;
const LOGIN_CODE_MS = LOGIN_CODE_MINUTES * 60_000;

/** What a typed code turned out to be. */
export type CodeCheck = 'ok' | 'wrong' | 'expired';

/**
 * The life of a sign-in code: issued (mailed, stored only as an HMAC), checked once, expired after 15
 * minutes. Any check spends every open code of the user, right or wrong, so each mailed code can be guessed
 * at most once; the rate limits of the sign-in call cap how many codes can be asked for.
 */
export class LoginCodes {
  constructor(
    private readonly db: Database,
    private readonly secret: string,
  ) {}

  private hash(userId: number, code: string): string {
    return hmac(`login:${this.secret}`, `${userId}:${code}`);
  }

  /** A new code for the user, valid from `now`; the caller mails it. */
  async issue(userId: number, now: Date): Promise<string> {
    const code = sixDigitCode();
    await this.db.insert(loginCodes).values({
      userId,
      codeHash: this.hash(userId, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + LOGIN_CODE_MS),
    });
    return code;
  }

  /** Checks a typed code and spends the user's open codes whatever the outcome. */
  async check(userId: number, code: string, now: Date): Promise<CodeCheck> {
    const { db } = this;
    const open = and(eq(loginCodes.userId, userId), isNull(loginCodes.consumedAt));
    const openCodes = await db.select().from(loginCodes).where(open);
    const expected = this.hash(userId, code);
    const match = openCodes.find((row) => safeEqual(row.codeHash, expected));
    await db.update(loginCodes).set({ consumedAt: now }).where(open);
    if (!match) {
      const spent = await db
        .select({ id: loginCodes.id })
        .from(loginCodes)
        .where(and(eq(loginCodes.userId, userId), eq(loginCodes.codeHash, expected), gt(loginCodes.expiresAt, now)))
        .limit(1);
      // A code that was right but already used is reported like an expired one: start again.
      return spent.length > 0 ? 'expired' : 'wrong';
    }
    return match.expiresAt.getTime() <= now.getTime() ? 'expired' : 'ok';
  }
}
