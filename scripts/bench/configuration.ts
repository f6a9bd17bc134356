/**
 * One configuration of the benchmark: its instances started (each in its own process, the first preparing the
 * database), the load generator spreading requests over them, the phases measured with every instance's CPU
 * time, and the count check: every view beacon answered `counted` is one impression in the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { cpuBetween, DatabaseBackends, Instance, LoadGenerator, redisCpuUs } from './instances.ts';
import type { PhaseKind, PhaseResult } from './load.ts';
import type { ServerSample, ServerSpec } from './server.ts';
import { STEADY_RATE } from './report.ts';

export interface ConfigurationSpec {
  /** `pglite`, `postgres` or `shared`. */
  name: string;
  instances: number;
  /** The throw-away database, or none for PGlite (in a temporary folder, one instance). */
  databaseUrl?: string;
  redisUrl?: string;
  /** Redis, to read its CPU (the whole server's) around each phase. */
  redis?: Redis;
  phases: Array<{ kind: PhaseKind; rate?: number }>;
  seconds: number;
  connections: number;
  logLevel: string;
  withoutStorage: boolean;
  withoutEngine: boolean;
  /** Diagnosis: each view goes to the instance that answered its decision. */
  sticky?: boolean;
  /** Diagnosis: each instance writes a CPU profile of its whole life to this folder. */
  profileDir?: string;
}

export type Measured = Omit<PhaseResult, 'countedDecisions'> & {
  /** Pageview phases: the view beacons answered `counted` (each the view of one decision: one pageview). */
  pageviews: number;
  /** The server processes' CPU (all their threads, every instance) in the phase, and per request. */
  serverCpuUs: number;
  serverCpuPerRequestUs: number;
  /**
   * Pageview phases: the servers' CPU per pageview, two requests (a decision and its view). Per request pair
   * rather than per counted view: a closed loop ends with decisions whose view comes after it (and began with
   * views of the warm-up's), which would be charged to the views counted.
   */
  serverCpuPerPageviewUs: number | null;
  /** Each instance's share of the servers' CPU, microseconds. */
  cpuByInstanceUs: number[];
  /** The servers' CPU per request by thread (Linux only, 10 ms ticks): HTTP thread, PGlite's thread, the rest. */
  serverCpuByThreadUs: { server: number; database: number | null; others: number } | null;
  /** PostgreSQL's backends of the database, and the whole Redis server, in the phase (null when not used). */
  databaseCpuUs: number | null;
  redisCpuUs: number | null;
  loaderCpuPerRequestUs: number;
  batches: number;
  eventsPerBatch: number;
  msPerBatch: number;
};

export interface ConfigurationResult {
  name: string;
  instances: number;
  databaseKind: string;
  pids: number[];
  /** The instances' key namespaces in Redis (their shared state), to delete after the run. */
  redisNamespaces: string[];
  phases: Measured[];
  countCheck: {
    viewsAnswered2xx: number;
    viewsCounted: number;
    impressionRowsAdded: number;
    summaryImpressionsAdded: number;
    ok: boolean;
    /** When not ok: counted views without an impression row, and the first few with their records. */
    missing?: unknown;
  };
  serverErrors: Array<{ count: number; first: string | null }>;
}

/** A phase's figures from the load generator's result and the samples taken before and after it. */
export function measure(
  result: Omit<PhaseResult, 'countedDecisions'>,
  before: ServerSample[],
  after: ServerSample[],
  services: { databaseCpuUs: number | null; redisCpuUs: number | null },
): Measured {
  const cpuByInstanceUs = after.map((end, index) => end.cpuUs - (before[index]?.cpuUs ?? 0));
  const serverCpuUs = cpuByInstanceUs.reduce((sum, us) => sum + us, 0);
  const perRequest = (us: number) => (result.requests ? Math.round(us / result.requests) : 0);
  const threadSum = (pick: (threads: NonNullable<ServerSample['threads']>) => number | null) => {
    let total: number | null = null;
    for (const [index, end] of after.entries()) {
      const start = before[index]?.threads;
      const value = end.threads && start ? pick(end.threads) : null;
      if (value === null || !start) continue;
      total = (total ?? 0) + value - (pick(start) ?? 0);
    }
    return total;
  };
  const hasThreads = after.every((sample) => sample.threads !== null);
  const batches = after.reduce((sum, end, index) => sum + end.batches - (before[index]?.batches ?? 0), 0);
  const events = after.reduce((sum, end, index) => sum + end.events - (before[index]?.events ?? 0), 0);
  const pageviews = result.kind === 'mixed' ? (result.views.counted ?? 0) : 0;
  const databaseThread = threadSum((threads) => threads.database);
  return {
    ...result,
    pageviews,
    serverCpuUs,
    serverCpuPerRequestUs: perRequest(serverCpuUs),
    serverCpuPerPageviewUs: pageviews > 0 ? Math.round((2 * serverCpuUs) / result.requests) : null,
    cpuByInstanceUs,
    serverCpuByThreadUs: hasThreads
      ? {
          server: perRequest(threadSum((threads) => threads.server) ?? 0),
          database: databaseThread === null ? null : perRequest(databaseThread),
          others: perRequest(threadSum((threads) => threads.others) ?? 0),
        }
      : null,
    ...services,
    loaderCpuPerRequestUs: perRequest(result.loaderCpuUs),
    batches,
    eventsPerBatch: batches ? Math.round((events / batches) * 10) / 10 : 0,
    msPerBatch: batches ? Math.round((result.elapsedMs / batches) * 10) / 10 : 0,
  };
}

