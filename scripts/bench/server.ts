/**
 * One instance of the product for the benchmark, run as a child process by scripts/bench/main.ts: the real API
 * (buildApp, as `npm start` builds it) on PGlite in a folder or on a PostgreSQL database, with Redis when given
 * (the shared state of several instances), and a bare Fastify route beside it. Driven over IPC: it reports its
 * own CPU time (all its threads, from /proc), its group-commit batches, and for the count check what its
 * database holds. Its log goes to a file: its lines would mix with the benchmark's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import pino from 'pino';
import {
  adImpressions,
  campaigns,
  dailyPublisherStats,
  migrateDatabase,
  openDatabase,
  publishers,
  seedDemoData,
} from '@helium/db';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { networkNamespace } from '../../apps/api/src/features/delivery/shared/keys.ts';
import { createMailer } from '../../apps/api/src/infra/mailer.ts';
import { threadCpuUs } from './cpu.ts';

export interface ServerSpec {
  /** A folder of its own (its log, outbox; the PGlite database in `db` when there is no `databaseUrl`). */
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Migrate and seed the database first (the first instance), campaigns given credits for the whole run. */
  prepare: boolean;
  logLevel: string;
  /** Diagnosis only: events are dropped instead of written (the count check cannot pass). */
  withoutStorage: boolean;
  /** Diagnosis only: every decision answered with the first one's ads, every view "counted", nothing done. */
  withoutEngine: boolean;
}

export interface ServerReady {
  ready: true;
  apiPort: number;
  barePort: number;
  publisherId: number;
  databaseKind: string;
  /** The key namespace of its shared state in Redis (deleted after the run), if it has Redis. */
  redisNamespace: string | null;
}

/** Cumulative figures since start; the benchmark takes differences around each phase. */
export interface ServerSample {
  cpuUs: number;
  /** CPU by thread (null off Linux): the HTTP server's, PGlite's database thread (null on PostgreSQL), the rest. */
  threads: { server: number; database: number | null; others: number } | null;
  batches: number;
  events: number;
}

export type ServerCommand = 'sample' | 'flush' | 'impressions' | 'storedDecisions' | 'serverErrors' | 'close';

const spec = JSON.parse(process.argv[2] ?? '{}') as ServerSpec;
const serverLog = join(spec.dataDir, 'server.log');
const logger = pino({ level: spec.logLevel }, pino.destination({ dest: serverLog, sync: true }));
const database = await openDatabase(
  spec.databaseUrl ? { url: spec.databaseUrl } : { pgliteDir: join(spec.dataDir, 'db') },
);
if (spec.prepare) {
  await migrateDatabase(database);
  await seedDemoData(database.db);
  // Credits enough for the whole run: the benchmark measures serving, not campaigns running out.
  await database.db.update(campaigns).set({ remainingImpressions: 100_000_000, remainingClicks: 1_000_000 });
}
const config = loadConfig({
  ...process.env,
  DATA_DIR: spec.dataDir,
  DATABASE_URL: spec.databaseUrl ?? '',
  REDIS_URL: spec.redisUrl ?? '',
  WORKERS: '1',
  PORT: '0',
  // Every instance signs and verifies with the same secret: a decision's view may reach another instance.
  SESSION_SECRET: 'bench-secret-'.padEnd(48, 'x'),
  TRUST_PROXY: 'loopback',
});
const mailer = createMailer({
  smtpUrl: undefined,
  from: config.mailFrom,
  outboxDir: join(spec.dataDir, 'outbox'),
  log: logger,
});
const app = await buildApp({ config, database, mailer, loggerInstance: logger });
await app.listen({ port: 0, host: '127.0.0.1' });
await app.delivery.refresh();
if (spec.withoutStorage) {
  Object.assign(app.delivery.recorder as unknown as { write: () => Promise<void> }, { write: async () => {} });
}
if (spec.withoutEngine) {
  const engine = app.delivery;
  const decide = engine.decide.bind(engine);
  let firstAnswer: Awaited<ReturnType<typeof decide>> | null = null;
  Object.assign(engine, {
    decide: async (input: Parameters<typeof decide>[0]) => (firstAnswer ??= await decide(input)),
    view: async () => 'counted',
  });
}
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const [blog] = await database.db.select().from(publishers).where(eq(publishers.brand, 'Demo Blog'));
if (!blog) throw new Error('Demo Blog missing from the seed');

function sample(): ServerSample {
  const cpu = process.cpuUsage();
  const times = threadCpuUs();
  const databaseThread = database.databaseOsThreadId ?? null;
  let others = 0;
  for (const [thread, us] of times) if (thread !== process.pid && thread !== databaseThread) others += us;
  return {
    cpuUs: cpu.user + cpu.system,
    threads:
      times.size === 0
        ? null
        : {
            server: times.get(process.pid) ?? 0,
            database: databaseThread === null ? null : (times.get(databaseThread) ?? 0),
            others,
          },
    batches: app.delivery.recorder.batches,
    events: app.delivery.recorder.eventsWritten,
  };
}

/**
 * Impression rows, and the impressions in the publishers' daily summaries, all days (a run may cross midnight UTC:
 * its views then go to two days' rows).
 */
async function impressions() {
  const [rows] = await database.db.select({ total: count() }).from(adImpressions);
  const [daily] = await database.db
    .select({ total: sql<number>`coalesce(sum(${dailyPublisherStats.impressions}), 0)::int` })
    .from(dailyPublisherStats);
  return { rows: Number(rows?.total ?? 0), summarised: Number(daily?.total ?? 0) };
}

/** Of these counted decisions, the ones without an impression row: with their decision record and set-asides. */
async function storedDecisions(ids: string[]) {
  const stored = new Set(
    (await database.db.select({ id: adImpressions.decisionId }).from(adImpressions)).map((row) => row.id),
  );
  const missing = ids.filter((id) => !stored.has(id));
  const details = [];
  for (const id of missing.slice(0, 5)) {
    const { rows } = (await database.db.execute(sql`select
        (select count(*)::int from ad_decisions where id = ${id}) as decisions,
        (select count(*)::int from invalid_traffic where decision_id = ${id}) as "setAside"`)) as unknown as {
      rows: Array<Record<string, number>>;
    };
    details.push({ id, ...rows[0] });
  }
  return { missing: missing.length, details };
}

/** The error lines of its log: a batch the database refused, say. */
function serverErrors() {
  const lines = readFileSync(serverLog, 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
  return { count: lines.length, first: lines[0]?.slice(0, 600) ?? null };
}

async function close() {
  await app.close();
  await bare.close();
  mailer.close();
  await database.close();
}

const commands: Record<ServerCommand, (argument: unknown) => unknown> = {
  sample,
  flush: () => app.delivery.recorder.flush(),
  impressions,
  storedDecisions: (ids) => storedDecisions(ids as string[]),
  serverErrors,
  close,
};
process.on('message', (message: { id: number; command: ServerCommand; argument?: unknown }) => {
  void (async () => commands[message.command](message.argument))().then(
    (result) => {
      process.send?.({ id: message.id, result: result ?? null });
      if (message.command === 'close') process.disconnect();
    },
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
const ready: ServerReady = {
  ready: true,
  apiPort: (app.server.address() as { port: number }).port,
  barePort: (bare.server.address() as { port: number }).port,
  publisherId: blog.id,
  databaseKind: database.kind,
  redisNamespace: app.ctx.redis ? await networkNamespace(database.db, config.sessionSecret!) : null,
};
process.send?.(ready);
