import type { FastifyInstance } from 'fastify';
import { createCheckoutSessionCall, getTestCheckoutCall, payTestCheckoutCall } from '@helium/contracts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { successPathOf, findLocalCheckout, payLocalCheckout, startCardCheckout, testCheckoutView } from './checkout.ts';
import { createStripeClient } from './stripe-client.ts';

/**
 * Card payments: the Checkout Session of the campaign's chosen quantity (Stripe's with STRIPE_SECRET_KEY, else the
 * local test checkout's), and the local test checkout's two calls, which exist only without a key and only for the
 * advertiser who owns the sale (404 otherwise). Stripe's webhook is in webhook-routes.ts.
 */
export default async function stripeRoutes(app: FastifyInstance) {
  const { db, clock, config } = app.ctx;
  const stripe = createStripeClient(config.stripe);
  const isLocal = stripe === null;

  route(app, createCheckoutSessionCall, async ({ actor, query, request }) => {
    // Parsed by the route (422 for a currency other than eur or usd).
    const { campaignExId, currency } = query;
    return startCardCheckout(
      { db, stripe, appUrl: config.appUrl, log: request.log },
      {
        advertiserId: actor.accountId,
        userId: actor.userId,
        campaignId: campaignExId,
        currency,
        locale: actor.locale,
        now: clock.now(),
      },
    );
  });

  route(app, getTestCheckoutCall, async ({ actor, body }) => {
    if (!isLocal) throw notFound();
    return testCheckoutView(db, await findLocalCheckout(db, actor.accountId, body.sessionId));
  });

  // The Pay button of the test checkout page: the same crediting as Stripe's webhook. Answers the relative address
  // of the Activity screen's success modal (the page is on the product's own origin).
  route(app, payTestCheckoutCall, async ({ actor, body, request }) => {
    if (!isLocal) throw notFound();
    const sale = await findLocalCheckout(db, actor.accountId, body.sessionId);
    const { outcome } = await payLocalCheckout(db, sale, clock.now());
    if (outcome === 'credited') await app.delivery.servingChanged();
    request.log.info({ saleId: sale.id, sessionId: body.sessionId, outcome }, 'test checkout: paid');
    return { url: successPathOf(sale.campaignId) };
  });
}
