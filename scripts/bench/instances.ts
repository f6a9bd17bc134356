/**
 * The benchmark's child processes, driven over IPC: the product's instances (scripts/bench/server.ts) and the
 * load generator (scripts/bench/load.ts); and the services' CPU (PostgreSQL's backends of the throw-away
 * database, Redis) read around each phase.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { processCpuUs } from './cpu.ts';
import type { PhaseResult, PhaseSpec } from './load.ts';
import type { ServerCommand, ServerReady, ServerSpec } from './server.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** A child process that answers `{ id, ... }` messages with `{ id, result }` or `{ id, error }`. */
class Child {
  private nextId = 0;

  constructor(readonly process: ChildProcess) {}

  static async start<Ready>(script: string, args: string[], execArgv: string[] = []) {
    const child = fork(join(HERE, script), args, {
      execArgv: ['--import', 'tsx', ...execArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Ready));
      child.once('exit', (code) => reject(new Error(`${script} stopped before it was ready (exit code ${code})`)));
    });
    child.removeAllListeners('exit');
    return { child: new Child(child), ready };
  }

  call<Result>(message: Record<string, unknown>): Promise<Result> {
    const id = ++this.nextId;
    return new Promise<Result>((resolve, reject) => {
      // A child that stops (a crash, out of memory) fails the call instead of leaving the run waiting for ever.
      const exited = (code: number | null) => {
        this.process.off('message', listener);
        reject(
          new Error(`a benchmark process stopped (exit code ${code}) during ${JSON.stringify(message).slice(0, 80)}`),
        );
      };
      const listener = (answer: { id?: number; result?: Result; error?: string }) => {
        if (answer.id !== id) return;
        this.process.off('message', listener);
        this.process.off('exit', exited);
        if (answer.error !== undefined) reject(new Error(answer.error));
        else resolve(answer.result as Result);
      };
      this.process.on('message', listener);
      this.process.once('exit', exited);
      this.process.send({ id, ...message });
    });
  }
}

/** One instance of the product in its own process. */
export class Instance {
  private constructor(
    private readonly child: Child,
    readonly ready: ServerReady,
  ) {}

  /** With `profileDir`, it writes a CPU profile of its whole life there when it stops (node --cpu-prof). */
  static async start(spec: ServerSpec, profileDir?: string): Promise<Instance> {
    const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const { child, ready } = await Child.start<ServerReady>('server.ts', [JSON.stringify(spec)], execArgv);
    return new Instance(child, ready);
  }

  get pid(): number {
    return this.child.process.pid ?? 0;
  }

  command<Result>(command: ServerCommand, argument?: unknown): Promise<Result> {
    return this.child.call<Result>({ command, argument });
  }

  /** Writes what it still holds and closes, as `npm start` does on SIGTERM; killed if it has not exited in 10 s. */
  async close(): Promise<void> {
    const child = this.child.process;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.command('close').catch(() => child.kill('SIGKILL'));
    await exited;
    clearTimeout(timer);
  }
}

/** The load generator in its own process (its own core when one is free). */
export class LoadGenerator {
  private constructor(private readonly child: Child) {}

  static async start(): Promise<LoadGenerator> {
    return new LoadGenerator((await Child.start('load.ts', [])).child);
  }

  phase(spec: PhaseSpec): Promise<PhaseResult> {
    return this.child.call<PhaseResult>({ spec });
  }

  stop() {
    this.child.process.kill();
  }
}

/** The CPU time of PostgreSQL's backends serving one database (all its connections), read from /proc. */
export class DatabaseBackends {
  private constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<DatabaseBackends> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new DatabaseBackends(client);
  }

  /** CPU microseconds by backend pid (this reader's own backend aside); empty if /proc cannot be read. */
  async sample(): Promise<Map<number, number>> {
    const { rows } = await this.client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const times = new Map<number, number>();
    for (const { pid } of rows) {
      const us = processCpuUs(pid);
      if (us !== null) times.set(pid, us);
    }
    return times;
  }

  close() {
    return this.client.end();
  }
}

/** CPU spent between two samples by pid: a backend started in between counts from zero (its start included). */
export function cpuBetween(start: Map<number, number>, end: Map<number, number>): number | null {
  if (end.size === 0) return null;
  let total = 0;
  for (const [pid, us] of end) total += us - (start.get(pid) ?? 0);
  return total;
}

/** The whole Redis server's CPU time (INFO cpu), in microseconds: other clients' work on it included. */
export async function redisCpuUs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return Math.round((field('used_cpu_sys') + field('used_cpu_user')) * 1_000_000);
}

/** A Redis connection that fails at once when Redis is away (for the reachability check and the CPU). */
export function openRedis(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
}

/** Deletes a namespace's keys (the run's shared state), so that the run leaves nothing in Redis. */
export async function deleteNamespace(redis: Redis, namespace: string): Promise<number> {
  let deleted = 0;
  for await (const keys of redis.scanStream({ match: `hd:${namespace}:*`, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) deleted += await redis.del(...keys);
  }
  return deleted;
}
