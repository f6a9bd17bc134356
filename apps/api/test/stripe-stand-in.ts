import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the part of Stripe's HTTP API the product uses (Checkout Sessions and refunds), so that
 * tests run the real `stripe` SDK (STRIPE_API_URL points it here) with no network. Requests are form-encoded as the
 * SDK sends them; answers are shaped like Stripe's. A POST repeated with the same Idempotency-Key gets the first
 * answer again, as from Stripe. Every request is recorded for assertions.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** The form fields as sent: `line_items[0][price_data][unit_amount]` → '25000'. */
  form: Record<string, string>;
  /** The same fields nested: `{ line_items: [{ price_data: { unit_amount: '25000' } }] }` (values stay strings). */
  body: Record<string, unknown>;
}

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string;
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string | null;
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  cancel_url: string | null;
  locale: string | null;
  livemode: false;
  created: number;
  expires_at: number;
  [field: string]: unknown;
}

export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  metadata: Record<string, string>;
  status: 'succeeded';
  created: number;
}

export interface StripeStandIn {
  /** The base URL to give STRIPE_API_URL, e.g. http://127.0.0.1:40123. */
  url: string;
  requests: RecordedRequest[];
  sessions: Map<string, StandInSession>;
  /** The refunds made, one per refund (a repeated idempotency key makes none). */
  refunds: StandInRefund[];
  /** The next `count` session creations are refused with this HTTP status (a Stripe error body, not retried). */
  failNext(status: number, count?: number): void;
  /** The next `count` refunds are refused so. */
  failNextRefund(status: number, count?: number): void;
  /** A webhook event about a session, as Stripe would send it once the buyer paid (payload to sign and send). */
  event(type: string, sessionId: string, changes?: Partial<StandInSession>): { id: string; payload: string };
  close(): Promise<void>;
}

/** Decodes Stripe's (qs-style) form encoding into nested objects and arrays. */
export function decodeForm(fields: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return arraysOf(root) as Record<string, unknown>;
}

/** Objects whose keys are 0..n-1 become arrays. */
function arraysOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, arraysOf(item)] as const);
  const isList = entries.length > 0 && entries.every(([key], index) => key === String(index));
  return isList ? entries.map(([, item]) => item) : Object.fromEntries(entries);
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

