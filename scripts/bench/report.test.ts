import { describe, expect, it } from 'vitest';
import { measure, type ConfigurationResult, type Measured } from './configuration.ts';
import type { PhaseResult } from './load.ts';
import { bareMultiple, judgeTargets, verdictText } from './report.ts';
import type { ServerSample } from './server.ts';

function phase(kind: PhaseResult['kind'], mode: string, overrides: Partial<PhaseResult> = {}) {
  const result: Omit<PhaseResult, 'countedDecisions'> = {
    kind,
    mode,
    requests: 1000,
    elapsedMs: 4000,
    rps: 250,
    p50: 1,
    p90: 2,
    p99: 5,
    max: 9,
    loaderCpu: 0.2,
    loaderCpuUs: 50_000,
    errors: 0,
    statuses: { 200: 1000 },
    views: kind === 'mixed' ? { counted: 500 } : {},
    views2xx: kind === 'mixed' ? 500 : 0,
    decisions200: kind === 'mixed' ? 500 : 0,
    perInstance: [1000],
    decisionsWithAds: 0,
    tokensLeft: 0,
    ...overrides,
  };
  return result;
}

const sample = (cpuUs: number, batches = 0, events = 0): ServerSample => ({
  cpuUs,
  threads: { server: cpuUs * 0.75, database: null, others: cpuUs * 0.25 },
  batches,
  events,
});
const noServices = { databaseCpuUs: null, redisCpuUs: null };

/** A measured phase whose servers spent `cpuUs` in all over its 1,000 requests. */
const measured = (kind: PhaseResult['kind'], mode: string, cpuUs: number, overrides: Partial<PhaseResult> = {}) =>
  measure(phase(kind, mode, overrides), [sample(0)], [sample(cpuUs)], noServices);

function configuration(name: string, instances: number, phases: Measured[]): ConfigurationResult {
  return {
    name,
    instances,
    databaseKind: 'pglite',
    pids: [1],
    redisNamespaces: [],
    phases,
    countCheck: { viewsAnswered2xx: 0, viewsCounted: 0, impressionRowsAdded: 0, summaryImpressionsAdded: 0, ok: true },
    serverErrors: [],
  };
}

describe("the benchmark's figures", () => {
  it("sums every instance's CPU, and charges a pageview two requests' worth (a decision and its view)", () => {
    const row = measure(
      phase('mixed', '64 connections', { requests: 2000, views: { counted: 900 }, perInstance: [1000, 1000] }),
      [sample(1_000_000, 10, 100), sample(2_000_000, 5, 50)],
      [sample(1_300_000, 30, 500), sample(2_500_000, 15, 250)],
      { databaseCpuUs: 40_000, redisCpuUs: null },
    );
    expect(row.cpuByInstanceUs).toEqual([300_000, 500_000]);
    expect(row.serverCpuUs).toBe(800_000);
    expect(row.serverCpuPerRequestUs).toBe(400);
    expect(row.serverCpuPerPageviewUs).toBe(800);
    expect(row.pageviews).toBe(900);
    expect(row.serverCpuByThreadUs).toEqual({ server: 300, database: null, others: 100 });
    expect(row.batches).toBe(30);
    expect(row.eventsPerBatch).toBe(20);
    expect(row.databaseCpuUs).toBe(40_000);
  });

  it('has no CPU a pageview for the bare route', () => {
    expect(measured('bare', '64 connections', 30_000).serverCpuPerPageviewUs).toBeNull();
  });

  it("compares a pageview with the bare route measured the same way, else with the closed loop's", () => {
    const phases = [
      measured('bare', '64 connections', 20_000),
      measured('bare', '1000 req/s', 50_000),
      measured('mixed', '64 connections', 100_000),
      measured('mixed', '1000 req/s', 200_000),
      measured('mixed', '2000 req/s', 150_000),
    ];
    expect(bareMultiple(phases, phases[2]!)).toBe(10); // 200 us a pageview, 20 us a bare request
    expect(bareMultiple(phases, phases[3]!)).toBe(8); // 400 against 50
    expect(bareMultiple(phases, phases[4]!)).toBe(15); // no bare phase at 2,000/s: the closed loop's 20
    expect(bareMultiple(phases.slice(2), phases[2]!)).toBeNull();
  });
});

describe("the issue's targets", () => {
  const pglite = configuration('pglite', 1, [
    measured('bare', '64 connections', 20_000),
    measured('mixed', '64 connections', 80_000), // 160 us a pageview: 8 bare requests exactly
    measured('bare', '1000 req/s', 40_000),
    measured('mixed', '1000 req/s', 170_000), // 340 us: 8.5
    measured('mixed', '2000 req/s', 150_000, { p99: 9.99 }),
  ]);
  const postgres = configuration('postgres', 1, [
    measured('bare', '64 connections', 20_000),
    measured('mixed', '64 connections', 100_000),
    measured('mixed', '1000 req/s', 100_000),
    measured('mixed', '2000 req/s', 100_000, { p99: 10 }),
  ]);
  const shared = configuration('shared', 2, [
    measured('bare', '64 connections', 25_000),
    measured('mixed', '64 connections', 150_000), // 1.5x
    measured('mixed', '1000 req/s', 151_000), // 1.51x
  ]);

  it('judges each target on its figure, at its limit included', () => {
    const verdicts = judgeTargets({ pglite, postgres, shared });
    expect(verdicts.map((verdict) => verdict.met)).toEqual([true, false, true, false, true, false, null]);
    expect(verdicts.map((verdict) => verdict.figure)).toEqual([
      '8.0x (160 us)',
      '8.5x (340 us)',
      // 300 us = 12 bare requests of 25 us, 200 us = 10 of 20; at 1,000/s, their closed loops' bare requests.
      "1.50x (300 / 200 us; in each one's bare requests 12.0 / 10.0 = 1.20x)",
      "1.51x (302 / 200 us; in each one's bare requests 12.1 / 10.0 = 1.21x)",
      '9.99 ms',
      '10 ms',
      'not measured in this run',
    ]);
    expect(verdictText(verdicts[1]!)).toMatch(/at 1,000 requests\/s: NOT met \(8\.5x \(340 us\)\)$/);
  });

  it('says what a run without a configuration, or with another number of instances, did not measure', () => {
    const unmeasured = [
      expect.stringMatching(/^2 instances .* closed loop$/),
      expect.stringMatching(/^2 instances .* at 1,000 requests\/s$/),
    ];
    const targets = (verdicts: ReturnType<typeof judgeTargets>) =>
      verdicts.filter((verdict) => verdict.met === null && verdict.target.startsWith('2 ')).map((one) => one.target);
    expect(targets(judgeTargets({ pglite }))).toEqual(unmeasured);
    expect(targets(judgeTargets({ pglite, postgres, shared: { ...shared, instances: 1 } }))).toEqual(unmeasured);
  });
});
