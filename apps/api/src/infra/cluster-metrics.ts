import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Metrics } from './metrics.ts';

/** A worker asks its primary for every worker's metrics; the primary answers with the exposition, or an error. */
const ASK = 'helium:metrics-ask';
const ANSWER = 'helium:metrics-answer';
/** prom-client's primary gives up on workers after 5 s; the asking worker waits a little longer than that. */
const ANSWER_TIMEOUT_MS = 6_000;

type Ask = { type: typeof ASK; id: number };
type Answer = { type: typeof ANSWER; id: number; text?: string; error?: string };

const isAsk = (message: unknown): message is Ask => (message as Ask | null)?.type === ASK;
const isAnswer = (message: unknown): message is Answer => (message as Answer | null)?.type === ANSWER;

/**
 * WORKERS=N: the primary, which serves no request, gathers every worker's metrics when one of them is scraped
 * (prom-client's AggregatorRegistry sums counters and histograms across workers).
 */
export function gatherWorkersMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isAsk(message)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message } satisfies Answer),
    );
  });
}

/**
 * In a worker: GET /metrics answers every worker's figures, asked of the primary, which reads this worker's
 * registries as it reads the others'.
 */
export function answerForAllWorkers(metrics: Metrics): void {
  // Its constructor makes this worker answer the primary's requests, with these registries.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries(metrics.registries());
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (!isAnswer(message)) return;
    const asked = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) asked?.reject(new Error(`metrics of the workers: ${message.error}`));
    else asked?.resolve(message.text ?? '');
  });
  metrics.answerFrom(
    () =>
      new Promise<string>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('metrics of the workers: the primary process did not answer'));
        }, ANSWER_TIMEOUT_MS);
        waiting.set(id, {
          resolve: (text) => (clearTimeout(timer), resolve(text)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        });
        process.send?.({ type: ASK, id } satisfies Ask);
      }),
  );
}
