import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { capturedLog } from '../../../test/captured-log.ts';
import { BROWSER_UA, publisherId, type ServedAdJson } from '../../../test/serve-support.ts';

const VISITOR_IP = '203.0.113.77';
/** A page of the demo blog's registered domain (`localhost`), with what a log line must not keep. */
const PAGE = 'http://localhost:8080/private-page?email=reader%40example.com';

let t: TestApp;
let blog: number;
/** What the server logged, as `npm start` logs by default (level info): one parsed line each, and as written. */
const { lines, logger, text: logged } = capturedLog('info');

beforeAll(async () => {
  t = await buildTestApp({ loggerInstance: logger });
  blog = await publisherId(t.db, 'Demo Blog');
});
afterAll(async () => t.close());

const fromVisitor = { 'user-agent': BROWSER_UA, 'x-forwarded-for': VISITOR_IP, origin: 'http://localhost:8080' };

/** A GET from the visitor's browser, through the trusted proxy (loopback). */
const visitorGets = (url: string) =>
  t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: fromVisitor });
const decisionUrl = () => `/serve/d?p=${blog}&w=1280&u=${encodeURIComponent(PAGE)}`;

describe('what the server logs of the serving routes', () => {
  it("logs no line per serving or media request, so neither the visitor's address nor the page's", async () => {
    const decision = await visitorGets(decisionUrl());
    expect(decision.statusCode).toBe(200);
    const [ad] = (decision.json() as { ads: ServedAdJson[] }).ads;
    expect(ad).toBeDefined();
    const view = await t.app.inject({
      method: 'POST',
      url: '/serve/v',
      remoteAddress: '127.0.0.1',
      headers: { ...fromVisitor, 'content-type': 'text/plain' },
      payload: ad!.view,
    });
    expect(view.statusCode).toBe(204);
    const click = await visitorGets(new URL(ad!.click).pathname);
    expect(click.statusCode).toBe(302);
    const media = await visitorGets(new URL(ad!.src).pathname);
    // The media route answered (the tests' media folder does not hold the seed's files: its own 404).
    expect(media.statusCode).toBe(404);
    expect(media.json()).toMatchObject({ message: 'No such media.' });
    await t.app.delivery.recorder.flush();

    expect(logged()).not.toContain(VISITOR_IP);
    expect(logged()).not.toContain('private-page');
    expect(logged()).not.toContain('/serve/');
    expect(logged()).not.toContain('/media/');
  });

  it('still logs the requests of the other routes', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '127.0.0.1' });
    expect(health.statusCode).toBe(200);
    const incoming = lines.filter((line) => line.msg === 'incoming request');
    expect(incoming.map((line) => (line.req as { url: string }).url)).toContain('/healthz');
  });

  it('still logs an error of a serving route, without the request id', async () => {
    const engine = t.app.delivery;
    const decide = engine.decide.bind(engine);
    engine.decide = () => Promise.reject(new Error('index unavailable'));
    try {
      const response = await visitorGets(decisionUrl());
      expect(response.statusCode).toBe(500);
    } finally {
      engine.decide = decide;
    }
    const failed = lines.filter((line) => line.msg === 'request failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.level).toBe(50);
    expect(JSON.stringify(failed[0])).toContain('index unavailable');
    expect(failed[0]!.reqId).toBeUndefined();
    expect(logged()).not.toContain(VISITOR_IP);
  });
});

describe('a proxy the server does not trust', () => {
  const proxyWarnings = () => lines.filter((line) => line.level === 40 && String(line.msg).includes('TRUST_PROXY'));
  const through = (proxy: string) =>
    t.app.inject({ method: 'GET', url: decisionUrl(), remoteAddress: proxy, headers: fromVisitor });

  it('is warned about once an hour, naming its address: every visitor would have it', async () => {
    // Through the trusted proxy (loopback), or straight from a public address: nothing to warn about.
    await visitorGets(decisionUrl());
    await through('198.51.100.20');
    expect(proxyWarnings()).toHaveLength(0);
    // A reverse proxy on a private network that TRUST_PROXY does not name.
    expect((await through('10.0.3.7')).statusCode).toBe(200);
    await through('10.0.3.7');
    expect(proxyWarnings()).toHaveLength(1);
    expect(proxyWarnings()[0]!.proxy).toBe('10.0.3.7');
    expect(logged()).not.toContain(VISITOR_IP);
  });
});
