import { auditLog, type Database } from '@helium/db';
import { homePathOf, mustAgree, resolveCurrentAccount, returnPathOf } from '@helium/domain';
import type { TSignInRequest, TSignInResponse } from '@helium/contracts';
import type { FastifyRequest } from 'fastify';
import { tooManyRequests } from '../../http/errors.ts';
import { hasSignedInFrom } from '../account/sessions.ts';
import { accountsOf, findUserByEmail, updateUserChoice } from '../account/users.ts';
import type { CodeMailer } from './code-mailer.ts';
import { loginCodeMail } from './login-code-mail.ts';
import { LOGIN_CODE_MINUTES, type CodeCheck, type LoginCodes } from './login-codes.ts';
import { knownAddressSince, type SignInThrottle } from './signin-limits.ts';

export interface SignInDeps {
  db: Database;
  codes: LoginCodes;
  limits: SignInThrottle;
  /** Mails the code, or takes as long for an unknown e-mail. */
  mail: CodeMailer;
}

/** Who calls: the request (its address, for the rate limits) and the browser id (a code is bound to it). */
export interface SignInCaller {
  request: FastifyRequest;
  browser: string;
}

/** The answer, and the user to start a session for when the code was right. */
export interface SignInOutcome {
  answer: TSignInResponse;
  signedInUserId: number | null;
}

const REFUSAL_OF: Record<Exclude<CodeCheck, 'ok'>, TSignInResponse['status']> = {
  wrong: 'wrongCredentialsWrongToken',
  expired: 'expiredCode',
};

/**
 * Passwordless sign-in (docs/decisions.md section 7). Step 1 mails a 6-digit code; step 2 checks it, asks a
 * publisher or advertiser who has not yet agreed to the terms to agree, and stores the agreement with its date.
 * Both answer 429 past their rate limits (signin-limits.ts).
 *
 * Nothing before a right code tells anything about the e-mail (issue 21, point 7): step 1 answers the same
 * for a known and an unknown e-mail, with no user type, in about the same time (the mail goes only to a
 * known one, code-mailer.ts); at step 2 an unknown e-mail reads as a wrong code, and the agreement is asked
 * for only once the code is right (the code is then left open, so the same code with the agreement signs in).
 */
export async function signIn(
  deps: SignInDeps,
  body: TSignInRequest,
  caller: SignInCaller,
  now: Date,
): Promise<SignInOutcome> {
  const { db, codes, limits } = deps;
  const { request, browser } = caller;
  const { ip } = request;
  const answer = (status: TSignInResponse['status'], step: 1 | 2 | 3, extra: Partial<TSignInResponse> = {}) => ({
    answer: { status, step, hasUserAgreed: true, userType: null, redirectTo: null, ...extra },
    signedInUserId: null,
  });
  if (!(await limits.allowCall(request))) throw tooManyRequests();

  if (body.step === 1) {
    const user = await findUserByEmail(db, body.email);
    const isOwnersAddress = async () => !!user && hasSignedInFrom(db, user.id, ip, knownAddressSince(now));
    if (!(await limits.allowCode(request, body.email, isOwnersAddress))) throw tooManyRequests();
    if (user) {
      const code = await codes.issue(user.id, browser, now);
      await deps.mail.send(
        loginCodeMail({ to: user.email, name: user.name, code, locale: user.locale, minutes: LOGIN_CODE_MINUTES }),
      );
    } else {
      await deps.mail.pretend();
    }
    return answer('ok', 2);
  }

  if (!(await limits.allowGuess(request, body.email))) throw tooManyRequests();
  const failed = async (status: TSignInResponse['status']) => {
    await limits.recordFailedGuess(request, body.email);
    return answer(status, 1);
  };
  const user = await findUserByEmail(db, body.email);
  if (!user) return failed(REFUSAL_OF.wrong);
  const code = body.code ?? '';
  const accounts = await accountsOf(db, user.id);
  const current = resolveCurrentAccount(user, accounts);
  const agreementNeeded = mustAgree(user, accounts);
  if (agreementNeeded && body.hasUserAgreed !== true && (await codes.isOpen(user.id, browser, code, now))) {
    return answer('agreementRequired', 2, { hasUserAgreed: false });
  }
  const check = await codes.check(user.id, browser, code, now);
  if (check !== 'ok') return failed(REFUSAL_OF[check]);

  if (agreementNeeded) await updateUserChoice(db, user.id, { agreedAt: now });
  await db.insert(auditLog).values({
    actorUserId: user.id,
    action: agreementNeeded ? 'signin.agreed' : 'signin',
    targetType: 'user',
    targetId: user.id,
    ip,
    createdAt: now,
  });
  return {
    answer: {
      status: 'ok',
      step: 3,
      hasUserAgreed: true,
      userType: current?.type ?? null,
      redirectTo: returnPathOf(body.next) ?? (current ? homePathOf(current) : '/'),
    },
    signedInUserId: user.id,
  };
}
