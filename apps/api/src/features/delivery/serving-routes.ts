import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageAddress, pageHost, withoutControlCharacters, type PageHeaders } from '@helium/domain';
import type { Requester } from './parts.ts';
import { PUBLISHER_EXTRAS_FILE, PUBLISHER_SCRIPT_FILE, scriptFileRoute } from './publisher-script-files.ts';
import { quietRequestLogs } from '../../http/quiet-request-logs.ts';
import { untrustedProxyWarning } from '../../http/untrusted-proxy-warning.ts';
import { NEWSLETTER_TUTORIAL_PATH } from '../installation/installation.ts';
import { NEWSLETTER_TUTORIAL } from '../installation/newsletter-tutorial.ts';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/**
 * A newsletter banner without an ad: transparent, 600 x 1. The snippet sizes its image 600 wide with its
 * height in proportion: a 1 x 1 pixel there would leave a blank square of 600 x 600 in the reader's mail.
 */
const BLANK_BANNER = Buffer.from(
  'R0lGODlhWAIBAIAAAAAAAP///yH5BAEAAAAALAAAAABYAgEAAAIXhI+py+0Po5y02ouz3rz7D4biSJZmUgAAOw==',
  'base64',
);

/** The request's Origin and Referer as sent ('' when absent): a browser's evidence of the page it comes from. */
function pageHeaders(request: FastifyRequest): PageHeaders {
  const { origin, referer } = request.headers;
  return { origin: typeof origin === 'string' ? origin : '', referer: typeof referer === 'string' ? referer : '' };
}

function positiveInt(value: unknown): number | null {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 && number < 2 ** 31 ? number : null;
}

function query(request: FastifyRequest): Record<string, string | undefined> {
  return (request.query ?? {}) as Record<string, string | undefined>;
}

/**
 * The decision's answer, for Fastify's compiled serializer (faster than JSON.stringify on the hottest route).
 * Every field of ServedAd, as it is: a field missing here would be dropped from the answer.
 */
const DECISION_RESPONSE = {
  type: 'object',
  required: ['ads'],
  properties: {
    ads: {
      type: 'array',
      items: {
        type: 'object',
        required: ['selector', 'position', 'kind', 'src', 'poster', 'width', 'height', 'click', 'view'],
        properties: {
          selector: { type: ['string', 'null'] },
          position: { type: 'string' },
          kind: { type: 'string' },
          src: { type: 'string' },
          poster: { type: ['string', 'null'] },
          width: { type: 'number' },
          height: { type: 'number' },
          click: { type: 'string' },
          view: { type: 'string' },
        },
      },
    },
  },
} as const;

/** A harmless answer to anything that counts nothing: no detail about why. */
function nothing(reply: FastifyReply) {
  return reply.code(204).header('x-helium-counted', 'ignored').send();
}

/**
 * The public serving endpoints: no session, no anti-forgery (outside /api), CORS open (no credentials).
 * Forged, replayed or expired tokens count nothing and get an ordinary answer.
 */
