import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';

/**
 * The Content-Security-Policy of every answer, the one place to extend it (a payment page of another origin
 * adds its origins here, e.g. to `script-src`, `frame-src` and `connect-src`). The built web app loads its
 * scripts, styles and fonts from its own origin and has no inline script (apps/web/index.html) and no eval
 * (the built app has no zod: apps/web/vite.config.ts, contractsWithoutSchemas); Mantine and the charts set inline styles and
 * `<style>` elements, so styles allow 'unsafe-inline'. Ad media come from /media (same origin); image
 * previews may be data: or blob: URLs. No page may frame the app. e2e/security-headers.spec.ts opens the
 * screens in Chromium and fails on any violation.
 */
export const CONTENT_SECURITY_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  // The admin's placements screen previews a publisher's site (https://<domain>/) in a frame.
  'frame-src': ["'self'", 'https:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * One year: how long a browser keeps to https once it has seen the app there. Without includeSubDomains:
 * the app does not know the other hosts of its domain.
 */
const HSTS_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The security headers of every answer (@fastify/helmet): the CSP above, no framing (frame-ancestors and
 * X-Frame-Options), nosniff, a same-origin Referrer-Policy and resource policy, and, only when APP_URL is
 * https, HSTS and upgrade-insecure-requests (over http they would break the app: development, the tests).
 * Registered in the scope of the product's pages and calls (app.ts), not on the public serving routes.
 */
export const securityHeaders = fp(async function securityHeaders(app: FastifyInstance) {
  const https = app.ctx.config.appUrl.startsWith('https:');
  const directives: Record<string, string[]> = Object.fromEntries(
    Object.entries(CONTENT_SECURITY_POLICY).map(([name, values]) => [name, [...values]]),
  );
  if (https) directives['upgrade-insecure-requests'] = [];
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: false } : false,
  });
});

/**
 * For the routes of the scope it is called on (the public serving routes and /media, outside the product's
 * security headers): publishers' pages load them from other origins (the script, banners, beacons, ad media),
 * so their resource policy says cross-origin, which a publisher page isolated with COEP needs, with nosniff
 * (a beacon's or an image's answer is never run as a script). They send no
 * Referrer-Policy, so that a click's redirect keeps the publisher page's referrer for the advertiser, and are
 * CORS-open already (serving-routes.ts).
 */
export function openToOtherSites(scope: FastifyInstance) {
  scope.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    done();
  });
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Helium Ads</title>
<p>The web app is not built yet. Run <code>npm start</code> (it builds it) or <code>npm run build</code>.</p>`;

/** Hashed build output: its name changes with its content, so a browser may keep it for a year unasked. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** index.html and the other unhashed files: kept, but revalidated on each visit so a deploy shows at once. */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/**
 * Serves the built web app from the same origin as the API. Hashed assets are cached for a year; any
 * other GET that wants HTML gets index.html so that the client router handles the path. The build wrote a
 * brotli and a gzip copy of each text file (apps/web/vite.config.ts); the one the browser accepts is sent.
 */
export default fp(async function webApp(app: FastifyInstance) {
  const dist = app.ctx.config.webDistDir;
  const built = existsSync(join(dist, 'index.html'));
  const assets = join(dist, 'assets');
  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Without this, `send` adds its own `public, max-age=0` after setHeaders and overrides it.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader(
          'cache-control',
          path.startsWith(assets + sep) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL,
        );
        // The same URL answers brotli, gzip or plain by Accept-Encoding: caches must keep them apart.
        res.setHeader('vary', 'accept-encoding');
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
    return reply.sendFile('index.html');
  });
});
