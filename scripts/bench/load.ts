/**
 * The benchmark's load generator, run as a child process (its own CPU core) by scripts/bench/main.ts and
 * driven over IPC: one phase at a time, on loopback only, with keep-alive connections. Closed loop (n
 * connections, each sends its next request when the previous one is answered) or open loop at a fixed rate
 * (latency measured from when each request was due, so a slow server cannot hide its queue). With several
 * instances, requests go to each in turn, as a round-robin load balancer sends them: a pageview's decision and
 * its view may reach different instances.
 */
import net from 'node:net';
import { MIN_VIEW_MS } from '@helium/domain';

export type PhaseKind = 'bare' | 'decision' | 'view' | 'mixed';

export interface PhaseSpec {
  kind: PhaseKind;
  /** Closed loop with this many connections, or open loop at this many requests per second. */
  connections: number;
  rate?: number;
  durationMs: number;
  /** The instances' base URLs (one or more), and their bare routes'. */
  apiUrls: string[];
  bareUrls: string[];
  /** Diagnosis: each view goes to the instance that answered its decision (a balancer with sticky sessions). */
  sticky?: boolean;
  publisherId: number;
}

export interface PhaseResult {
  kind: PhaseKind;
  mode: string;
  requests: number;
  elapsedMs: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Pageview phases: the decisions' and the view beacons' latencies apart (p50, p99). */
  byEndpoint?: { decision: { p50: number; p99: number }; view: { p50: number; p99: number } };
  /** The load generator's own CPU time during the phase, as a share of one core. */
  loaderCpu: number;
  /** The load generator's CPU time during the phase, microseconds. */
  loaderCpuUs: number;
  errors: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** View beacons by x-helium-counted answer (counted, invalid, ignored). */
  views: Record<string, number>;
  /** View beacons answered 2xx. */
  views2xx: number;
  /** Decisions answered 200. */
  decisions200: number;
  /** Requests answered by each instance, in the order of `apiUrls` (or `bareUrls`). */
  perInstance: number[];
  decisionsWithAds: number;
  tokensLeft: number;
  /** The decision ids of the view beacons answered `counted` (the count check names those it cannot find). */
  countedDecisions: string[];
}

const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/**
 * View tokens from decisions, oldest first, each to be sent once (a second beacon for a decision counts
 * nothing), with when their decision was answered: a view beacon comes at the earliest MIN_VIEW_MS after it, as
 * the script sends it once the ad has been in view for a second (earlier ones are set aside as invalid).
 */
const tokens: Array<{ token: string; answeredAt: number; instance: number }> = [];
/** How long after its decision a view is sent: the image's second in view, and a little (no ad here is a video). */
const VIEW_AFTER_MS = MIN_VIEW_MS.image + 50;
/** The oldest token whose view may be sent now, if any. */
const matureToken = () => {
  const oldest = tokens[0];
  if (!oldest || performance.now() - oldest.answeredAt < VIEW_AFTER_MS) return null;
  tokens.shift();
  return oldest;
};
let visitor = 0;

