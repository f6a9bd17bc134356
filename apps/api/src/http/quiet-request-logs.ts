import type { FastifyInstance } from 'fastify';

/** Levels at which a quiet route still logs: warnings and errors, unless the server logs even less. */
const QUIETER_THAN_WARN = new Set(['error', 'fatal', 'silent']);

/**
 * For the routes every visitor of every publisher's page calls (serving, media), in the context that calls it:
 * no "incoming request" / "request completed" lines, and no child logger made for each request. At the default
 * level (info) those lines held each visitor's address and the page's address, which the engine otherwise keeps
 * only hashed (docs/server-behaviour.md), and they took about a sixth of the server's thread per request
 * (docs/performance.md). Warnings and errors are still logged, without a request id.
 */
export function quietRequestLogs(app: FastifyInstance): void {
  const quiet = app.log.child({}, { level: QUIETER_THAN_WARN.has(app.log.level) ? app.log.level : 'warn' });
  app.setChildLoggerFactory(() => quiet);
}
