import { normalizeIP } from '@fastify/rate-limit';
import { DAY_MS } from '@helium/domain';
import type { FastifyRequest } from 'fastify';
import type { RateLimit, RateLimiter, RateLimitRule } from '../../infra/rate-limiter.ts';

export interface SigninLimits {
  /** Any sign-in call from one address, whatever the e-mail (SIGNIN_LIMIT_PER_IP). */
  perIp: RateLimit;
  /**
   * For one e-mail from one address, each on its own: codes asked for (step 1), and wrong codes typed
   * (step 2) (SIGNIN_LIMIT_PER_EMAIL).
   */
  perEmail: RateLimit;
  /** Codes mailed to one e-mail from all addresses together; INBOX_LIMIT_FACTOR × perEmail when absent. */
  perInbox?: RateLimit;
}

/** The inbox limit as a multiple of the per-address one: the owner's own retries, and a few more places. */
export const INBOX_LIMIT_FACTOR = 3;
/** An address the user signed in from this recently is the owner's own, for the inbox limit. */
const KNOWN_ADDRESS_MS = 90 * DAY_MS;

/**
 * The address a limit counts (@fastify/rate-limit's own): an IPv4 address as it is, an IPv6 one by its /64 (a
 * subscriber is handed a whole /64, and could otherwise change address at every try). An IPv4-mapped IPv6 address
 * is its IPv4.
 */
export function addressKey(ip: string): string {
  return normalizeIP(ip, 64);
}

/**
 * The rate limits of sign-in (issue 21, point 5). Why each, and why so:
 *
 * - **Step 1 (asking for a code) and step 2 (typing one) are limited apart, and per e-mail *and address*.**
 *   When every attempt counted for the e-mail alone, ten wrong codes typed for someone from ten
 *   addresses answered 429 to that person's own next step 1 for 15 minutes: anyone could lock anyone out.
 *   Now what an address does counts against that address only.
 * - **Wrong codes are counted per e-mail and address, on failure only, and looked at before the code is.**
 *   They only slow one address down: what bounds guessing is that a code matches only in the browser that
 *   asked for it, once (login-codes.ts). A guesser's odds are one in a million per code mailed on their
 *   behalf, whatever the number of their guesses, and their wrong codes spend none of the owner's. The
 *   owner's success costs nothing; a blocked address spends nothing.
 * - **Codes mailed: per e-mail and address (`perEmail`: the owner's own retries) and per inbox, all
 *   addresses together (`perInbox`).** The inbox limit keeps a flood of mail from anyone's inbox and also
 *   bounds the codes that can be guessed against an account (`perInbox` per window, one guess each). It is
 *   the one count many addresses share, so it could block the owner: an address the owner signed in from
 *   in the last 90 days is exempt from it (an attacker does not hold it), and elsewhere the owner waits at
 *   most one window after a flood that took at least `perInbox / perEmail` addresses.
 * - **`perIp`: any call from one address, whatever the e-mail**, bounds one address's share of everything.
 *
 * Every count is kept the same way for an e-mail nobody has as for a known one, so a 429 tells nothing
 * about whether an e-mail exists (the exemption above concerns only addresses the owner used).
 */
export class SignInThrottle {
  private readonly perIp: RateLimitRule;
  /** Codes asked for, and wrong codes typed, by one address for one e-mail (each its own keys). */
  private readonly perEmail: RateLimitRule;
  private readonly perInbox: RateLimitRule;

  constructor(limiter: RateLimiter, limits: SigninLimits) {
    this.perIp = limiter.rule(limits.perIp);
    this.perEmail = limiter.rule(limits.perEmail);
    this.perInbox = limiter.rule(
      limits.perInbox ?? { limit: INBOX_LIMIT_FACTOR * limits.perEmail.limit, windowMs: limits.perEmail.windowMs },
    );
  }

  /** Any sign-in call: counted, and false when the address has made too many. */
  allowCall(request: FastifyRequest): Promise<boolean> {
    return this.perIp.allow(request, `signin:ip:${addressKey(request.ip)}`);
  }

  /**
   * Step 1: whether a code may be mailed (counted whether or not the e-mail exists). `isOwnersAddress`
   * is asked only when the inbox limit is reached.
   */
  async allowCode(request: FastifyRequest, email: string, isOwnersAddress: () => Promise<boolean>): Promise<boolean> {
    if (!(await this.perEmail.allow(request, `signin:code:${email}:${addressKey(request.ip)}`))) return false;
    if (await this.perInbox.allow(request, `signin:inbox:${email}`)) return true;
    return isOwnersAddress();
  }

  /** Step 2: whether this address may still type a code for this e-mail (nothing counted). */
  async allowGuess(request: FastifyRequest, email: string): Promise<boolean> {
    return !(await this.perEmail.isExhausted(request, `signin:wrong:${email}:${addressKey(request.ip)}`));
  }

  /** Step 2: a wrong or spent code, or an unknown e-mail, typed from this address. */
  async recordFailedGuess(request: FastifyRequest, email: string): Promise<void> {
    await this.perEmail.record(request, `signin:wrong:${email}:${addressKey(request.ip)}`);
  }
}

/** Since when a session from an address makes it the owner's own. */
export function knownAddressSince(now: Date): Date {
  return new Date(now.getTime() - KNOWN_ADDRESS_MS);
}
