import type { FastifyInstance } from 'fastify';
import { signInCall } from '@helium/contracts';
import { tooManyRequests } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { LoginCodes } from './login-codes.ts';
import { signIn } from './signin.ts';

/** POST /api/common/signin: rate-limited per IP and per e-mail, then step 1 or step 2 of `signIn`. */
export default async function signinRoutes(app: FastifyInstance) {
  const { db, clock, mailer, limiter, config, signinLimits } = app.ctx;
  const codes = new LoginCodes(db, config.sessionSecret);

  route(app, signInCall, async ({ body, request, reply }) => {
    const [ipAllowed, emailAllowed] = await Promise.all([
      limiter.allow(`signin:ip:${request.ip}`, signinLimits.perIp),
      limiter.allow(`signin:email:${body.email}`, signinLimits.perEmail),
    ]);
    if (!ipAllowed || !emailAllowed) throw tooManyRequests();

    const outcome = await signIn({ db, mailer, codes }, body, request.ip, clock.now());
    if (outcome.signedInUserId !== null) {
      await app.startSession(request, reply, outcome.signedInUserId);
      app.issueXsrfCookie(reply);
    }
    return outcome.answer;
  });
}
