import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/** What PGlite answers to a statement (the part callers read). */
export interface ThreadedResults {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /**
   * Functions cannot cross to the thread. Drizzle's parsers (dates, timestamps, intervals and their arrays)
   * all return the text as received, so the thread is sent their type ids and does the same.
   */
  parsers?: Record<number, unknown>;
}

interface Call {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface WorkerError {
  message: string;
  name?: string;
  fields: Record<string, string>;
}

/** A PostgreSQL error from the worker, with its SQLSTATE `code`, `constraint`, ... as PGlite's own has. */
export class ThreadedDatabaseError extends Error {
  constructor(described: WorkerError) {
    super(described.message);
    this.name = described.name && described.name !== 'Error' ? described.name : 'DatabaseError';
    Object.assign(this, described.fields);
  }
}

/** A statement prepared once per database session under its name, then run with text parameters. */
export interface PreparedStatement {
  name: string;
  text: string;
  /** The parameters' type ids (114 for json, ...). */
  types: number[];
}

/** The statements a transaction's callback may run (what drizzle's PGlite session calls). */
export interface ThreadedTransaction {
  query<T = unknown>(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadedResults & { rows: T[] }>;
  exec(sql: string): Promise<ThreadedResults[]>;
}

/**
 * The embedded PGlite database run in a worker thread, with the part of PGlite's interface drizzle uses
 * (`query`, `exec`, `transaction`). PGlite executes SQL in WebAssembly on the thread that owns it: on the
 * HTTP server's thread every batch of counted events stopped the serving for its whole duration. In a
 * thread of its own the statements run on another core while the server goes on answering; the server's
 * thread only posts the statement and reads the answer.
 *
 * A transaction holds the database: statements sent outside it wait until it ends, as in PGlite itself.
 */
export class ThreadedPGlite {
  private readonly worker: Worker;
  private readonly calls = new Map<number, Call>();
  private nextId = 1;
  private transactionOpen: Promise<void> | null = null;
  private failure: Error | null = null;
  readonly waitReady: Promise<void>;
  /** The database thread's id in the operating system, where it tells (Linux), once ready. */
  osThreadId: number | null = null;

  /**
   * `onFailure` hears of the thread stopping or failing while open (not of `close`): every statement
   * after that is refused, so a server should stop rather than go on answering without its database.
   */
  constructor(
    options: {
      dataDir?: string;
      /** The files of a database to start from (`dumpDataDir`'s answer), rather than an empty one. */
      image?: Uint8Array;
      onFailure?: (error: Error) => void;
      /**
       * Tests only: how many bytes of protocol messages one call into PGlite may carry (default: its receive
       * buffer's 8,192). More lets PGlite drop messages, to test how a statement's outcome is made known.
       */
      bytesPerCall?: number;
    } = {},
  ) {
    this.worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir: options.dataDir, image: options.image, bytesPerCall: options.bytesPerCall },
      // The worker inherits no loader: it is plain JavaScript.
      execArgv: [],
    });
    let refuseReady: (error: Error) => void = () => {};
    this.waitReady = new Promise<void>((resolve, reject) => {
      refuseReady = reject;
      const onReady = (message: { ready?: boolean; error?: WorkerError; osThreadId?: number | null }) => {
        if (message.ready === undefined) return;
        this.worker.off('message', onReady);
        this.osThreadId = message.osThreadId ?? null;
        // From now on the thread keeps the process alive only while a statement is awaited (see `send`).
        if (this.calls.size === 0) this.worker.unref();
        if (message.ready) resolve();
        else reject(new ThreadedDatabaseError(message.error!));
      };
      this.worker.on('message', onReady);
    });
    this.worker.on('message', (message: { id?: number; result?: unknown; error?: WorkerError }) => {
      if (message.id === undefined) return;
      const call = this.calls.get(message.id);
      if (!call) return;
      this.calls.delete(message.id);
      if (this.calls.size === 0) this.worker.unref();
      if (message.error) call.reject(new ThreadedDatabaseError(message.error));
      else call.resolve(message.result);
    });
    const fail = (error: Error) => {
      this.failure = error;
      refuseReady(error);
      for (const call of this.calls.values()) call.reject(error);
      this.calls.clear();
      options.onFailure?.(error);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => {
      if (!this.failure) fail(new Error(`The database thread stopped (exit code ${code})`));
    });
    // A failed start is reported to whoever awaits waitReady, never as an unhandled rejection.
    this.waitReady.catch(() => {});
  }

  private send<T>(message: Record<string, unknown>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.calls.size === 0) this.worker.ref();
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private runQuery<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
    return this.send<ThreadedResults & { rows: T[] }>({
      op: 'query',
      sql,
      params,
      rowMode: options.rowMode,
      rawTypes: options.parsers ? Object.keys(options.parsers).map(Number) : undefined,
    });
  }

  /**
   * Runs `send` once no transaction is open, in the same turn as the check that none is: checked in one turn and
   * sent in a later one, a statement could follow the BEGIN of a transaction that started in between, run inside
   * it and be answered as done, then be undone by its ROLLBACK (a counted batch lost).
   */
  private async outsideTransactions<T>(send: () => Promise<T>): Promise<T> {
    while (this.transactionOpen) await this.transactionOpen;
    return send();
  }

  query<T = unknown>(sql: string, params?: unknown[], options?: QueryOptions) {
    return this.outsideTransactions(() => this.runQuery<T>(sql, params, options));
  }

  exec(sql: string): Promise<ThreadedResults[]> {
    return this.outsideTransactions(() => this.send<ThreadedResults[]>({ op: 'exec', sql }));
  }

  /**
   * Runs a prepared statement (prepared on its first use) in one call into PGlite, for a hot statement
   * (pglite-worker.mjs says what it saves); answers the first column of its first row as text, or null.
   */
  async executePrepared(statement: PreparedStatement, values: Array<string | null>): Promise<string | null> {
    return (await this.outsideTransactions(() =>
      this.send({ op: 'executePrepared', statement: { ...statement, values } }),
    )) as string | null;
  }

  async transaction<T>(callback: (transaction: ThreadedTransaction) => Promise<T>): Promise<T> {
    // Checked and taken in one turn: two transactions that waited for the same one must not both start.
    while (this.transactionOpen) await this.transactionOpen;
    let end!: () => void;
    this.transactionOpen = new Promise<void>((resolve) => (end = resolve));
    const transaction: ThreadedTransaction = {
      query: (sql, params, options) => this.runQuery(sql, params, options),
      exec: (sql) => this.send({ op: 'exec', sql }),
    };
    try {
      await this.send({ op: 'exec', sql: 'BEGIN' });
      try {
        const result = await callback(transaction);
        await this.send({ op: 'exec', sql: 'COMMIT' });
        return result;
      } catch (error) {
        await this.send({ op: 'exec', sql: 'ROLLBACK' }).catch(() => {});
        throw error;
      }
    } finally {
      this.transactionOpen = null;
      end();
    }
  }

  /** How busy the database thread has been (since `previous`, when given): for benchmarks and diagnosis. */
  eventLoopUtilization(previous?: EventLoopUtilization): EventLoopUtilization {
    return this.worker.performance.eventLoopUtilization(previous);
  }

  /** The database's files as one uncompressed tar archive: what `image` takes to start a copy. */
  dumpDataDir(): Promise<Uint8Array> {
    return this.outsideTransactions(() => this.send<Uint8Array>({ op: 'dump' }));
  }

  async close(): Promise<void> {
    if (this.failure) return;
    await this.outsideTransactions(() => this.send({ op: 'close' }));
    this.failure = new Error('The database is closed');
    await this.worker.terminate();
  }
}
