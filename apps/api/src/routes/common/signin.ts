import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, loginCodes, users } from '@helium/db';
import { HOME_PATH_BY_TYPE } from '@helium/domain';
import { ZSignInRequestSchema, type TSignInResponse } from '@helium/contracts';
import { hmac, safeEqual, sixDigitCode } from '../../auth/tokens.ts';
import { tooManyRequests } from '../../errors.ts';
import { loginCodeMail } from '../../services/mail-templates.ts';
import { accountsOf, findUserByEmail, mustAgree, resolveCurrentAccount } from '../../services/users.ts';
import { parseWith } from '../../validation.ts';

export const LOGIN_CODE_MINUTES = 15;

/**
 * Passwordless sign-in (decisions.md section 7). Step 1 mails a 6-digit code; step 2 checks it. A wrong
 * code voids every open code of that user, so each mailed code can be guessed at most once; the rate
 * limits per e-mail and per IP cap how many codes can be asked for and tried.
 */
export default async function signinRoutes(app: FastifyInstance) {
  const { db, clock, mailer, limiter, config, signinLimits } = app.ctx;
  const codeHash = (userId: number, code: string) => hmac(`login:${config.sessionSecret}`, `${userId}:${code}`);

  app.post('/signin', async (request, reply): Promise<TSignInResponse> => {
    const body = parseWith(ZSignInRequestSchema, request.body);
    const [ipAllowed, emailAllowed] = await Promise.all([
      limiter.allow(`signin:ip:${request.ip}`, signinLimits.perIp),
      limiter.allow(`signin:email:${body.email}`, signinLimits.perEmail),
    ]);
    if (!ipAllowed || !emailAllowed) throw tooManyRequests();

    const user = await findUserByEmail(db, body.email);
    const answer = (status: TSignInResponse['status'], step: 1 | 2 | 3, extra: Partial<TSignInResponse> = {}) => ({
      status,
      step,
      hasUserAgreed: true,
      userType: null,
      redirectTo: null,
      ...extra,
    });
    if (!user) return answer('wrongCredentialsWrongUser', 1);

    const accounts = await accountsOf(db, user.id);
    const current = resolveCurrentAccount(user, accounts);
    const agreementNeeded = mustAgree(user, accounts);
    const facts = { hasUserAgreed: !agreementNeeded, userType: current?.type ?? null };

    if (body.step === 1) {
      const code = sixDigitCode();
      const now = clock.now();
      await db.insert(loginCodes).values({
        userId: user.id,
        codeHash: codeHash(user.id, code),
        createdAt: now,
        expiresAt: new Date(now.getTime() + LOGIN_CODE_MINUTES * 60_000),
      });
      await mailer.send(
        loginCodeMail({ to: user.email, name: user.name, code, locale: user.locale, minutes: LOGIN_CODE_MINUTES }),
      );
      return answer('ok', 2, facts);
    }

    if (agreementNeeded && body.hasUserAgreed !== true) return answer('agreementRequired', 2, facts);
    const code = body.code ?? '';
    const now = clock.now();
    const openCodes = await db
      .select()
      .from(loginCodes)
      .where(and(eq(loginCodes.userId, user.id), isNull(loginCodes.consumedAt)));
    const expected = codeHash(user.id, code);
    const match = openCodes.find((row) => safeEqual(row.codeHash, expected));
    // Whatever the outcome, the codes on the table are spent: one guess per mailed code.
    await db
      .update(loginCodes)
      .set({ consumedAt: now })
      .where(and(eq(loginCodes.userId, user.id), isNull(loginCodes.consumedAt)));
    if (!match) {
      const spent = await db
        .select({ id: loginCodes.id })
        .from(loginCodes)
        .where(and(eq(loginCodes.userId, user.id), eq(loginCodes.codeHash, expected), gt(loginCodes.expiresAt, now)))
        .limit(1);
      // A code that was right but already used is reported like an expired one: start again.
      return answer(spent.length > 0 ? 'expiredCode' : 'wrongCredentialsWrongToken', 1, facts);
    }
    if (match.expiresAt.getTime() <= now.getTime()) return answer('expiredCode', 1, facts);

    if (agreementNeeded) await db.update(users).set({ agreedAt: now }).where(eq(users.id, user.id));
    await app.startSession(request, reply, user.id);
    app.issueXsrfCookie(reply);
    await db.insert(auditLog).values({
      actorUserId: user.id,
      action: agreementNeeded ? 'signin.agreed' : 'signin',
      targetType: 'user',
      targetId: user.id,
      ip: request.ip,
      createdAt: now,
    });
    const redirectTo = current ? HOME_PATH_BY_TYPE[current.type] : '/';
    return answer('ok', 3, { hasUserAgreed: true, userType: current?.type ?? null, redirectTo });
  });
}