export default async function serveRoutes(app: FastifyInstance) {
  quietRequestLogs(app);
  // The lead postback also takes a form (an advertiser's server posting `hclid=...`); here only, not under /api.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 2048 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const engine = app.delivery;
  const { metrics } = app.ctx;
  // Decision and view latency, read from Fastify's own timer once the answer is sent.
  const timeDecision = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    metrics.decisionAnswered(reply.elapsedTime);
    done();
  };
  const timeView = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    metrics.viewAnswered(reply.elapsedTime);
    done();
  };
  const warnIfProxyUntrusted = untrustedProxyWarning();
  /** Who sent a visitor's request: the address (through trusted proxies) and the user agent. */
  const requester = (request: FastifyRequest): Requester => {
    const ip = request.ip;
    warnIfProxyUntrusted(request, ip);
    const userAgent = request.headers['user-agent'];
    return { ip, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : '' };
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/serve/') || request.url.startsWith('/c/')) {
      reply.header('access-control-allow-origin', '*');
      reply.header('timing-allow-origin', '*');
    }
    done(null, payload);
  });

  app.options('/serve/*', async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .send(),
  );

  app.get('/serve/script.js', scriptFileRoute(PUBLISHER_SCRIPT_FILE));
  // Loaded by the script where needed (the corner box, the history wrapper), as a module: CORS open as above.
  app.get('/serve/extras.js', scriptFileRoute(PUBLISHER_EXTRAS_FILE));

  /** The script's pageview: counts it and answers the ads for the publisher's placements. */
  app.get(
    '/serve/d',
    { schema: { response: { 200: DECISION_RESPONSE } }, onResponse: timeDecision },
    async (request, reply) => {
      const params = query(request);
      const publisherId = positiveInt(params.p);
      if (!publisherId) return reply.header('cache-control', 'no-store').send({ ads: [] });
      // Only an http or https page address is kept (URL statistics, advertisers' links); anything else is none.
      const url = pageAddress(params.u);
      const headers = pageHeaders(request);
      const hosts = { origin: pageHost(headers.origin), referer: pageHost(headers.referer), page: pageHost(url) };
      const width = Number(params.w);
      const result = await engine.decide({
        publisherId,
        url,
        host: hosts.origin || hosts.referer || hosts.page,
        hosts,
        viewportWidth: Number.isFinite(width) && width > 0 ? width : null,
        requester: requester(request),
      });
      return reply
        .header('cache-control', 'no-store')
        .header('x-helium-counted', result.counted ? 'counted' : 'invalid')
        .send({ ads: result.ads });
    },
  );

  /** The view beacon (sendBeacon posts text/plain; GET works too). */
  const view = async (token: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const outcome = await engine.view(
      typeof token === 'string' ? token.trim() : token,
      requester(request),
      pageHeaders(request),
    );
    return reply.code(204).header('x-helium-counted', outcome).send();
  };
  app.post('/serve/v', { bodyLimit: 2048, onResponse: timeView }, async (request, reply) => {
    const body = request.body;
    const token = typeof body === 'string' ? body : (body as { t?: unknown } | null)?.t;
    return view(token, request, reply);
  });
  app.get('/serve/v', { onResponse: timeView }, async (request, reply) => view(query(request).t, request, reply));

  /** Click redirect: only to the ad's registered link, with a click id. */
  app.get<{ Params: { token: string } }>('/c/:token', async (request, reply) => {
    const outcome = await engine.click(request.params.token, requester(request));
    reply.header('cache-control', 'no-store').header('x-helium-counted', outcome.counted);
    if (!outcome.location) {
      return reply.code(404).type('text/plain; charset=utf-8').send('This link is no longer available.');
    }
    return reply.redirect(outcome.location, 302);
  });

  /** Conversion pixel on the advertiser's confirmation page. */
  app.get('/serve/l', async (request, reply) => {
    const counted = await engine.lead(query(request).hclid, 'pixel');
    return reply
      .type('image/gif')
      .header('cache-control', 'no-store')
      .header('x-helium-counted', counted ? 'counted' : 'ignored')
      .send(PIXEL);
  });

  /** Server-to-server postback: `hclid` in the query, a JSON body or a form. */
  app.post('/serve/lead', { bodyLimit: 2048 }, async (request, reply) => {
    const body = (typeof request.body === 'object' && request.body ? request.body : {}) as { hclid?: unknown };
    const counted = await engine.lead(body.hclid ?? query(request).hclid, 'postback');
    return reply.send({ status: counted ? 'ok' : 'ignored' });
  });

  /** The script's install heartbeat (also implied by every decision request). */
  app.get('/serve/h', async (request, reply) => {
    const publisherId = positiveInt(query(request).p);
    const headers = pageHeaders(request);
    const host = pageHost(headers.origin) || pageHost(headers.referer);
    if (publisherId && host) await engine.recordHeartbeat(publisherId, host);
    return reply.code(204).send();
  });

  /** The banner links name the publisher by its hash id (installation data's owlHtmlBanner1/2). */
  const owlKey = (params: { publisherId: string; banner: string; issue: string }) => {
    const banner = positiveInt(params.banner);
    return {
      publisherId: app.ctx.hashIds.decodePublisher(params.publisherId),
      banner: banner === 1 || banner === 2 ? banner : null,
      issue: withoutControlCharacters(params.issue).trim().slice(0, 100),
    };
  };

  /** The newsletter installation tutorial (installation data's tutorialUrl unless configured elsewhere). */
  app.get(NEWSLETTER_TUTORIAL_PATH, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=3600').send(NEWSLETTER_TUTORIAL),
  );

  /** Newsletter banners: the image chooses the issue's ad at first open and counts each open. */
  app.get<{ Params: { publisherId: string; banner: string; issue: string } }>(
    '/serve/owl/:publisherId/:banner/:issue/image',
    async (request, reply) => {
      const { publisherId, banner, issue } = owlKey(request.params);
      reply.header('cache-control', 'no-store');
      if (!publisherId || !banner || !issue) {
        return reply.header('x-helium-counted', 'ignored').type('image/gif').send(BLANK_BANNER);
      }
      const open = await engine.owlOpen(publisherId, banner, issue, requester(request));
      reply.header('x-helium-counted', open.counted);
      return open.location ? reply.redirect(open.location, 302) : reply.type('image/gif').send(BLANK_BANNER);
    },
  );
  app.get<{ Params: { publisherId: string; banner: string; issue: string } }>(
    '/serve/owl/:publisherId/:banner/:issue/click',
    async (request, reply) => {
      const { publisherId, banner, issue } = owlKey(request.params);
      reply.header('cache-control', 'no-store');
      if (!publisherId || !banner || !issue) return nothing(reply);
      const outcome = await engine.owlClick(publisherId, banner, issue, requester(request));
      reply.header('x-helium-counted', outcome.counted);
      return outcome.location ? reply.redirect(outcome.location, 302) : nothing(reply);
    },
  );

  /** A plain creative for ads that have no stored media yet (the delivery demo seed). */
  app.get<{ Params: { file: string } }>('/serve/creative/:file', async (request, reply) => {
    const adId = positiveInt(/^(\d+)\.svg$/.exec(request.params.file)?.[1]);
    const ad = adId ? engine.adById(adId) : undefined;
    if (!ad) return reply.code(404).send();
    const width = ad.width ?? 300;
    const height = ad.height ?? 250;
    const hue = (ad.id * 67) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="hsl(${hue},55%,45%)"/><text x="50%" y="50%" fill="#fff" font-family="sans-serif" font-size="${Math.max(12, Math.min(width, height) / 8)}" text-anchor="middle" dominant-baseline="middle">Ad #${ad.id}</text></svg>`;
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });
}
