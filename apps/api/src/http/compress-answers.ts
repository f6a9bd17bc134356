import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** Below this size a compressed answer saves less than it costs (the web app's files use the same threshold). */
export const MIN_COMPRESSED_ANSWER_BYTES = 1024;

const COMPRESSIBLE_TYPE = /^(application\/json|text\/)/;

export type AnswerEncoding = 'br' | 'gzip';

/**
 * The encoding to answer in, from the request's Accept-Encoding: brotli, else gzip, among those the browser
 * accepts (a `;q=0` refuses one); null for none. Every browser sends `gzip, deflate, br, zstd`.
 */
export function answerEncoding(acceptEncoding: string | undefined): AnswerEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    if (quality === undefined || Number(quality.slice(2)) > 0) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/**
 * Compresses the API's JSON and CSV answers over MIN_COMPRESSED_ANSWER_BYTES for a browser that accepts it: a
 * country's regions and cities are 640 KB of JSON, 67 KB in brotli. Brotli at quality 5 (fast enough to
 * do per answer, unlike the web app's files, compressed once at build at 11), in the thread pool, so the event
 * loop keeps serving. Registered in the API calls' scope only: the ad-serving routes answer a few hundred
 * bytes on the hot path, and the web app's files are precompressed.
 */
export default fp(async function compressAnswers(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (Buffer.byteLength(payload) < MIN_COMPRESSED_ANSWER_BYTES || reply.hasHeader('content-encoding')) return payload;
    // Text only: a PDF or an image is compressed already.
    if (!COMPRESSIBLE_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = answerEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed =
      encoding === 'br'
        ? await compressBrotli(payload, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
        : await compressGzip(payload, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
});
