/**
 * What the benchmark prints: each phase's line, and the issue's targets judged on the figures of the run
 * (issue 33, item 7). Pure functions of the measured figures, tested in report.test.ts.
 */
import type { ConfigurationResult, Measured } from './configuration.ts';

/** A pageview at most this many bare route requests' worth of the server's CPU, on one process. */
export const MAX_BARE_REQUESTS_PER_PAGEVIEW = 8;
/** Two instances sharing their state: at most this multiple of one instance's CPU a pageview on PostgreSQL. */
export const MAX_SHARED_OVER_ONE = 1.5;
/** Pageview p99 at 1,000 pageviews/s (2,000 requests/s: a decision and a view each), milliseconds. */
export const MAX_P99_MS = 10;
/** The steady rate at which the CPU is judged, requests/s; and the rate of 1,000 pageviews/s. */
export const STEADY_RATE = 1000;
export const PAGEVIEW_RATE = 2000;

export function configurationLabel(name: string, sharedInstances = 2): string {
  if (name === 'pglite') return '(a) one instance on PGlite';
  if (name === 'postgres') return '(b) one instance on PostgreSQL alone';
  return `(c) ${sharedInstances === 2 ? 'two instances' : `${sharedInstances} instance(s)`} (processes) on PostgreSQL + Redis`;
}

export interface Verdict {
  target: string;
  /** The figure judged, as printed. */
  figure: string;
  /** null: not measured in this run. */
  met: boolean | null;
}

const closedLoop = (row: Measured) => !row.mode.includes('/s');
const atRate = (row: Measured, rate: number) => row.mode === `${rate} req/s`;

/** A configuration's phase of this kind, closed loop (no rate) or at that many requests/s. */
export function findPhase(result: Measured[] | undefined, kind: Measured['kind'], rate?: number) {
  return result?.find((row) => row.kind === kind && (rate === undefined ? closedLoop(row) : atRate(row, rate)));
}

/**
 * A pageview's CPU as a multiple of a bare route request's, measured the same way (closed loop, or the same rate;
 * at a rate without a bare phase, the closed loop's), or null.
 */
