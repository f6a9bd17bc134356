import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { startStripeStandIn, decodeForm, type StripeStandIn } from '../../../test/stripe-stand-in.ts';
import { apiHost, createStripeClient } from './stripe-client.ts';

const base = { DATA_DIR: mkdtempSync(join(tmpdir(), 'helium-stripe-config-')), SESSION_SECRET: 'x'.repeat(40) };

describe('the STRIPE_* settings', () => {
  it('are undefined when unset or blank (the local test checkout)', () => {
    expect(loadConfig(base).stripe).toEqual({
      secretKey: undefined,
      publishableKey: undefined,
      webhookSecret: undefined,
      apiUrl: undefined,
    });
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: '  ', STRIPE_API_URL: '' }).stripe.secretKey).toBeUndefined();
    expect(createStripeClient(loadConfig(base).stripe)).toBeNull();
  });

  it('are read, trimmed', () => {
    const { stripe } = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: ' sk_test_1 ',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_API_URL: 'http://127.0.0.1:12111/',
    });
    expect(stripe).toEqual({
      secretKey: 'sk_test_1',
      publishableKey: 'pk_test_1',
      webhookSecret: 'whsec_1',
      apiUrl: 'http://127.0.0.1:12111',
    });
  });

  it.each([['not a url'], ['ftp://127.0.0.1:12111'], ['127.0.0.1:12111'], ['http://127.0.0.1:12111/v1']])(
    'STRIPE_API_URL %s stops the start',
    (value) => {
      expect(() => loadConfig({ ...base, STRIPE_API_URL: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, STRIPE_API_URL: value })).toThrow(/STRIPE_API_URL/);
    },
  );

  it('STRIPE_API_URL becomes the SDK host, port and protocol', () => {
    expect(apiHost('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(apiHost('https://stripe.internal')).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(apiHost('http://localhost')).toEqual({ host: 'localhost', port: 80, protocol: 'http' });
  });
});

describe('the Stripe client against the stand-in', () => {
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
  });
  afterAll(async () => standIn.close());

  it('creates and retrieves a Checkout Session there, not at api.stripe.com', async () => {
    const stripe = createStripeClient({
      secretKey: 'sk_test_client',
      publishableKey: undefined,
      webhookSecret: undefined,
      apiUrl: standIn.url,
    })!;
    const created = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ quantity: 2, price_data: { currency: 'eur', unit_amount: 1250, product_data: { name: 'x' } } }],
      metadata: { saleId: '7' },
      client_reference_id: 'ref',
      success_url: 'http://localhost:3000/ok',
    });
    expect(created).toMatchObject({
      amount_total: 2500,
      currency: 'eur',
      metadata: { saleId: '7' },
      client_reference_id: 'ref',
      payment_status: 'unpaid',
      status: 'open',
    });
    expect(created.id).toMatch(/^cs_test_/);
    const fetched = await stripe.checkout.sessions.retrieve(created.id);
    expect(fetched.id).toBe(created.id);
    await expect(stripe.checkout.sessions.retrieve('cs_test_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(standIn.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/checkout/sessions',
      'GET /v1/checkout/sessions/' + created.id,
      'GET /v1/checkout/sessions/cs_test_missing',
    ]);
  });

  it('decodes the SDK form encoding into nested fields', () => {
    expect(
      decodeForm({ 'line_items[0][price_data][unit_amount]': '5', 'line_items[1][quantity]': '2', 'metadata[a]': 'b' }),
    ).toEqual({ line_items: [{ price_data: { unit_amount: '5' } }, { quantity: '2' }], metadata: { a: 'b' } });
  });
});
