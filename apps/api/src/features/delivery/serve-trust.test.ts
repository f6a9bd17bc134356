import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adImpressions, invalidTraffic, pageviews } from '@helium/db';
import type { DecisionAnswer } from '@helium/contracts/serving';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  BROWSER_UA,
  decide,
  decisionIdOf,
  onlyCampaign,
  showOneAdOnly,
  view,
  blogAndTwoCampaigns,
} from '../../../test/serve-support.ts';
import { chromeLike, expectConsistent, trustChecks, written } from '../../../test/trust-support.ts';

/*
 * Issue 21, point 2 ("Trust"): one IP changing its user agent is hundreds of visitors. Each test replays an attack
 * or a rule of it and checks what is billed: the campaign's credits and the day's money move by what is billed
 * only, and the summaries agree with the event rows that are not set aside. What an address counted before its
 * rule tripped, set aside afterwards, and the daily ledger: serve-set-asides.test.ts.
 */

let t: TestApp;
let blog: number;
let bikes: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ blog, bikes } = await blogAndTwoCampaigns(t.db));
  await showOneAdOnly(t.db, bikes);
});
afterAll(async () => t.close());

const { startOfNextMinute, billing } = trustChecks(() => t);

/** A decision request with exactly these headers (no Origin unless given), as a program would send it. */
async function rawDecision(app: TestApp, headers: Record<string, string>, page = 'http://localhost/article') {
  const response = await app.app.inject({
    method: 'GET',
    url: `/serve/d?p=${blog}&w=1280&u=${encodeURIComponent(page)}`,
    remoteAddress: '127.0.0.1',
    headers,
  });
  return { response, ads: (response.json() as DecisionAnswer).ads };
}

/** A view beacon with exactly these headers. */
function rawView(app: TestApp, token: string, headers: Record<string, string>) {
  return app.app.inject({
    method: 'POST',
    url: '/serve/v',
    remoteAddress: '127.0.0.1',
    headers: { ...headers, 'content-type': 'text/plain' },
    payload: token,
  });
}

/** Replays `pairs` decision+view pairs from one address, each with another user agent, a pair every `everyMs`. */
async function rotateUserAgents(options: {
  ip: string;
  pairs: number;
  everyMs: number;
  headers?: Record<string, string>;
  first?: number;
}) {
  const events: Array<{ at: number; pair: number; kind: 'decision' | 'view' }> = [];
  for (let pair = 0; pair < options.pairs; pair++) {
    events.push(
      { at: pair * options.everyMs, pair, kind: 'decision' },
      { at: pair * options.everyMs + 1_050, pair, kind: 'view' },
    );
  }
  events.sort((a, b) => a.at - b.at || (a.kind === 'decision' ? -1 : 1));
  const start = t.clock.now().getTime();
  const tokens = new Map<number, string>();
  const outcomes: Record<string, number> = {};
  for (const event of events) {
    t.clock.advance(start + event.at - t.clock.now().getTime());
    const headers = {
      'user-agent': chromeLike((options.first ?? 0) + event.pair),
      'x-forwarded-for': options.ip,
      ...options.headers,
    };
    if (event.kind === 'decision') {
      const { ads } = await rawDecision(t, headers);
      if (ads[0]) tokens.set(event.pair, ads[0].view);
      continue;
    }
    const token = tokens.get(event.pair);
    if (!token) continue;
    const counted = String((await rawView(t, token, headers)).headers['x-helium-counted']);
    outcomes[counted] = (outcomes[counted] ?? 0) + 1;
  }
  await written(t);
  return outcomes;
}

