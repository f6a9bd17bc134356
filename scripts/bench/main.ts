/**
 * npm run bench [-- --configs pglite,postgres,shared] [--seconds <per phase, 4>] [--connections <closed loop, 64>]
 *                 [--database-url <PostgreSQL server>] [--redis-url <Redis>] [--phases <see below>]
 *                 [--without-storage] [--without-engine] [--log-level <server's, warn>]
 *
 * In one run on this machine, three configurations of the real API (buildApp, each instance in a process of its
 * own with a bare Fastify route beside it, loaded from a load generator process over loopback):
 *   (a) one instance on PGlite in a temporary folder, as `npm start` runs by default;
 *   (b) one instance on PostgreSQL alone (a throw-away database on the server of --database-url);
 *   (c) two instances on that PostgreSQL and Redis (their shared state under the throw-away database's namespace,
 *       deleted after the run), requests spread over both in turn.
 * For each: the server processes' CPU time (all their threads, from /proc) per request of the bare route and per
 * counted pageview (a decision and its view), closed loop and at a fixed rate, with latency; the count check
 * (views answered 2xx = views answered `counted` = impressions added in the database); then the issue's targets
 * judged, the publisher script's gzipped size and the web app's sizes. Figures go to docs/performance.md by hand.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { loadAverage } from './cpu.ts';
import { runConfiguration, type ConfigurationResult, type ConfigurationSpec } from './configuration.ts';
import { createThrowAwayDatabase } from '@helium/db';
import { deleteNamespace, openRedis } from './instances.ts';
import type { PhaseKind } from './load.ts';
import { configurationLabel, judgeTargets, PAGEVIEW_RATE, phaseLines, STEADY_RATE, verdictText } from './report.ts';
import { webBundleSizes } from './web-bundle.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'apps/publisher-script/dist/helium.js');
const SCRIPT_EXTRAS = join(ROOT, 'apps/publisher-script/dist/extras.js');
const WEB_DIST = join(ROOT, 'apps/web/dist');
const CONFIGURATIONS = ['pglite', 'postgres', 'shared'];
const DEFAULT_PHASES = ['bare', 'mixed', `bare@${STEADY_RATE}`, `mixed@${STEADY_RATE}`, `mixed@${PAGEVIEW_RATE}`];

const { values } = parseArgs({
  options: {
    configs: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    'database-url': { type: 'string' },
    'redis-url': { type: 'string' },
    /** Diagnosis: how many instances (c) runs (2 by default): with 1, the shared state's cost without a second process. */
    'shared-instances': { type: 'string' },
    /** Which phases to run, in order; `@<rate>` marks the open loop at that many requests/s. */
    phases: { type: 'string' },
    /** Diagnosis only: events are dropped instead of written, to see the engine's cost without storage. */
    'without-storage': { type: 'boolean' },
    /** Diagnosis only: the engine answers every decision with the first one's ads and every view "counted". */
    'without-engine': { type: 'boolean' },
    /** Diagnosis: each view goes to the instance that answered its decision (sticky sessions), not the next one. */
    sticky: { type: 'boolean' },
    /** Diagnosis: each instance writes a CPU profile (.cpuprofile, for Chrome's DevTools) to this folder. */
    'cpu-prof-dir': { type: 'string' },
    /** The servers' log level (`npm start` logs at info by default); their lines go to a file. */
    'log-level': { type: 'string' },
  },
});
const configs = (values.configs ?? CONFIGURATIONS.join(',')).split(',').map((name) => name.trim());
for (const name of configs) {
  if (!CONFIGURATIONS.includes(name)) throw new Error(`--configs: ${name} is not one of ${CONFIGURATIONS.join(', ')}`);
}
const KINDS: readonly string[] = ['bare', 'decision', 'view', 'mixed'];
const phases = (values.phases ?? DEFAULT_PHASES.join(',')).split(',').map((name) => {
  const [kind, rate] = name.trim().split('@');
  const rateOk = rate === undefined || (/^\d+$/.test(rate) && Number(rate) >= 1 && Number(rate) <= 20_000);
  if (!kind || !KINDS.includes(kind) || !rateOk) {
    throw new Error(`--phases: ${name} is not one of ${KINDS.join(', ')}, each optionally @<requests per second>`);
  }
  return { kind: kind as PhaseKind, rate: rate === undefined ? undefined : Number(rate) };
});
const seconds = Number(values.seconds ?? '4');
if (!(seconds >= 1 && seconds <= 30)) throw new Error('--seconds must be from 1 to 30');
const connections = Number(values.connections ?? '64');
if (!Number.isInteger(connections) || connections < 1 || connections > 256) throw new Error('--connections 1-256');
const logLevel = values['log-level'] ?? 'warn';
const logLevels = [...Object.keys(pino.levels.values), 'silent'];
if (!logLevels.includes(logLevel)) throw new Error(`--log-level: one of ${logLevels.join(', ')}`);
const postgresServer =
  values['database-url'] ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = values['redis-url'] ?? process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sharedInstances = Number(values['shared-instances'] ?? '2');
