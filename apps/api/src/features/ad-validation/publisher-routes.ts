import type { FastifyInstance } from 'fastify';
import { getAdValidationCall, updateAdValidationCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { answerThroughLink, publisherLinkView } from './ad-validation.ts';

/**
 * The publisher's answer through the e-mailed link (public: the hash id is the credential). The hash id
 * names one ad and one publisher, and only a request that was actually sent opens it.
 */
export default async function publisherAdValidationRoutes(app: FastifyInstance) {
  const { db, clock, hashIds } = app.ctx;

  route(app, getAdValidationCall, async ({ body }) => publisherLinkView(db, hashIds, body.hashId, clock.now()));

  route(app, updateAdValidationCall, async ({ body }) => {
    await answerThroughLink(db, hashIds, body.hashId, body.acceptance, clock.now());
    // The publisher's answer decides whether its pages show the ad: serving applies it at once.
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });
}
