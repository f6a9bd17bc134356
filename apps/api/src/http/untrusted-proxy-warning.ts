import type { FastifyRequest } from 'fastify';
import { IpRanges } from '../features/delivery/ip-ranges.ts';
import { HOUR_MS } from '@helium/domain';

/** Private and shared address space: where a reverse proxy in front of the server usually is. */
const PRIVATE_NETWORKS = IpRanges.parse(
  ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'].join('\n'),
  'private networks',
);

/** How often at most the warning is logged again (a proxy sends every request). */
export const UNTRUSTED_PROXY_WARNING_EVERY_MS = HOUR_MS;

/**
 * Warns, at most once an hour, when a visitor's request comes through a proxy the server does not trust: an
 * `X-Forwarded-For` from a private address that TRUST_PROXY does not name. Every visitor then has the proxy's
 * address, so the per-address limits and the one-IP share set aside nearly all traffic as invalid (past 200
 * visitors a day, all of it), and the visitor hashes merge people: a setup mistake that counts nothing right.
 */
export function untrustedProxyWarning(now: () => number = Date.now) {
  let lastWarned = -Infinity;
  /** `ip` is `request.ip`, read once by the caller (each read parses the forwarded addresses again). */
  return (request: FastifyRequest, ip: string) => {
    if (request.headers['x-forwarded-for'] === undefined) return;
    // Believed, the header made the request's address the visitor's; not believed, it is the proxy's own.
    if (ip !== request.socket.remoteAddress || !PRIVATE_NETWORKS.has(ip)) return;
    const at = now();
    if (at - lastWarned < UNTRUSTED_PROXY_WARNING_EVERY_MS) return;
    lastWarned = at;
    request.log.warn(
      { proxy: ip },
      'a request came through a proxy that TRUST_PROXY does not name: every visitor has its address, and ' +
        "per-address limits will set their traffic aside as invalid. Set TRUST_PROXY to the proxy's address.",
    );
  };
}
