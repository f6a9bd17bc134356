import type { FastifyInstance } from 'fastify';
import { signInCall } from '@helium/contracts';
import { csrfMismatch } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { CodeMailer } from './code-mailer.ts';
import { LoginCodes } from './login-codes.ts';
import { signIn } from './signin.ts';
import { SignInThrottle } from './signin-limits.ts';

/** POST /api/common/signin: step 1 or step 2 of `signIn`, within its rate limits (signin-limits.ts). */
export default async function signinRoutes(app: FastifyInstance) {
  const { db, clock, mailer, limiter, config, signinLimits } = app.ctx;
  const codes = new LoginCodes(db, config.sessionSecret);
  const limits = new SignInThrottle(limiter, signinLimits);
  const mail = new CodeMailer(mailer);

  route(app, signInCall, async ({ body, request, reply }) => {
    // A code is bound to the browser that asked for it: /sanctum/csrf-cookie gives every browser an id,
    // and the web app's client fetches a fresh cookie (setting one) on this 419.
    const browser = app.browserIdOf(request);
    if (!browser) throw csrfMismatch();
    const outcome = await signIn({ db, codes, limits, mail }, body, { request, browser }, clock.now());
    // A new session comes with a fresh anti-forgery token bound to it (http/session.ts).
    if (outcome.signedInUserId !== null) await app.startSession(request, reply, outcome.signedInUserId);
    return outcome.answer;
  });
}
