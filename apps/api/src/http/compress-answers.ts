import { constants as zlib } from 'node:zlib';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** Below this size a compressed answer saves less than it costs (the web app's files use the same threshold). */
export const MIN_COMPRESSED_ANSWER_BYTES = 1024;

/** @fastify/compress, as the API calls use it (exported for the tests). */
export const COMPRESS_OPTIONS: FastifyCompressOptions = {
  // Brotli first, else gzip, among those the browser accepts with the higher quality (`;q=0` refuses one).
  encodings: ['br', 'gzip'],
  threshold: MIN_COMPRESSED_ANSWER_BYTES,
  // Text only: a PDF or an image is compressed already.
  customTypes: /^(application\/json|text\/)/,
  // Quality 5: fast enough per answer, unlike the web app's files, compressed once at build at 11.
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  zlibOptions: { level: 6 },
  // Request bodies are read as sent: a compressed one could expand past the body limit.
  globalDecompression: false,
};

/**
 * Compresses the API's JSON and CSV answers over MIN_COMPRESSED_ANSWER_BYTES for a browser that accepts it: a
 * country's regions and cities are 640 KB of JSON, 67 KB in brotli (large answers in the thread pool, so the
 * event loop keeps serving). Registered in the API calls' scope only: the ad-serving routes answer a few hundred
 * bytes on the hot path, and the web app's files are precompressed.
 */
export default fp(async function compressAnswers(api: FastifyInstance) {
  await api.register(fastifyCompress, COMPRESS_OPTIONS);
});