export async function runConfiguration(
  spec: ConfigurationSpec,
  /** Called after each phase, with the phases measured so far (that one last). */
  onPhase: (phases: Measured[]) => void,
): Promise<ConfigurationResult> {
  const folders: string[] = [];
  const serverSpec = (prepare: boolean): ServerSpec => {
    const dataDir = mkdtempSync(join(os.tmpdir(), `helium-bench-${spec.name}-`));
    folders.push(dataDir);
    const { databaseUrl, redisUrl, logLevel, withoutStorage, withoutEngine } = spec;
    return { dataDir, databaseUrl, redisUrl, prepare, logLevel, withoutStorage, withoutEngine };
  };
  const instances: Instance[] = [];
  let loader: LoadGenerator | null = null;
  let backends: DatabaseBackends | null = null;
  try {
    // The first prepares the database (migrations, seed), then the others start on it at once.
    instances.push(await Instance.start(serverSpec(true), spec.profileDir));
    const others = Array.from({ length: spec.instances - 1 }, () => Instance.start(serverSpec(false), spec.profileDir));
    instances.push(...(await Promise.all(others)));
    if (spec.databaseUrl) backends = await DatabaseBackends.open(spec.databaseUrl);
    loader = await LoadGenerator.start();
    const first = instances[0]!;
    const phase = (kind: PhaseKind, options: { rate?: number; durationMs?: number }) =>
      loader!.phase({
        kind,
        connections: options.rate ? 64 : spec.connections,
        rate: options.rate,
        durationMs: options.durationMs ?? spec.seconds * 1000,
        apiUrls: instances.map((one) => `http://127.0.0.1:${one.ready.apiPort}`),
        bareUrls: instances.map((one) => `http://127.0.0.1:${one.ready.barePort}/bare`),
        publisherId: first.ready.publisherId,
        sticky: spec.sticky,
      });
    const everyInstance = <Result>(command: Parameters<Instance['command']>[0]) =>
      Promise.all(instances.map((one) => one.command<Result>(command)));
    // Warm-up, not reported (JIT, the index, connections, the view's path into the database): a server that has
    // just started measures several milliseconds more at the 99th percentile; a served product has been running.
    // V8's optimising compiler goes on compiling the serving path for some 10 s of pageviews: after 4 s of warm-up
    // its threads still took 113 us a request at 1,000 requests/s, then 35, 28 and 23 in the next three 8 s phases.
    await phase('bare', { durationMs: 1000 });
    await phase('decision', { durationMs: 1000 });
    await phase('mixed', { durationMs: 4000 });
    await phase('mixed', { rate: STEADY_RATE, durationMs: 4000 });
    await everyInstance('flush');
    const impressionsBefore = await first.command<{ rows: number; summarised: number }>('impressions');

    const rows: Measured[] = [];
    const countedDecisions: string[] = [];
    for (const { kind, rate } of spec.phases) {
      const before = await everyInstance<ServerSample>('sample');
      const databaseBefore = (await backends?.sample()) ?? null;
      const redisBefore = spec.redis ? await redisCpuUs(spec.redis) : null;
      const { countedDecisions: counted, ...result } = await phase(kind, { rate });
      const after = await everyInstance<ServerSample>('sample');
      const databaseAfter = (await backends?.sample()) ?? null;
      const redisAfter = spec.redis ? await redisCpuUs(spec.redis) : null;
      countedDecisions.push(...counted);
      const row = measure(result, before, after, {
        databaseCpuUs: databaseBefore && databaseAfter ? cpuBetween(databaseBefore, databaseAfter) : null,
        redisCpuUs: redisBefore !== null && redisAfter !== null ? redisAfter - redisBefore : null,
      });
      rows.push(row);
      onPhase(rows);
    }
    loader.stop();
    loader = null;

    await everyInstance('flush');
    const impressionsAfter = await first.command<{ rows: number; summarised: number }>('impressions');
    const views2xx = rows.reduce((sum, row) => sum + row.views2xx, 0);
    const counted = rows.reduce((sum, row) => sum + (row.views.counted ?? 0), 0);
    const added = impressionsAfter.rows - impressionsBefore.rows;
    const summaryAdded = impressionsAfter.summarised - impressionsBefore.summarised;
    const ok = counted === added && added === summaryAdded && views2xx === counted;
    return {
      name: spec.name,
      instances: spec.instances,
      databaseKind: first.ready.databaseKind,
      pids: instances.map((one) => one.pid),
      redisNamespaces: [...new Set(instances.flatMap((one) => one.ready.redisNamespace ?? []))],
      phases: rows,
      countCheck: {
        viewsAnswered2xx: views2xx,
        viewsCounted: counted,
        impressionRowsAdded: added,
        summaryImpressionsAdded: summaryAdded,
        ok,
        ...(ok ? {} : { missing: await first.command('storedDecisions', countedDecisions) }),
      },
      serverErrors: await everyInstance<{ count: number; first: string | null }>('serverErrors'),
    };
  } finally {
    loader?.stop();
    await backends?.close();
    // One after the other: each writes what it still holds before the database closes.
    for (const instance of instances.reverse()) await instance.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}