if (!Number.isInteger(sharedInstances) || sharedInstances < 1 || sharedInstances > 8) {
  throw new Error('--shared-instances 1-8');
}
const withoutStorage = values['without-storage'] === true;
const withoutEngine = values['without-engine'] === true;
const log = (line: string) => console.log(line);
const diagnoses = [
  withoutStorage && 'DIAGNOSIS: events not stored',
  withoutEngine && 'DIAGNOSIS: the engine answers without working',
  values.sticky && 'DIAGNOSIS: each view sent to the instance that answered its decision',
].filter(Boolean);

// The publisher script and the web app, built as `npm run build` does when missing.
if (!existsSync(SCRIPT) || !existsSync(SCRIPT_EXTRAS))
  execFileSync(process.execPath, ['apps/publisher-script/build.mjs'], { cwd: ROOT });
const script = readFileSync(SCRIPT);
const scriptGzip = gzipSync(script, { level: 9 }).length;
const extrasGzip = gzipSync(readFileSync(SCRIPT_EXTRAS), { level: 9 }).length;
if (!existsSync(join(WEB_DIST, 'index.html')))
  execFileSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: ROOT, stdio: 'ignore' });
const webBundle = webBundleSizes(WEB_DIST);

log(
  `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}; ${new Date().toISOString()}`,
);
log(`load average at start: ${loadAverage()}`);
log(
  `phases of ${seconds} s (closed loop: ${connections} connections), each server's CPU from /proc${diagnoses.map((text) => `; ${text}`).join('')}`,
);

const results: Record<string, ConfigurationResult | undefined> = {};
const skipped: Record<string, string> = {};
const profileDir = values['cpu-prof-dir'];
const sticky = values.sticky === true;
const base = { phases, seconds, connections, logLevel, withoutStorage, withoutEngine, profileDir, sticky };
const redis = configs.includes('shared') ? openRedis(redisUrl) : undefined;
const redisUnreachable = redis
  ? await redis.connect().then(
      () => redis.ping().then(() => null),
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
  : null;
for (const name of configs) {
  log('');
  log(`${configurationLabel(name, sharedInstances)}:`);
  let spec: ConfigurationSpec = { ...base, name, instances: 1 };
  let dropDatabase: (() => Promise<void>) | null = null;
  if (name !== 'pglite') {
    try {
      const database = await createThrowAwayDatabase(postgresServer, { prefix: `helium_bench_${name}` });
      dropDatabase = database.drop;
      spec = { ...spec, databaseUrl: database.url };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      skipped[name] = `skipped: PostgreSQL at ${postgresServer} unreachable (${why})`;
    }
  }
  if (name === 'shared' && !skipped[name]) {
    if (redisUnreachable) skipped[name] = `skipped: Redis at ${redisUrl} unreachable (${redisUnreachable})`;
    else spec = { ...spec, instances: sharedInstances, redisUrl, redis };
  }
  if (skipped[name]) {
    log(`  ${skipped[name]}`);
    await dropDatabase?.();
    continue;
  }
  try {
    const result = await runConfiguration(spec, (measured) => {
      for (const line of phaseLines(measured, measured.at(-1)!)) log(line);
    });
    results[name] = result;
    const check = result.countCheck;
    log(
      `  count check: ${check.viewsAnswered2xx} view beacons answered 2xx, ${check.viewsCounted} counted, ${check.impressionRowsAdded} impressions added in the database (${check.summaryImpressionsAdded} in the daily summaries): ${check.ok ? 'OK' : `MISMATCH ${JSON.stringify(check.missing)}`}`,
    );
    for (const [index, errors] of result.serverErrors.entries()) {
      if (errors.count > 0) log(`  instance ${index + 1}: ${errors.count} errors logged; the first: ${errors.first}`);
    }
  } finally {
    await dropDatabase?.();
  }
  log(`  load average: ${loadAverage()}`);
}
if (redis && !redisUnreachable) {
  const namespaces = Object.values(results).flatMap((result) => result?.redisNamespaces ?? []);
  let deleted = 0;
  for (const namespace of namespaces) deleted += await deleteNamespace(redis, namespace);
  if (namespaces.length > 0) log(`Redis: the run's ${deleted} keys deleted (namespace ${namespaces.join(', ')})`);
}
redis?.disconnect();

log('');
log(
  `publisher script: ${script.length} bytes, ${scriptGzip} bytes gzipped; its extras, loaded where needed: ${extrasGzip} bytes gzipped`,
);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
log(
  `web app: first visit ${kb(webBundle.initial.gzipBytes)} gzipped in ${webBundle.initial.files} files (${kb(webBundle.initial.bytes)}), whole build ${kb(webBundle.total.gzipBytes)} gzipped in ${webBundle.total.files} files, largest ${webBundle.largest.file} ${kb(webBundle.largest.gzipBytes)} gzipped`,
);
const verdicts = judgeTargets(Object.fromEntries(configs.map((name) => [name, results[name]])));
log(`targets: ${verdicts.map(verdictText).join('; ')}`);
const countsOk = Object.values(results).every((result) => !result || result.countCheck.ok);
log(`load average at end: ${loadAverage()}`);
console.log(
  JSON.stringify({
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version },
    withoutStorage,
    withoutEngine,
    configurations: results,
    skipped,
    targets: verdicts,
    scriptBytes: script.length,
    scriptGzipBytes: scriptGzip,
    scriptExtrasGzipBytes: extrasGzip,
    webBundle,
  }),
);
process.exitCode = countsOk ? 0 : 1;
