import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hmac, randomToken, safeEqual } from '../infra/tokens.ts';
import { csrfMismatch } from './errors.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Anti-forgery by signed double submit: GET /sanctum/csrf-cookie sets a readable XSRF-TOKEN cookie
 * (random value plus its HMAC); every state-changing /api call must echo it in X-XSRF-TOKEN, else 419.
 * A page on another site can neither read the cookie nor forge a token the server would sign.
 */
export default fp(async function csrf(app: FastifyInstance) {
  const secret = app.ctx.config.sessionSecret;
  const sign = (nonce: string) => `${nonce}.${hmac(`xsrf:${secret}`, nonce)}`;
  const isGenuine = (token: string) => {
    const [nonce, signature] = token.split('.');
    return Boolean(nonce && signature) && safeEqual(sign(nonce as string), token);
  };

  app.decorate('issueXsrfCookie', (reply: FastifyReply) => {
    reply.setCookie(XSRF_COOKIE, sign(randomToken(18)), {
      path: '/',
      sameSite: 'lax',
      secure: app.ctx.config.appUrl.startsWith('https:'),
      httpOnly: false,
    });
  });

  app.get('/sanctum/csrf-cookie', async (_request, reply) => {
    app.issueXsrfCookie(reply);
    return reply.code(204).send();
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    const header = request.headers['x-xsrf-token'];
    const sent = Array.isArray(header) ? header[0] : header;
    const cookie = request.cookies[XSRF_COOKIE];
    if (!sent || !cookie || !safeEqual(decodeURIComponent(sent), cookie) || !isGenuine(cookie)) {
      throw csrfMismatch();
    }
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    issueXsrfCookie(reply: FastifyReply): void;
  }
}
