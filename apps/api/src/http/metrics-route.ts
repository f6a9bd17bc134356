import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { safeEqual } from '../infra/tokens.ts';

/** Where GET /metrics is answered without a token: this machine (127.0.0.0/8, ::1, and ::ffff:127.x.x.x). */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * The caller's address, through the proxies TRUST_PROXY names: behind a reverse proxy on this machine a visitor's
 * request comes from loopback, and only its X-Forwarded-For tells who sent it.
 */
function isLoopback(request: FastifyRequest): boolean {
  const family = isIP(request.ip);
  return family !== 0 && LOOPBACK.check(request.ip, family === 6 ? 'ipv6' : 'ipv4');
}

function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * GET /metrics: Prometheus text (infra/metrics.ts, docs/operations.md), to loopback callers, and to others with
 * METRICS_TOKEN as a bearer token when it is set. A refusal says nothing of the metrics.
 */
export default async function metricsRoute(app: FastifyInstance) {
  const { metrics, config } = app.ctx;
  app.get('/metrics', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const token = bearerToken(request);
    const tokenAccepted = Boolean(config.metricsToken && token && safeEqual(token, config.metricsToken));
    if (!tokenAccepted && !isLoopback(request)) {
      if (!config.metricsToken) return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden\n');
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('Unauthorized\n');
    }
    const text = await metrics.text();
    return reply.type(metrics.contentType).send(text);
  });
}