describe('one IP changing its user agent (the attack replayed)', () => {
  it('300 decision+view pairs in 4.5 s, each with another user agent and no Origin or Referer, bill at most a handful', async () => {
    await onlyCampaign(t, bikes, { impressions: 100_000 });
    startOfNextMinute();
    const start = t.clock.now();
    const before = await billing(bikes);
    const outcomes = await rotateUserAgents({ ip: '198.51.100.77', pairs: 300, everyMs: 15 });
    const after = await billing(bikes);
    const billed = after.impressions - before.impressions;
    expect(billed, JSON.stringify(outcomes)).toBeLessThanOrEqual(5);
    expect(after.remainingImpressions).toBe(before.remainingImpressions - billed);
    expect(after.cost - before.cost).toBe(after.rowCost - before.rowCost);
    expectConsistent(after);
    // Without a browser's evidence no ad is even served (nothing to view); from the 21st user agent of the
    // minute on, the address itself is set aside.
    expect(outcomes).toEqual({});
    const reasons = await t.db
      .select({ reason: pageviews.invalidReason, n: sql<number>`count(*)::int` })
      .from(pageviews)
      .where(sql`${pageviews.createdAt} >= ${start.toISOString()}::timestamptz`)
      .groupBy(pageviews.invalidReason)
      .orderBy(pageviews.invalidReason);
    expect(reasons).toEqual([
      { reason: 'ipVisitors', n: 280 },
      { reason: 'noEvidence', n: 20 },
    ]);
  });

  it('the same with the Origin and Referer of the registered domain, paced so that views count before the rule trips, bills nothing in the end', async () => {
    await onlyCampaign(t, bikes, { impressions: 100_000 });
    startOfNextMinute();
    const before = await billing(bikes);
    const outcomes = await rotateUserAgents({
      ip: '198.51.100.78',
      pairs: 300,
      // A pair every 2 s: 30 visitors a minute, each view counted before the minute's 21st visitor.
      everyMs: 2_000,
      headers: { origin: 'http://localhost', referer: 'http://localhost/' },
      first: 1_000,
    });
    // Twenty views were counted (billed) before the rule tripped, then set aside with every later one.
    expect(outcomes.counted).toBe(20);
    const after = await billing(bikes);
    expect(after.impressions).toBe(before.impressions);
    expect(after.cost).toBe(before.cost);
    expect(after.revenue).toBe(before.revenue);
    expect(after.remainingImpressions).toBe(before.remainingImpressions);
    expectConsistent(after);
    const setAside = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(adImpressions)
      .where(eq(adImpressions.invalidReason, 'ipVisitors'));
    expect(setAside[0]!.n).toBe(20);
  });
});

describe("the publisher's registered domain and a browser's evidence", () => {
  it('counts no pageview of a page on another domain, nor one without Origin or Referer, and serves it nothing', async () => {
    await onlyCampaign(t, bikes, { impressions: 1_000 });
    const cases: Array<[string, Record<string, string>, string, string | null]> = [
      ['copy on another site', { origin: 'https://copycat.example' }, 'https://copycat.example/article', 'otherDomain'],
      ['foreign page, own Origin', { origin: 'http://localhost:8080' }, 'https://copycat.example/a', 'otherDomain'],
      ['no Origin nor Referer', {}, 'http://localhost:8080/article', 'noEvidence'],
      ['Origin null, Referer elsewhere', { origin: 'null', referer: 'https://copycat.example/' }, '', 'otherDomain'],
      [
        'same-origin fetch (Referer only)',
        { referer: 'http://localhost:8080/article' },
        'http://localhost:8080/a',
        null,
      ],
      ['a subdomain, www', { origin: 'https://www.blog.localhost' }, 'https://www.blog.localhost/a', null],
    ];
    let visitor = 0;
    for (const [name, headers, page, reason] of cases) {
      visitor += 1;
      const { response, ads } = await rawDecision(
        t,
        { 'user-agent': BROWSER_UA, 'x-forwarded-for': `10.212.0.${visitor}`, ...headers },
        page || 'http://localhost:8080/article',
      );
      expect(response.headers['x-helium-counted'], name).toBe(reason ? 'invalid' : 'counted');
      expect(ads.length, name).toBe(reason ? 0 : 1);
      if (!reason) continue;
      await t.app.delivery.recorder.flush();
      const [row] = await t.db
        .select({ reason: pageviews.invalidReason })
        .from(pageviews)
        .where(sql`${pageviews.createdAt} = ${t.clock.now().toISOString()}::timestamptz`)
        .orderBy(sql`${pageviews.id}`)
        .limit(1);
      expect(row?.reason, name).toBe(reason);
      t.clock.advance(1);
    }
  });

  it("sets aside a view beacon without the page's Origin or Referer, and lets the browser's own count after it", async () => {
    await onlyCampaign(t, bikes, { impressions: 1_000 });
    const visitor = { ip: '10.213.0.1' };
    const before = await billing(bikes);
    const { ads } = await decide(t, blog, visitor);
    const token = ads[0]!.view;
    expect((await view(t, token, visitor, 1_000, {})).headers['x-helium-counted']).toBe('invalid');
    expect((await view(t, token, visitor, 0, { origin: 'https://copycat.example' })).headers['x-helium-counted']).toBe(
      'invalid',
    );
    await t.app.delivery.recorder.flush();
    const reasons = await t.db
      .select({ reason: invalidTraffic.reason })
      .from(invalidTraffic)
      .where(eq(invalidTraffic.decisionId, decisionIdOf(ads[0]!)))
      .orderBy(invalidTraffic.id);
    expect(reasons.map((row) => row.reason)).toEqual(['noEvidence', 'otherDomain']);
    // A page whose referrer policy is no-referrer: its beacon says `Origin: null`, and counts.
    expect((await view(t, token, visitor, 0, { origin: 'null' })).headers['x-helium-counted']).toBe('counted');
    expect((await billing(bikes)).impressions).toBe(before.impressions + 1);
  });
});
