import Stripe from 'stripe';
import type { StripeConfig } from '../../config.ts';

/** Network retries of one SDK call (with its idempotency key): a checkout should not keep the buyer waiting. */
const MAX_NETWORK_RETRIES = 2;
/** How long one SDK request may take before it fails (the SDK's default is 80 s). */
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * The one place the Stripe client is built from the configuration: null without STRIPE_SECRET_KEY (the local
 * test checkout is used then). With STRIPE_API_URL the SDK sends its requests to that host instead of
 * api.stripe.com (a local stand-in of Stripe's HTTP API, in tests). The key stays inside the client: nothing
 * here logs the configuration.
 */
export function createStripeClient(config: StripeConfig): Stripe | null {
  if (!config.secretKey) return null;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: MAX_NETWORK_RETRIES,
    timeout: REQUEST_TIMEOUT_MS,
    telemetry: false,
    ...(config.apiUrl ? apiHost(config.apiUrl) : {}),
  });
}

/** The SDK's host, port and protocol for a base URL such as http://127.0.0.1:12111. */
export function apiHost(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/** Stripe's webhook helpers (signature checks), which need no API key. */
export const stripeWebhooks = Stripe.webhooks;

/** What may be logged of an SDK failure: its kind and Stripe's request id, never the request or the key. */
export function stripeFailure(error: unknown): Record<string, unknown> {
  if (error instanceof Stripe.errors.StripeError) {
    return {
      type: error.type,
      code: error.code,
      statusCode: error.statusCode,
      requestId: error.requestId,
    };
  }
  return { type: error instanceof Error ? error.name : typeof error };
}
