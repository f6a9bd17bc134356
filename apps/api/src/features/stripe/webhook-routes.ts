import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { stripeWebhookCall } from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { sessionIdOfEvent } from './checkout.ts';
import { createStripeClient, stripeWebhooks } from './stripe-client.ts';
import { handleStripeEvent } from './webhook-events.ts';

const badSignature = () => new HttpError(400, 'badSignature', 'The Stripe-Signature header is missing or wrong.');

/**
 * POST /api/stripe2/webhook: Stripe's events, with no session and no anti-forgery token (the contract's `signedBy`);
 * the gate is the signature, checked on the exact bytes received, so this plugin's own JSON parser keeps the raw
 * body. A paid Checkout Session credits its sale once (completeCardSale's compare-and-set), whatever the number of
 * deliveries of this event or of the session's other events; a payment for a sale cancelled meanwhile is credited
 * or refunded, once, and told to the admins; an expired session cancels its sale (webhook-events.ts). Other events
 * are acknowledged and ignored. A fault answers 5xx so that Stripe delivers the event again later.
 */
export default async function stripeWebhookRoutes(app: FastifyInstance) {
  const { db, clock, config, mailer, hashIds } = app.ctx;
  const stripe = createStripeClient(config.stripe);
  const secret = config.stripe.webhookSecret;
  if (config.stripe.secretKey && !secret) {
    app.log.warn('STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: card payments will not be credited');
  }

  // Encapsulated: only this plugin's routes read application/json as a Buffer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  route(app, stripeWebhookCall, async ({ request }) => {
    // 503, not 404: Stripe keeps delivering for days, so events sent before the secret is configured are not lost.
    if (!secret) throw new HttpError(503, 'stripeWebhookNotConfigured', 'STRIPE_WEBHOOK_SECRET is not set.');
    const signature = request.headers['stripe-signature'];
    const payload = request.body;
    if (typeof signature !== 'string' || signature === '' || !Buffer.isBuffer(payload)) throw badSignature();
    let event: Stripe.Event;
    try {
      // Tolerance measured on the app's clock (Stripe's default of 5 minutes): an old signed event is a replay.
      event = stripeWebhooks.constructEvent(payload, signature, secret, undefined, undefined, clock.now().getTime());
    } catch {
      request.log.warn('stripe webhook: signature refused');
      throw badSignature();
    }

    const about = { eventId: event.id, eventType: event.type, sessionId: sessionIdOfEvent(event) };
    const deps = { db, stripe, mailer, hashIds, log: request.log, appUrl: config.appUrl };
    const { outcome, saleId, creditsChanged } = await handleStripeEvent(deps, event, clock.now());
    if (creditsChanged) await app.delivery.servingChanged();
    const line = { ...about, outcome, saleId };
    // A mismatch stays pending for an admin; an unknown session is not this product's (nothing to retry); a late
    // payment was settled and mailed to the admins.
    if (outcome === 'amountMismatch' || outcome === 'unknownSession' || outcome.startsWith('late')) {
      request.log.warn(line, 'stripe webhook');
    } else request.log.info(line, 'stripe webhook');
    return { received: true };
  });
}
