import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getAdValidationsCall, requestPublishersToValidateAdCall, validateAdByAdminsCall } from '@helium/contracts';
import { VALIDATION } from '@helium/domain';
import { route } from '../../http/route.ts';
import { actOnPublishers, adminAdViews, advertiserChoices, decideAd, type AdValidationDeps } from './ad-validation.ts';

/** Admin: Ad Validation (spec 01, sections 2, 4, 5, 7; docs/decisions.md section 8). */
export default async function adminAdValidationRoutes(app: FastifyInstance) {
  const { db, clock, mailer, config, hashIds } = app.ctx;
  const deps = (request: FastifyRequest): AdValidationDeps => ({
    db,
    mailer,
    hashIds,
    appUrl: config.appUrl,
    log: request.log,
  });

  route(app, getAdValidationsCall, async ({ actor, body }) => {
    const [adViews, advertisers] = await Promise.all([
      adminAdViews(db, { advertiserId: body.advertiserId ?? 0, locale: actor.locale, hashIds }),
      advertiserChoices(db),
    ]);
    return { ads: adViews, advertisers };
  });

  // Serving applies each decision before the admin's screen reloads.
  route(app, validateAdByAdminsCall, async ({ actor, body, request }) => {
    await decideAd(deps(request), { userId: actor.userId, ip: request.ip }, body.adId, body.isAccepted, clock.now());
    await app.delivery.servingChanged();
    return { status: 'ok' };
  });

  route(app, requestPublishersToValidateAdCall, async ({ actor, body, request }) => {
    await actOnPublishers(deps(request), { userId: actor.userId, ip: request.ip }, body, clock.now());
    // A forced answer changes where the ad may be served; a mere request does not.
    if (body.acceptance !== VALIDATION.pending) await app.delivery.servingChanged();
    return { status: 'ok' };
  });
}
