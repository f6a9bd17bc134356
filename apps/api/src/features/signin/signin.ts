import { auditLog, type Database } from '@helium/db';
import { HOME_PATH_BY_TYPE, mustAgree, resolveCurrentAccount } from '@helium/domain';
import type { TSignInRequest, TSignInResponse } from '@helium/contracts';
import type { Mailer } from '../../infra/mailer.ts';
import { accountsOf, findUserByEmail, updateUserChoice } from '../account/users.ts';
import { loginCodeMail } from './login-code-mail.ts';
import { LOGIN_CODE_MINUTES, type CodeCheck, type LoginCodes } from './login-codes.ts';

export interface SignInDeps {
  db: Database;
  mailer: Mailer;
  codes: LoginCodes;
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
 * Passwordless sign-in (decisions.md section 7). Step 1 mails a 6-digit code; step 2 checks it, asks a
 * publisher or advertiser who has not yet agreed to the terms to agree, and stores the agreement with its date.
 */
export async function signIn(deps: SignInDeps, body: TSignInRequest, ip: string, now: Date): Promise<SignInOutcome> {
  const { db, mailer, codes } = deps;
  const answer = (status: TSignInResponse['status'], step: 1 | 2 | 3, extra: Partial<TSignInResponse> = {}) => ({
    answer: { status, step, hasUserAgreed: true, userType: null, redirectTo: null, ...extra },
    signedInUserId: null,
  });
  const user = await findUserByEmail(db, body.email);
  if (!user) return answer('wrongCredentialsWrongUser', 1);

  const accounts = await accountsOf(db, user.id);
  const current = resolveCurrentAccount(user, accounts);
  const agreementNeeded = mustAgree(user, accounts);
  const facts = { hasUserAgreed: !agreementNeeded, userType: current?.type ?? null };

  if (body.step === 1) {
    const code = await codes.issue(user.id, now);
    await mailer.send(
      loginCodeMail({ to: user.email, name: user.name, code, locale: user.locale, minutes: LOGIN_CODE_MINUTES }),
    );
    return answer('ok', 2, facts);
  }

  if (agreementNeeded && body.hasUserAgreed !== true) return answer('agreementRequired', 2, facts);
  const check = await codes.check(user.id, body.code ?? '', now);
  if (check !== 'ok') return answer(REFUSAL_OF[check], 1, facts);

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
      redirectTo: current ? HOME_PATH_BY_TYPE[current.type] : '/',
    },
    signedInUserId: user.id,
  };
}