export function bareMultiple(result: Measured[] | undefined, row: Measured): number | null {
  const rate = closedLoop(row) ? undefined : Number.parseInt(row.mode, 10);
  const bare = findPhase(result, 'bare', rate) ?? findPhase(result, 'bare');
  if (!bare || !bare.serverCpuPerRequestUs || row.serverCpuPerPageviewUs === null) return null;
  return row.serverCpuPerPageviewUs / bare.serverCpuPerRequestUs;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

export function judgeTargets(results: Record<string, ConfigurationResult | undefined>): Verdict[] {
  const verdicts: Verdict[] = [];
  const notMeasured = (target: string) => verdicts.push({ target, figure: 'not measured in this run', met: null });
  const pglite = results.pglite?.phases;
  for (const rate of [undefined, STEADY_RATE]) {
    const target = `one process (PGlite) at most ${MAX_BARE_REQUESTS_PER_PAGEVIEW} bare requests' CPU a pageview, ${rate ? `at ${rate.toLocaleString('en')} requests/s` : 'closed loop'}`;
    const row = findPhase(pglite, 'mixed', rate);
    const multiple = row ? bareMultiple(pglite, row) : null;
    if (!row || multiple === null) notMeasured(target);
    else
      verdicts.push({
        target,
        figure: `${fixed(multiple)}x (${row.serverCpuPerPageviewUs} us)`,
        met: multiple <= MAX_BARE_REQUESTS_PER_PAGEVIEW,
      });
  }
  for (const rate of [undefined, STEADY_RATE]) {
    const target = `2 instances on PostgreSQL + Redis at most ${MAX_SHARED_OVER_ONE}x one on PostgreSQL alone, CPU a pageview, ${rate ? `at ${rate.toLocaleString('en')} requests/s` : 'closed loop'}`;
    const twoInstances = results.shared?.instances === 2 ? results.shared : undefined;
    const sharedRow = findPhase(twoInstances?.phases, 'mixed', rate);
    const aloneRow = findPhase(results.postgres?.phases, 'mixed', rate);
    const shared = sharedRow?.serverCpuPerPageviewUs;
    const alone = aloneRow?.serverCpuPerPageviewUs;
    if (!shared || !alone) notMeasured(target);
    else {
      // Judged in microseconds. Beside it, each in its own bare requests: two processes on two shared cores make
      // even the bare route dearer, and this ratio leaves that out (the shared state's own cost).
      const sharedBare = bareMultiple(twoInstances?.phases, sharedRow!);
      const aloneBare = bareMultiple(results.postgres?.phases, aloneRow!);
      const inBare =
        sharedBare === null || aloneBare === null
          ? ''
          : `; in each one's bare requests ${fixed(sharedBare)} / ${fixed(aloneBare)} = ${fixed(sharedBare / aloneBare, 2)}x`;
      verdicts.push({
        target,
        figure: `${fixed(shared / alone, 2)}x (${shared} / ${alone} us${inBare})`,
        met: shared / alone <= MAX_SHARED_OVER_ONE,
      });
    }
  }
  for (const [name, result] of Object.entries(results)) {
    const target = `pageview p99 under ${MAX_P99_MS} ms at ${(PAGEVIEW_RATE / 2).toLocaleString('en')} pageviews/s, ${name}`;
    const row = findPhase(result?.phases, 'mixed', PAGEVIEW_RATE);
    if (!row) notMeasured(target);
    else verdicts.push({ target, figure: `${row.p99} ms`, met: row.p99 < MAX_P99_MS });
  }
  return verdicts;
}

export function verdictText(verdict: Verdict): string {
  const state = verdict.met === null ? '' : verdict.met ? 'met' : 'NOT met';
  return `${verdict.target}: ${state}${state ? ' ' : ''}(${verdict.figure})`;
}

const thousands = (value: number) => Math.round(value).toLocaleString('en');

/** A phase's lines: throughput and latency, then the CPU (the server's, per request and per pageview). */
export function phaseLines(result: Measured[], row: Measured): string[] {
  const name = row.kind === 'mixed' ? 'pageviews' : row.kind;
  const endpoints = row.byEndpoint
    ? ` (decision p99 ${row.byEndpoint.decision.p99} ms, view p99 ${row.byEndpoint.view.p99} ms)`
    : '';
  const split =
    row.perInstance.length > 1
      ? `; by instance: requests ${row.perInstance.map(thousands).join(' / ')}, CPU ${row.cpuByInstanceUs.map((us) => `${thousands(us / 1000)} ms`).join(' / ')}`
      : '';
  const lines = [
    `  ${name.padEnd(9)} ${row.mode.padEnd(15)} ${thousands(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  max ${row.max} ms${endpoints}  (${thousands(row.requests)} requests, ${row.errors} errors${split})`,
  ];
  const threads = row.serverCpuByThreadUs;
  const byThread = threads
    ? ` (a request: server thread ${threads.server}${threads.database === null ? '' : `, database thread ${threads.database}`}, other threads ${threads.others})`
    : '';
  const loader = `load generator ${Math.round(row.loaderCpu * 100)}% busy, ${row.loaderCpuPerRequestUs} us a request`;
  if (row.serverCpuPerPageviewUs === null) {
    lines.push(`${''.padEnd(12)}server CPU ${row.serverCpuPerRequestUs} us a request${byThread}; ${loader}`);
    return lines;
  }
  const multiple = bareMultiple(result, row);
  const services = [
    row.databaseCpuUs === null
      ? null
      : `PostgreSQL's backends ${Math.round((2 * row.databaseCpuUs) / row.requests)} us`,
    row.redisCpuUs === null ? null : `Redis (all its clients) ${Math.round((2 * row.redisCpuUs) / row.requests)} us`,
  ].filter(Boolean);
  lines.push(
    `${''.padEnd(12)}${thousands((row.pageviews / row.elapsedMs) * 1000)} pageviews/s (${thousands(row.pageviews)} counted, ${thousands(row.decisions200)} decisions); server CPU ${row.serverCpuPerPageviewUs} us a pageview${multiple === null ? '' : ` = ${fixed(multiple)} bare requests`}${byThread}`,
    `${''.padEnd(12)}${services.length ? `a pageview outside the servers: ${services.join(', ')}; ` : ''}${row.batches} batches of ${row.eventsPerBatch} events, one every ${row.msPerBatch} ms; ${loader}`,
  );
  return lines;
}
