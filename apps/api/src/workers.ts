import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** A worker that dies this soon after starting, again and again, is not replaced in a loop faster than this. */
const RESTART_DELAY_MS = 1_000;

/**
 * WORKERS=N on one machine: this process (the primary) prepares the database once, then runs N API processes that
 * share its port (Node's cluster: the primary accepts connections and hands them round-robin to the workers).
 * A worker that dies (a crash, SIGKILL, out of memory) is replaced; SIGTERM or SIGINT stops them all gracefully
 * (each writes its queued counts) and then the primary.
 */
export function superviseWorkers(count: number, log: Logger): void {
  let stopping = false;
  const start = () => {
    const worker = cluster.fork();
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      log.warn({ worker: worker.process.pid, code, signal }, 'an API process stopped: starting another in its place');
      setTimeout(start, RESTART_DELAY_MS).unref();
    });
    return worker;
  };
  for (let index = 0; index < count; index += 1) start();
  log.info({ workers: count }, `running ${count} API processes`);
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping the API processes');
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker));
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const worker of workers) {
      worker.once('exit', () => {
        left -= 1;
        if (left === 0) {
          log.info({ signal }, 'stopped cleanly: every API process stopped');
          process.exit(0);
        }
      });
      worker.process.kill(signal);
    }
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** Whether this process is one of the API processes WORKERS started (it finds the database prepared). */
export const isWorker = () => cluster.isWorker;