const sendJson = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(8).toString('hex')}`,
    ...headers,
  });
  response.end(JSON.stringify(body));
};

const stripeError = (type: string, message: string, code?: string) => ({ error: { type, message, code } });

interface LineItem {
  quantity?: string;
  price_data?: { currency?: string; unit_amount?: string };
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, StandInSession>();
  const refunds: StandInRefund[] = [];
  /** The first answer to each idempotency key (Stripe keeps them 24 hours). */
  const idempotent = new Map<string, { status: number; body: unknown }>();
  let failures: { status: number; count: number } | null = null;
  let refundFailures: { status: number; count: number } | null = null;

  /** Refunds the whole of a paid session's payment, once per payment (Stripe refuses a second full refund). */
  const createRefund = (body: Record<string, unknown>): { status: number; body: unknown } => {
    const intent = typeof body.payment_intent === 'string' ? body.payment_intent : '';
    const session = [...sessions.values()].find((candidate) => candidate.payment_intent === intent);
    if (!session) {
      return { status: 404, body: stripeError('invalid_request_error', 'No such payment_intent', 'resource_missing') };
    }
    if (refunds.some((refund) => refund.payment_intent === intent)) {
      return {
        status: 400,
        body: stripeError('invalid_request_error', 'Charge has already been refunded.', 'charge_already_refunded'),
      };
    }
    const refund: StandInRefund = {
      id: `re_${randomBytes(12).toString('hex')}`,
      object: 'refund',
      amount: session.amount_total,
      currency: session.currency,
      payment_intent: intent,
      metadata: (body.metadata ?? {}) as Record<string, string>,
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    };
    refunds.push(refund);
    return { status: 200, body: refund };
  };

  const createSession = (body: Record<string, unknown>, response: ServerResponse) => {
    const lines = (Array.isArray(body.line_items) ? body.line_items : []) as LineItem[];
    if (lines.length === 0 || body.mode === undefined) {
      return sendJson(response, 400, stripeError('invalid_request_error', 'Missing required param: line_items.'));
    }
    const total = lines.reduce(
      (sum, line) => sum + Number(line.quantity ?? 1) * Number(line.price_data?.unit_amount ?? 0),
      0,
    );
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const session: StandInSession = {
      id,
      object: 'checkout.session',
      mode: String(body.mode),
      url: `https://checkout.stripe.com/c/pay/${id}`,
      amount_subtotal: total,
      amount_total: total,
      currency: String(lines[0]?.price_data?.currency ?? 'eur'),
      metadata: (body.metadata ?? {}) as Record<string, string>,
      client_reference_id: typeof body.client_reference_id === 'string' ? body.client_reference_id : null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: typeof body.success_url === 'string' ? body.success_url : null,
      cancel_url: typeof body.cancel_url === 'string' ? body.cancel_url : null,
      locale: typeof body.locale === 'string' ? body.locale : null,
      livemode: false,
      created,
      expires_at: created + 24 * 3600,
      payment_intent: null,
      customer_details: null,
    };
    sessions.set(id, session);
    return sendJson(response, 200, session);
  };

  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({
        method: request.method ?? '',
        path: url.pathname,
        headers: {
          authorization: request.headers.authorization,
          'idempotency-key': request.headers['idempotency-key'] as string | undefined,
          'stripe-version': request.headers['stripe-version'] as string | undefined,
          'content-type': request.headers['content-type'],
        },
        form,
        body: decodeForm(form),
      });
      if (!request.headers.authorization?.startsWith('Bearer sk_')) {
        return sendJson(response, 401, stripeError('invalid_request_error', 'Invalid API Key provided.'));
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        if (failures && failures.count > 0) {
          failures.count -= 1;
          return sendJson(response, failures.status, stripeError('api_error', 'The stand-in was told to fail.'), {
            'stripe-should-retry': 'false',
          });
        }
        return createSession(decodeForm(form), response);
      }
      if (request.method === 'POST' && url.pathname === '/v1/refunds') {
        if (refundFailures && refundFailures.count > 0) {
          refundFailures.count -= 1;
          return sendJson(response, refundFailures.status, stripeError('api_error', 'The stand-in was told to fail.'), {
            'stripe-should-retry': 'false',
          });
        }
        const key = request.headers['idempotency-key'] as string | undefined;
        const answer = (key && idempotent.get(key)) || createRefund(decodeForm(form));
        if (key) idempotent.set(key, answer);
        return sendJson(response, answer.status, answer.body);
      }
      const found = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && found) {
        const session = sessions.get(decodeURIComponent(found[1]!));
        if (!session) {
          return sendJson(
            response,
            404,
            stripeError('invalid_request_error', 'No such checkout.session', 'resource_missing'),
          );
        }
        return sendJson(response, 200, session);
      }
      return sendJson(response, 404, stripeError('invalid_request_error', `Unrecognized request URL ${url.pathname}`));
    })().catch((error: unknown) => sendJson(response, 500, stripeError('api_error', String(error))));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    refunds,
    failNext(status, count = 1) {
      failures = { status, count };
    },
    failNextRefund(status, count = 1) {
      refundFailures = { status, count };
    },
    event(type, sessionId, changes = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`The stand-in has no session ${sessionId}`);
      // A paid session names its payment (what a refund refers to), the same in every event about it.
      session.payment_intent ??= `pi_${randomBytes(12).toString('hex')}`;
      const paid: StandInSession = { ...session, status: 'complete', payment_status: 'paid', ...changes };
      const id = `evt_${randomBytes(12).toString('hex')}`;
      const payload = JSON.stringify(
        {
          id,
          object: 'event',
          api_version: '2026-10-28.endive',
          created: Math.floor(Date.now() / 1000),
          type,
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          data: { object: paid },
        },
        null,
        2,
      );
      return { id, payload };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
