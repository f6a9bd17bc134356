import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Helium Ads</title>
<p>The web app is not built yet. Run <code>npm start</code> (it builds it) or <code>npm run build</code>.</p>`;

/**
 * Serves the built web app from the same origin as the API. Hashed assets are cached for a year; any
 * other GET that wants HTML gets index.html so that the client router handles the path.
 */
export default fp(async function webApp(app: FastifyInstance) {
  const dist = app.ctx.config.webDistDir;
  const built = existsSync(join(dist, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      setHeaders: (res, path) => {
        res.setHeader(
          'cache-control',
          path.includes(`${join(dist, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage) throw notFound(`No route for ${request.method} ${request.url.split('?')[0]}.`);
    if (!built) return reply.code(503).type('text/html').send(NOT_BUILT);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
});
