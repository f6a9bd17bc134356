import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { quietRequestLogs } from '../../http/quiet-request-logs.ts';
import { isMediaKey } from '../../infra/media-storage.ts';

/**
 * GET /media/<key>: uploaded media with their content type, from the storage MEDIA_STORAGE names (the same
 * answer from either). Keys are content hashes, so a response never changes and is cached for a year. Single
 * byte ranges are served (video seeking).
 */
export default async function mediaRoutes(app: FastifyInstance) {
  // Ad media are loaded by every page that shows an ad.
  quietRequestLogs(app);
  const { media } = app.ctx;
  app.get<{ Params: { key: string } }>('/media/:key', async (request, reply) => {
    const { key } = request.params;
    if (!isMediaKey(key)) throw notFound('No such media.');
    const stored = await media.get(key);
    if (!stored) throw notFound('No such media.');
    reply
      .header('content-type', stored.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('accept-ranges', 'bytes')
      .header('etag', `"${key.slice(0, 64)}"`);
    if (request.headers['if-none-match'] === `"${key.slice(0, 64)}"`) return reply.code(304).send();
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    if (range && stored.size > 0 && (range[1] || range[2])) {
      let start = range[1] ? Number(range[1]) : stored.size - Number(range[2]);
      let end = range[1] && range[2] ? Number(range[2]) : stored.size - 1;
      start = Math.max(0, start);
      end = Math.min(end, stored.size - 1);
      if (start > end) {
        return reply.code(416).header('content-range', `bytes */${stored.size}`).send();
      }
      return reply
        .code(206)
        .header('content-range', `bytes ${start}-${end}/${stored.size}`)
        .header('content-length', end - start + 1)
        .send(stored.open({ start, end }));
    }
    return reply.header('content-length', stored.size).send(stored.open());
  });
}
