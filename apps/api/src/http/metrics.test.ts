import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { parseExposition, total } from '../../test/metrics-exposition.ts';
import {
  blogAndTwoCampaigns,
  BOT_UA,
  decide,
  onlyCampaign,
  publisherId,
  tokenFields,
  view,
} from '../../test/serve-support.ts';

const TOKEN = 'metrics-token-'.padEnd(40, 'x');
/**
 * Prometheus's own checker, where installed (PROMTOOL, or promtool on the PATH): parseExposition
 * (test/metrics-exposition.ts) stands in elsewhere.
 */
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const hasPromtool = spawnSync(PROMTOOL, ['--version']).status === 0;

let t: TestApp;
let blog: number;

async function scrape(options: { ip?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: options.headers,
  });
}

async function samples() {
  const response = await scrape();
  expect(response.statusCode).toBe(200);
  return parseExposition(response.body).samples;
}

beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
  blog = await publisherId(t.db, 'Demo Blog');
});
afterAll(async () => t.close());

describe('GET /metrics', () => {
  it('answers Prometheus text that a strict reader of the format accepts, with the named metrics', async () => {
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types } = parseExposition(response.body);
    expect(Object.fromEntries([...types].filter(([name]) => name.startsWith('helium_')))).toEqual({
      helium_http_requests_total: 'counter',
      helium_decision_seconds: 'histogram',
      helium_view_seconds: 'histogram',
      helium_group_commit_batch_events: 'histogram',
      helium_group_commit_batch_seconds: 'histogram',
      helium_group_commit_batch_failures_total: 'counter',
      helium_group_commit_lost_answers_total: 'counter',
      helium_events_counted_total: 'counter',
      helium_events_refused_total: 'counter',
      helium_events_set_aside_total: 'counter',
      helium_credit_reservations_total: 'counter',
      helium_credit_reservations_held: 'gauge',
      helium_job_runs_total: 'counter',
      helium_job_seconds: 'histogram',
      helium_mail_total: 'counter',
    });
    // Node's own figures.
    expect(types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
    expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
  });

  it.runIf(hasPromtool)('passes `promtool check metrics`, lint included', async () => {
    const response = await scrape();
    const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: response.body, encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it("is what docs/operations.md lists and the Grafana dashboard's queries read", async () => {
    const { types } = parseExposition((await scrape()).body);
    const ours = [...types.keys()].filter((name) => name.startsWith('helium_'));
    const operations = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    for (const name of ours) expect(operations, name).toContain(`\`${name}`);
    const dashboard = JSON.parse(
      readFileSync(new URL('../../../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
    ) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
    const queried = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    const names = new Set(queried.flatMap((expr) => expr.match(/\b(helium|nodejs|process)_[a-z0-9_]+/g) ?? []));
    const exposed = (name: string) => types.has(name) || types.has(name.replace(/_(bucket|sum|count)$/, ''));
    expect([...names].filter((name) => !exposed(name))).toEqual([]);
    // Every metric of ours has a panel.
    expect(ours.filter((name) => ![...names].some((queriedName) => queriedName.startsWith(name)))).toEqual([]);
  });

  it('the strict reader refuses what is not the format (it can fail)', () => {
    expect(() => parseExposition('# TYPE a_total counter\na_total{x="1"} 1\n')).not.toThrow();
    expect(() => parseExposition('a 1\n')).toThrow(/outside its metric/);
    expect(() => parseExposition('# TYPE a_total counter\na_total{x=1} 1\n')).toThrow(/not a sample/);
    expect(() => parseExposition('# TYPE a_total counter\na_total one\n')).toThrow(/not a sample/);
    expect(() => parseExposition('# TYPE a gauge\n# TYPE a gauge\n')).toThrow(/second TYPE/);
    expect(() => parseExposition('# TYPE a_total histogram\na 1\n')).toThrow(/named \*_total/);
    expect(() => parseExposition('# TYPE a_total counter\na_count 1\n')).toThrow(/outside its metric/);
  });

  it('moves after a served decision, a view and a refused view, by route pattern and status', async () => {
    // Vélo Urbain's campaign is billed by the impression (CPM): its served ads reserve a credit each.
    const { bikes } = await blogAndTwoCampaigns(t.db);
    await onlyCampaign(t, bikes, { impressions: 1_000 });
    const before = await samples();
    const visitor = { ip: '198.51.100.23' };
    const { ads } = await decide(t, blog, visitor);
    expect(ads.length).toBeGreaterThan(0);
    const viewed = await view(t, ads[0]!.view, visitor);
    expect(viewed.headers['x-helium-counted']).toBe('counted');
    const { ads: botAds } = await decide(t, blog, { ip: '198.51.100.24', ua: BOT_UA });
    expect(botAds).toEqual([]);
    await t.app.delivery.recorder.flush();
    const after = await samples();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('helium_http_requests_total', { method: 'GET', route: '/serve/d', status: '200' })).toBe(2);
    expect(moved('helium_http_requests_total', { method: 'POST', route: '/serve/v', status: '204' })).toBe(1);
    // The route's pattern, never the URL with its query.
    expect(after.some((sample) => sample.labels.route?.includes('?'))).toBe(false);
    expect(moved('helium_decision_seconds_count')).toBe(2);
    expect(moved('helium_decision_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(moved('helium_view_seconds_count')).toBe(1);
    expect(moved('helium_events_counted_total', { kind: 'pageview' })).toBe(1);
    expect(moved('helium_events_counted_total', { kind: 'decision' })).toBe(ads.length);
    expect(moved('helium_events_counted_total', { kind: 'impression' })).toBe(1);
    expect(moved('helium_events_refused_total', { kind: 'pageview', reason: 'bot' })).toBe(1);
    expect(moved('helium_group_commit_batch_events_count')).toBeGreaterThan(0);
    // Every event written is in a batch (heartbeats too, which are not counted as traffic).
    expect(moved('helium_group_commit_batch_events_sum')).toBeGreaterThanOrEqual(
      moved('helium_events_counted_total') + moved('helium_events_refused_total'),
    );
    // A CPM ad's credit is reserved when served, and the reservation is spent by its view.
    const index = t.app.delivery.state().index;
    const isCpm = (ad: { view: string }) =>
      !index.campaigns.get(index.ads.get(Number(tokenFields(ad.view)[4]))!.campaignId)!.isCpc;
    const cpmAds = ads.filter(isCpm).length;
    expect(cpmAds).toBeGreaterThan(0);
    expect(moved('helium_credit_reservations_total', { outcome: 'reserved' })).toBe(cpmAds);
    expect(moved('helium_credit_reservations_held')).toBe(cpmAds - (isCpm(ads[0]!) ? 1 : 0));
  });

  it('moves after a sign-in: its calls, and the mail that carried its code', async () => {
    const before = await samples();
    await t.client().signIn('publisher@demo.test');
    const after = await samples();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('helium_http_requests_total', { method: 'POST', route: '/api/common/signin', status: '200' })).toBe(2);
    expect(moved('helium_mail_total', { outcome: 'sent' })).toBe(1);
    expect(moved('helium_mail_total', { outcome: 'failed' })).toBe(0);
  });

  it('counts the runs of the timed jobs', async () => {
    const before = await samples();
    await t.app.ctx.scheduler.runNow('ad-validation-timeouts');
    const after = await samples();
    const job = { job: 'ad-validation-timeouts', outcome: 'ok' };
    expect(total(after, 'helium_job_runs_total', job) - total(before, 'helium_job_runs_total', job)).toBe(1);
  });

  it('refuses a caller that is not on this machine, with nothing of the metrics', async () => {
    const remote = await scrape({ ip: '203.0.113.9' });
    expect(remote.statusCode).toBe(401);
    expect(remote.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(remote.body).not.toContain('helium_');
    // Through the trusted proxy on loopback, the visitor behind it is the caller.
    const proxied = await scrape({ headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.statusCode).toBe(401);
    expect(proxied.body).not.toContain('helium_');
  });

  it('answers a remote caller with METRICS_TOKEN, and refuses a wrong token', async () => {
    const accepted = await scrape({ ip: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body).toContain('helium_http_requests_total');
    const wrong = await scrape({ ip: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}y` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('helium_');
    const notBearer = await scrape({ ip: '203.0.113.9', headers: { authorization: `Basic ${TOKEN}` } });
    expect(notBearer.statusCode).toBe(401);
  });

  it('answers 403 to a remote caller when no METRICS_TOKEN is set; IPv6 loopback is this machine', async () => {
    const other = await buildTestApp({ shareDatabaseWith: t });
    try {
      const remote = await other.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
      expect(remote.statusCode).toBe(403);
      expect(remote.body).not.toContain('helium_');
      const withSomeToken = await other.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '203.0.113.9',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(withSomeToken.statusCode).toBe(403);
      const ipv6 = await other.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
      expect(ipv6.statusCode).toBe(200);
      // Each app has its own registry: the other's requests are not this one's.
      const own = parseExposition(ipv6.body).samples;
      expect(total(own, 'helium_http_requests_total', { route: '/serve/d' })).toBe(0);
    } finally {
      await other.close();
    }
  });
});
