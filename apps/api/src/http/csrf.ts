import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DAY_MS } from '@helium/domain';
import { hashToken, hmac, randomToken, safeEqual } from '../infra/tokens.ts';
import { csrfMismatch } from './errors.ts';
import { SESSION_COOKIE } from './session.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
/**
 * A random id of the browser (httpOnly), set with the first anti-forgery token: what a token is bound to
 * before sign-in, and what a sign-in code is bound to (features/signin).
 */
export const BROWSER_COOKIE = 'helium_browser';
const BROWSER_COOKIE_MS = 30 * DAY_MS;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Anti-forgery by a token bound to who is calling. GET /sanctum/csrf-cookie sets a readable XSRF-TOKEN
 * cookie, `nonce.HMAC(binding, nonce)`, where the binding is the session (the hash of the session cookie's
 * token) when there is one, else the browser's random id (BROWSER_COOKIE). Every state-changing call must
 * echo it in X-XSRF-TOKEN, else 419. A page on another site can neither read the cookie nor compute a
 * token; a token taken from one session or browser does not work with another's cookies; starting or ending
 * a session issues a fresh token for the new binding (`issueXsrfCookie`), and the web app's client, on a
 * 419, fetches a fresh one and retries.
 *
 * Registered in the scope of the API calls (app.ts): its hook runs on the routes the router matched there,
 * whatever the spelling of the URL (`/%61pi/...` is `/api/...` to the router, so it is to the hook too).
 */
export default fp(async function csrf(app: FastifyInstance) {
  const { config } = app.ctx;
  const key = `xsrf:${config.sessionSecret}`;
  const secure = config.appUrl.startsWith('https:');
  const sign = (binding: string, nonce: string) => `${nonce}.${hmac(key, `${binding}\n${nonce}`)}`;

  /** What a token is bound to: a session (by its cookie token's hash), or a browser (by its id). */
  const binding = (to: XsrfBinding) =>
    'sessionToken' in to ? `session:${hashToken(to.sessionToken)}` : `browser:${to.browserId}`;

  /** What a token of this request must be bound to: its session cookie, else its browser id, else nothing. */
  const bindingOf = (request: FastifyRequest): string | null => {
    const sessionToken = request.cookies[SESSION_COOKIE];
    if (sessionToken) return binding({ sessionToken });
    const browserId = request.cookies[BROWSER_COOKIE];
    return browserId ? binding({ browserId }) : null;
  };

  const isGenuine = (request: FastifyRequest, token: string) => {
    const bound = bindingOf(request);
    const [nonce, signature, ...rest] = token.split('.');
    if (!bound || !nonce || !signature || rest.length > 0) return false;
    return safeEqual(sign(bound, nonce), token);
  };

  const setToken = (reply: FastifyReply, binding: string) => {
    reply.setCookie(XSRF_COOKIE, sign(binding, randomToken(18)), {
      path: '/',
      sameSite: 'lax',
      secure,
      httpOnly: false,
    });
  };

  app.decorate('browserIdOf', (request: FastifyRequest) => request.cookies[BROWSER_COOKIE] ?? null);

  app.decorate('issueXsrfCookie', (reply: FastifyReply, to: XsrfBinding) => {
    setToken(reply, binding(to));
  });

  /** The browser id of the request, set on the reply when the browser has none yet. */
  const ensureBrowserId = (request: FastifyRequest, reply: FastifyReply): string => {
    const existing = request.cookies[BROWSER_COOKIE];
    if (existing) return existing;
    const created = randomToken(24);
    reply.setCookie(BROWSER_COOKIE, created, {
      path: '/',
      sameSite: 'lax',
      secure,
      httpOnly: true,
      expires: new Date(app.ctx.clock.now().getTime() + BROWSER_COOKIE_MS),
    });
    // Later hooks and handlers of this request see it as the browser will send it next time.
    request.cookies[BROWSER_COOKIE] = created;
    return created;
  };
  app.decorate('ensureBrowserId', ensureBrowserId);

  app.get('/sanctum/csrf-cookie', async (request, reply) => {
    // The browser has an id from here on, so the request always has a binding.
    ensureBrowserId(request, reply);
    setToken(reply, bindingOf(request)!);
    return reply.code(204).send();
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method)) return;
    // A provider's server (Stripe's webhook) has no browser token: its route checks the provider's signature.
    if ((request.routeOptions.config as { signedBy?: string } | undefined)?.signedBy) return;
    // A personal API token, let in by bearer.ts: a header no other site can make a browser send.
    if (request.apiToken) return;
    const header = request.headers['x-xsrf-token'];
    const sent = decoded(Array.isArray(header) ? header[0] : header);
    const cookie = request.cookies[XSRF_COOKIE];
    if (!sent || !cookie || !safeEqual(sent, cookie) || !isGenuine(request, sent)) throw csrfMismatch();
  });
});

/** A header value as the client encoded it (the cookie's value, URL-decoded), or null when malformed. */
function decoded(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** What a fresh token is bound to: a session that was just started (its cookie's token), or the browser. */
export type XsrfBinding = { sessionToken: string } | { browserId: string };

declare module 'fastify' {
  interface FastifyInstance {
    /** Sets a fresh XSRF-TOKEN cookie bound to the given session or browser. */
    issueXsrfCookie(reply: FastifyReply, to: XsrfBinding): void;
    /** The browser id cookie of the request, or null. */
    browserIdOf(request: FastifyRequest): string | null;
    /** The browser id of the request, created (and set on the reply) when there is none. */
    ensureBrowserId(request: FastifyRequest, reply: FastifyReply): string;
  }
}
