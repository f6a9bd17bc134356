import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentVersion } from '../../../../publisher-script/content-version.mjs';

const built = (file: string) => new URL(`../../../../publisher-script/dist/${file}`, import.meta.url).pathname;
/** The built publisher script (npm run build), and the module it loads where needed (the corner box...). */
export const PUBLISHER_SCRIPT_FILE = built('helium.js');
export const PUBLISHER_EXTRAS_FILE = built('extras.js');

interface BuiltScript {
  body: Buffer;
  gzipped: Buffer;
  /** Its address's version (`?v=`), as the build wrote it into the script that loads it. */
  version: string;
}

/** Whether the request's Accept-Encoding takes gzip (not refused with q=0). */
function acceptsGzip(request: FastifyRequest) {
  return String(request.headers['accept-encoding'] ?? '')
    .split(',')
    .some((coding) => {
      const [name, ...parameters] = coding.split(';').map((part) => part.trim().toLowerCase());
      return name === 'gzip' && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
    });
}

/**
 * Answers one built script file: cached a year under its current version (`?v=`), else 5 minutes and revalidated
 * by its version as etag; gzipped once, for every page of every publisher. Read on first use (a server started
 * before the build still serves it once built).
 */
export function scriptFileRoute(file: string) {
  let script: BuiltScript | null = null;
  const load = () => {
    if (script || !existsSync(file)) return script;
    const body = readFileSync(file);
    script = {
      body,
      gzipped: gzipSync(body, { level: 9 }),
      version: contentVersion(body),
    };
    return script;
  };
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const current = load();
    if (!current) {
      return reply.code(404).type('application/javascript').send('/* publisher script not built: npm run build */');
    }
    const versioned = (request.query as Record<string, unknown> | undefined)?.v === current.version;
    const etag = `"${current.version}"`;
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .header('etag', etag)
      .header('vary', 'accept-encoding');
    // A browser revalidating after max-age gets an empty 304 while the file has not changed.
    const known = request.headers['if-none-match'];
    if (typeof known === 'string' && known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return reply.code(304).send();
    }
    if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(current.gzipped);
    return reply.send(current.body);
  };
}