/** A distinct public-looking visitor address per pageview (X-Forwarded-For, trusted from loopback). */
function nextIp(): string {
  visitor++;
  return `11.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
}

function percentile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

interface Answer {
  /** Which instance answered (its index in the URLs given). */
  instance?: number;
  status: number;
  counted: string;
  body: string;
}

/**
 * One keep-alive HTTP/1.1 connection with the least work on this side: requests are written as prepared text
 * and answers read by their Content-Length, one at a time. Node's http client costs the load generator more CPU
 * a request than the bare route costs the server, so with it the bare phase measured the load generator.
 */
class Connection {
  private readonly socket: net.Socket;
  private buffered: Buffer | null = null;
  private waiting: { resolve: (answer: Answer) => void; reject: (error: Error) => void } | null = null;
  broken = false;

  constructor(url: URL) {
    this.socket = net.connect(Number(url.port), url.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.received(chunk));
    const fail = (error?: Error) => {
      this.broken = true;
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.reject(error ?? new Error('connection closed'));
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail());
  }

  request(text: string): Promise<Answer> {
    if (this.broken || this.waiting) return Promise.reject(new Error('connection not ready'));
    return new Promise<Answer>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(text, 'latin1');
    });
  }

  private received(chunk: Buffer) {
    const data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    const headEnd = data.indexOf('\r\n\r\n');
    if (headEnd < 0) {
      this.buffered = data;
      return;
    }
    const head = data.toString('latin1', 0, headEnd);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length && status !== 204 && status !== 304) {
      // Chunked answers are not expected from these routes: an error the phase reports, not a wrong count.
      this.broken = true;
      this.socket.destroy();
      this.waiting?.reject(new Error(`answer without Content-Length: ${head.split('\r\n')[0]}`));
      this.waiting = null;
      return;
    }
    const bodyEnd = headEnd + 4 + (length ? Number(length[1]) : 0);
    if (data.length < bodyEnd) {
      this.buffered = data;
      return;
    }
    this.buffered = data.length > bodyEnd ? data.subarray(bodyEnd) : null;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({
      status,
      counted: /\r\nx-helium-counted: *([^\r]*)/i.exec(head)?.[1] ?? '',
      body: data.toString('utf8', headEnd + 4, bodyEnd),
    });
  }

  close() {
    this.socket.destroy();
  }
}

/**
 * Keep-alive connections to one or more instances, reused; at most `size` at once to each, later requests wait
 * for one. Each request goes to the next instance in turn (round robin).
 */
class Balancer {
  private readonly pools: Pool[];
  private turn = 0;
  readonly answered: number[];

  constructor(urls: URL[], size: number) {
    this.pools = urls.map((url) => new Pool(url, Math.max(1, Math.ceil(size / urls.length))));
    this.answered = urls.map(() => 0);
  }

  /**
   * The request's text is made for the instance it goes to (by its index: its Host header): the next in turn, or
   * the one asked for.
   */
  async send(text: (instance: number) => string, instance?: number): Promise<Answer> {
    let index = instance ?? this.turn;
    if (instance === undefined) this.turn = (this.turn + 1) % this.pools.length;
    else index = instance % this.pools.length;
    const answer = await this.pools[index]!.send(text(index));
    this.answered[index]!++;
    return { ...answer, instance: index };
  }

  close() {
    for (const pool of this.pools) pool.close();
  }
}

/** Keep-alive connections to one server, reused; at most `size` at once, later requests wait for one. */
class Pool {
  private readonly idle: Connection[] = [];
  private readonly all: Connection[] = [];
  private readonly queue: Array<() => void> = [];
  private open = 0;

  constructor(
    private readonly url: URL,
    private readonly size: number,
  ) {}

  private async acquire(): Promise<Connection> {
    for (;;) {
      const connection = this.idle.pop();
      if (connection && !connection.broken) return connection;
      if (connection) {
        this.open--; // broken: dropped, and its place freed
      } else if (this.open < this.size) {
        this.open++;
        const fresh = new Connection(this.url);
        this.all.push(fresh);
        return fresh;
      } else {
        await new Promise<void>((resolve) => this.queue.push(resolve));
      }
    }
  }

  async send(text: string): Promise<Answer> {
    const connection = await this.acquire();
    try {
      return await connection.request(text);
    } finally {
      this.idle.push(connection);
      this.queue.shift()?.();
    }
  }

  close() {
    for (const connection of this.all) connection.close();
  }
}

/** A request's text: the request line, the headers, and the body (Content-Length added when there is one). */
function requestText(method: string, url: URL, headers: Record<string, string>, body?: string): string {
  let text = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
  if (body === undefined) return `${text}\r\n`;
  return `${text}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

export async function runPhase(spec: PhaseSpec): Promise<PhaseResult> {
  const apiConnections = new Balancer(
    spec.apiUrls.map((url) => new URL(url)),
    spec.connections,
  );
  const decisionPath = `/serve/d?p=${spec.publisherId}&w=1280&u=${encodeURIComponent('http://localhost/bench/article')}`;
  const decisionUrls = spec.apiUrls.map((api) => new URL(decisionPath, api));
  const viewUrls = spec.apiUrls.map((api) => new URL('/serve/v', api));
  const latencies: number[] = [];
  const decisionLatencies: number[] = [];
  const viewLatencies: number[] = [];
  const statuses: Record<string, number> = {};
  const views: Record<string, number> = {};
  let errors = 0;
  let decisionsWithAds = 0;
  let views2xx = 0;
  let decisions200 = 0;
  const countedDecisions: string[] = [];

  const timed = async (due: number, call: () => Promise<Answer>, endpoint?: number[]) => {
    try {
      const answer = await call();
      const latency = performance.now() - due;
      latencies.push(latency);
      endpoint?.push(latency);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      return answer;
    } catch {
      errors++;
      return null;
    }
  };
  const decision = async (due: number) => {
    const answer = await timed(
      due,
      () =>
        apiConnections.send((instance) =>
          requestText('GET', decisionUrls[instance]!, {
            'user-agent': USER_AGENT,
            origin: 'http://localhost',
            accept: '*/*',
            'x-forwarded-for': nextIp(),
          }),
        ),
      decisionLatencies,
    );
    if (!answer || answer.status !== 200) return null;
    decisions200++;
    const ads = (JSON.parse(answer.body) as { ads: Array<{ view: string }> }).ads;
    if (ads.length > 0) decisionsWithAds++;
    const token = ads[0]?.view;
    if (token) tokens.push({ token, answeredAt: performance.now(), instance: answer.instance ?? 0 });
    return token ?? null;
  };
  const view = async (due: number, { token, instance: decidedBy }: { token: string; instance: number }) => {
    const answer = await timed(
      due,
      () =>
        apiConnections.send(
          (instance) =>
            requestText(
              'POST',
              viewUrls[instance]!,
              {
                'user-agent': USER_AGENT,
                origin: 'http://localhost',
                'content-type': 'text/plain;charset=UTF-8',
                'x-forwarded-for': nextIp(),
              },
              token,
            ),
          spec.sticky ? decidedBy : undefined,
        ),
      viewLatencies,
    );
    if (!answer) return;
    views[answer.counted || 'none'] = (views[answer.counted || 'none'] ?? 0) + 1;
    // The token's signed part names the decision: kind|decision id|... (apps/api/src/delivery/tokens.ts).
    if (answer.counted === 'counted')
      countedDecisions.push(
        Buffer.from(token.split('.')[0] ?? '', 'base64url')
          .toString()
          .split('|')[1] ?? '',
      );
    if (answer.status >= 200 && answer.status < 300) views2xx++;
  };
  const bareConnections = new Balancer(
    spec.bareUrls.map((url) => new URL(url)),
    spec.connections,
  );
  const bareRequests = spec.bareUrls.map((url) => requestText('GET', new URL(url), { accept: '*/*' }));
  const bare = (due: number) => timed(due, () => bareConnections.send((instance) => bareRequests[instance]!));

  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const end = started + spec.durationMs;
  let stoppedAt = 0;
  if (spec.rate) {
    // Open loop: requests are due at a fixed rate whatever the answers; a mixed pageview is a decision,
    // then its view beacon VIEW_AFTER_MS after it is answered, so decisions are due at half the rate (the first
    // second has no views yet, and the views of the last second's decisions come after the phase's end).
    const perMs = spec.rate / 1000;
    const kind = spec.kind;
    const pending = new Set<Promise<unknown>>();
    const duePerMs = kind === 'mixed' ? perMs / 2 : perMs;
    const total = Math.round(spec.durationMs * duePerMs);
    let sent = 0;
    while (performance.now() < end) {
      const now = performance.now();
      // Request k is due at started + k / rate: the first at once, and each as soon as it is due (counting
      // only those whose interval was over sent each one an interval late, 2 ms for a pageview at 1,000/s).
      const target = Math.min(total, Math.floor((now - started) * duePerMs) + 1);
      while (sent < target) {
        const due = started + sent / duePerMs;
        sent++;
        let work: Promise<unknown>;
        if (kind === 'bare') work = bare(due);
        else if (kind === 'decision') work = decision(due);
        else if (kind === 'view') {
          const token = matureToken();
          work = token ? view(due, token) : Promise.resolve();
        } else {
          work = decision(due).then(async (token) => {
            if (!token) return;
            const viewDue = performance.now() + VIEW_AFTER_MS;
            await new Promise((resolve) => setTimeout(resolve, VIEW_AFTER_MS));
            // Sent once due, whichever token is the oldest: each decision's view is sent once.
            const mature = matureToken();
            if (mature) await view(viewDue, mature);
          });
        }
        pending.add(work);
        void work.finally(() => pending.delete(work));
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // Until the last request is answered (a pageview's view comes a second after the last decision).
    await Promise.all(pending);
    stoppedAt = performance.now();
  } else {
    const worker = async () => {
      while (performance.now() < end) {
        if (spec.kind === 'bare') await bare(performance.now());
        else if (spec.kind === 'decision') await decision(performance.now());
        else if (spec.kind === 'view') {
          const token = matureToken();
          if (!token) break;
          await view(performance.now(), token);
        } else {
          // A pageview: a decision, and the view of an earlier decision once its second in view is over (in the
          // first second of a phase that follows no decisions, only decisions).
          await decision(performance.now());
          const token = matureToken();
          if (token) await view(performance.now(), token);
        }
      }
    };
    await Promise.all(Array.from({ length: spec.connections }, worker));
    stoppedAt = performance.now();
  }
  apiConnections.close();
  bareConnections.close();
  const elapsedMs = stoppedAt - started;
  const cpu = process.cpuUsage(cpuAtStart);
  const sorted = Float64Array.from(latencies).sort();
  const round = (value: number) => Math.round(value * 100) / 100;
  const summary = (list: number[]) => {
    const ordered = Float64Array.from(list).sort();
    return { p50: round(percentile(ordered, 0.5)), p99: round(percentile(ordered, 0.99)) };
  };
  return {
    kind: spec.kind,
    mode: spec.rate ? `${spec.rate} req/s` : `${spec.connections} connections`,
    requests: latencies.length,
    elapsedMs: Math.round(elapsedMs),
    rps: Math.round((latencies.length / elapsedMs) * 1000),
    p50: round(percentile(sorted, 0.5)),
    p90: round(percentile(sorted, 0.9)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? 0),
    ...(spec.kind === 'mixed'
      ? { byEndpoint: { decision: summary(decisionLatencies), view: summary(viewLatencies) } }
      : {}),
    countedDecisions,
    loaderCpu: round((cpu.user + cpu.system) / 1000 / elapsedMs),
    loaderCpuUs: cpu.user + cpu.system,
    errors,
    statuses,
    views,
    views2xx,
    decisions200,
    perInstance: spec.kind === 'bare' ? bareConnections.answered : apiConnections.answered,
    decisionsWithAds,
    tokensLeft: tokens.length,
  };
}

// As a child process: run the phases the parent asks for.
if (process.send) {
  process.on('message', (message: { id: number; spec: PhaseSpec }) => {
    void runPhase(message.spec).then(
      (result) => process.send?.({ id: message.id, result }),
      (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
    );
  });
  process.send({ ready: true });
}
