import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** The wait before replacing a worker that served; the first wait after one that failed to start (restartDelayMs). */
const RESTART_DELAY_MS = 1_000;
/** The longest wait before starting again a worker that keeps failing to start (the database away, say). */
export const MAX_RESTART_DELAY_MS = 30_000;

/**
 * How long to wait before replacing a worker, by how many in a row died before they listened: 1 s after one that
 * served, then twice as long after each failed start, up to 30 s, so that a database away for a while does not
 * fill the log with a failed start every second.
 */
export function restartDelayMs(failedStartsInARow: number): number {
  return Math.min(RESTART_DELAY_MS * 2 ** Math.max(0, failedStartsInARow - 1), MAX_RESTART_DELAY_MS);
}

/**
 * WORKERS=N on one machine: this process (the primary) prepares the database once, then runs N API processes that
 * share its port (Node's cluster: the primary accepts connections and hands them round-robin to the workers).
 * A worker that dies (a crash, SIGKILL, out of memory) is replaced; SIGTERM or SIGINT stops them all gracefully
 * (each writes its queued counts) and then the primary.
 */
export function superviseWorkers(count: number, log: Logger): void {
  let stopping = false;
  const start = (failedStartsInARow = 0) => {
    const worker = cluster.fork();
    let listened = false;
    worker.once('listening', () => (listened = true));
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      const failedStarts = listened ? 0 : failedStartsInARow + 1;
      const delayMs = restartDelayMs(failedStarts);
      log.warn(
        { worker: worker.process.pid, code, signal, failedStartsInARow: failedStarts, restartInMs: delayMs },
        listened
          ? 'an API process stopped: starting another in its place'
          : 'an API process stopped before it could serve: starting another later',
      );
      // Not unref'd: with every worker dead at once, this timer is what keeps the primary alive to replace them.
      setTimeout(() => start(failedStarts), delayMs);
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
