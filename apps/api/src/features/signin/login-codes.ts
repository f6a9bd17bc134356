import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { loginCodes, type Database } from '@helium/db';
import { hmac, safeEqual, sixDigitCode } from '../../infra/tokens.ts';

/** How long a mailed code signs in (docs/decisions.md section 7). */
export const LOGIN_CODE_MINUTES = 15;
const LOGIN_CODE_MS = LOGIN_CODE_MINUTES * 60_000;

/** What a typed code turned out to be. */
export type CodeCheck = 'ok' | 'wrong' | 'expired';

/** An open code as the atomic spend returned it. */
export interface SpentCode {
  codeHash: string;
  expiresAt: Date;
}

/**
 * The life of a sign-in code: issued (mailed, stored only as an HMAC), checked once, expired after 15
 * minutes.
 *
 * A code is bound to the browser that asked for it (its `helium_browser` id, http/csrf.ts): only a check
 * from that browser can match it, and a check spends only that browser's open codes, right or wrong. So
 * each mailed code can be guessed at most once, and only by whoever asked for it; someone guessing from
 * elsewhere spends nothing of the owner's and cannot void the code the owner is about to type.
 *
 * The stored value is `tag.hash`: the tag (an HMAC of the browser id) finds a browser's codes, the hash
 * (an HMAC of user, browser and code) checks one. Neither tells the code or the browser id.
 *
 * The check is one statement: `UPDATE ... SET consumed_at WHERE open RETURNING` spends the browser's open
 * codes and hands them to exactly one of any concurrent checks (PostgreSQL re-checks `consumed_at IS NULL`
 * on a row another transaction just updated; PGlite runs one statement at a time), which then compares
 * the hashes. Among concurrent guesses at most one can succeed, and a wrong guess that spent the codes
 * first leaves nothing for the right one.
 */
export class LoginCodes {
  constructor(
    private readonly db: Database,
    private readonly secret: string,
  ) {}

  private tag(browser: string): string {
    return hmac(`login-browser:${this.secret}`, browser).slice(0, 22);
  }

  private stored(userId: number, browser: string, code: string): string {
    return `${this.tag(browser)}.${hmac(`login:${this.secret}`, `${userId}:${browser}:${code}`)}`;
  }

  private ofBrowser(userId: number, browser: string) {
    return and(eq(loginCodes.userId, userId), sql`split_part(${loginCodes.codeHash}, '.', 1) = ${this.tag(browser)}`);
  }

  /** A new code for the user, asked for by `browser`, valid from `now`; the caller mails it. */
  async issue(userId: number, browser: string, now: Date): Promise<string> {
    const code = sixDigitCode();
    await this.db.insert(loginCodes).values({
      userId,
      codeHash: this.stored(userId, browser, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + LOGIN_CODE_MS),
    });
    return code;
  }

  /**
   * Whether the code is open and unexpired for this browser, spending nothing: for an answer that needs
   * more from the user first (the agreement to the terms) without making them ask for another code.
   * Only a right code is left unspent so; anything else must go through `check`.
   */
  async isOpen(userId: number, browser: string, code: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .select({ id: loginCodes.id })
      .from(loginCodes)
      .where(
        and(
          this.ofBrowser(userId, browser),
          isNull(loginCodes.consumedAt),
          gt(loginCodes.expiresAt, now),
          eq(loginCodes.codeHash, this.stored(userId, browser, code)),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** Spends every open code of the user asked for by this browser, in one statement, and answers them. */
  async spendOpen(userId: number, browser: string, now: Date): Promise<SpentCode[]> {
    return this.db
      .update(loginCodes)
      .set({ consumedAt: now })
      .where(and(this.ofBrowser(userId, browser), isNull(loginCodes.consumedAt)))
      .returning({ codeHash: loginCodes.codeHash, expiresAt: loginCodes.expiresAt });
  }

  /** Checks a typed code: spends the browser's open codes whatever the outcome, then compares. */
  async check(userId: number, browser: string, code: string, now: Date): Promise<CodeCheck> {
    const spent = await this.spendOpen(userId, browser, now);
    const expected = this.stored(userId, browser, code);
    const match = spent.find((row) => safeEqual(row.codeHash, expected));
    if (match) return match.expiresAt.getTime() > now.getTime() ? 'ok' : 'expired';
    // A code that was right but already spent (used, or voided by a wrong guess) reads as expired: start again.
    const used = await this.db
      .select({ id: loginCodes.id })
      .from(loginCodes)
      .where(
        and(
          this.ofBrowser(userId, browser),
          eq(loginCodes.codeHash, expected),
          isNotNull(loginCodes.consumedAt),
          gt(loginCodes.expiresAt, now),
        ),
      )
      .limit(1);
    return used.length > 0 ? 'expired' : 'wrong';
  }
}
