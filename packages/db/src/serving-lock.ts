import type pg from 'pg';

/** The session advisory lock that holdExclusive takes (any fixed number; advisory locks are per database). */
const SERVING_LOCK_KEY = '4841494c49554d31';
/** How often the connection holding the lock is used, to notice that it was lost. */
const LOCK_CHECK_MS = 10_000;
/** How often a lost lock is tried again while the database does not answer. */
const RETAKE_MS = 1_000;

export class DatabaseInUseError extends Error {
  constructor() {
    super(
      'Another Helium Ads server already serves this database (DATABASE_URL). Two would both spend the same ' +
        "campaigns' credits, each counting them in its own memory: stop the other one first.",
    );
    this.name = 'DatabaseInUseError';
  }
}

export interface ServingLockEvents {
  /** The connection holding the lock ended (PostgreSQL restarted, a network cut): it is being taken again. */
  onLost?: (error: Error) => void;
  /** Found taken by another server after a loss: this one must stop. */
  onFailure?: (error: Error) => void;
}

/**
 * One server per PostgreSQL database: a session advisory lock on a connection of its own, released when the
 * connection ends (a killed process included). A lost lock is taken again as soon as the database answers; if
 * another server took it meanwhile, this one is told to stop.
 */
export class ServingLock {
  private holder: pg.PoolClient | null = null;
  private check: NodeJS.Timeout | null = null;
  private closing = false;
  /** Taken again after a loss: what the server counts in memory is to be read again from the database. */
  private onRegained: (() => void) | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly events: ServingLockEvents,
  ) {}

  /** Takes the lock, waiting up to `waitMs` for another server to stop, or throws DatabaseInUseError. */
  async take(waitMs: number, onRegained?: () => void): Promise<void> {
    this.onRegained = onRegained ?? this.onRegained;
    const deadline = Date.now() + waitMs;
    const client = await this.pool.connect();
    try {
      for (;;) {
        const { rows } = await client.query<{ held: boolean }>(
          `select pg_try_advisory_lock(x'${SERVING_LOCK_KEY}'::bigint) as held`,
        );
        if (rows[0]?.held) break;
        if (Date.now() >= deadline) throw new DatabaseInUseError();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      if (this.closing) throw new Error('The database was closed while waiting for its lock');
    } catch (error) {
      client.release(true);
      throw error;
    }
    this.hold(client);
  }

  close(): void {
    this.closing = true;
    this.release();
  }

  private hold(client: pg.PoolClient) {
    this.holder = client;
    const lost = (error?: Error) => {
      if (this.holder !== client || this.closing) return;
      this.release();
      this.events.onLost?.(error ?? new Error('The connection holding the database lock ended'));
      void this.retake();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    // A silent drop (an idle connection cut by a firewall or a failover) is noticed by using the connection;
    // it also keeps an idle_session_timeout from ending the session.
    this.check = setInterval(() => {
      client.query('select 1').catch((error: Error) => lost(error));
    }, LOCK_CHECK_MS);
    this.check.unref();
  }

  private async retake() {
    while (!this.closing) {
      try {
        await this.take(0);
        this.onRegained?.();
        return;
      } catch (error) {
        if (error instanceof DatabaseInUseError) return this.events.onFailure?.(error);
        await new Promise((resolve) => setTimeout(resolve, RETAKE_MS));
      }
    }
  }

  private release() {
    if (this.check) clearInterval(this.check);
    this.check = null;
    this.holder?.release(true);
    this.holder = null;
  }
}
