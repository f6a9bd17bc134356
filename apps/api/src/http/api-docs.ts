import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';
import { API_DOCS_PATH, OPENAPI_PATH, openApiDocument } from './openapi.ts';
import { IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from './web-app.ts';

/**
 * Swagger UI's files, read from its package in node_modules (a dependency, so `npm prune --omit=dev` keeps it); found
 * from this module's own address, which the build keeps in apps/api/dist (build.mjs).
 */
const require = createRequire(import.meta.url);
const VIEWER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const VIEWER_VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;
const VIEWER_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};
/** Versioned: a new Swagger UI has new addresses, so a browser may keep these for a year. */
const ASSETS = `${API_DOCS_PATH}/assets/${VIEWER_VERSION}`;

/**
 * The viewer's start, a file of its own: the product's CSP allows no inline script (web-app.ts). Signed in, "Try it
 * out" sends the anti-forgery token as the web app does (csrf.ts).
 */
const INIT_SCRIPT = `'use strict';
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  requestInterceptor: function (request) {
    var token = /(?:^|;\\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie);
    if (token) request.headers['X-XSRF-TOKEN'] = token[1];
    return request;
  },
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>Helium Ads API reference</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${API_DOCS_PATH}/init.js"></script>
</body>
</html>
`;

/**
 * GET /api/openapi.json, the OpenAPI document generated from the contracts (openapi.ts), and GET /api/docs, its
 * reference page rendered by Swagger UI, served from the product itself. Registered with the API calls (app.ts):
 * the product's security headers, CSP included, apply unchanged.
 */
export default async function apiDocs(api: FastifyInstance) {
  let document: string | undefined;
  api.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= JSON.stringify(openApiDocument({ appUrl: api.ctx.config.appUrl }));
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', REVALIDATE_CACHE_CONTROL)
      .send(document);
  });
  api.get(API_DOCS_PATH, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE_CACHE_CONTROL).send(PAGE),
  );
  api.get(`${API_DOCS_PATH}/init.js`, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', REVALIDATE_CACHE_CONTROL).send(INIT_SCRIPT),
  );
  api.get<{ Params: { version: string; file: string } }>(
    `${API_DOCS_PATH}/assets/:version/:file`,
    async (request, reply) => {
      const { version, file } = request.params;
      const type = Object.hasOwn(VIEWER_FILES, file) ? VIEWER_FILES[file] : undefined;
      if (version !== VIEWER_VERSION || !type) throw notFound();
      return reply
        .type(type)
        .header('cache-control', IMMUTABLE_CACHE_CONTROL)
        .send(createReadStream(join(VIEWER_DIR, file)));
    },
  );
}
