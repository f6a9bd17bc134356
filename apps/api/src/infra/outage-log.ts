import { isDatabaseUnreachable } from '@helium/db';

/**
 * While the database (or Redis) cannot be reached, every batch of events, every timed job's claim and every request
 * that needs it fails: each topic says so once a minute instead of hundreds of times. Any other error is always
 * logged.
 */
export class OutageLog {
  private readonly loggedAt = new Map<string, number>();
  private readonly isOutage: (error: unknown) => boolean;
  private readonly now: () => number;

  constructor(options: { isOutage?: (error: unknown) => boolean; now?: () => number } = {}) {
    this.isOutage = options.isOutage ?? isDatabaseUnreachable;
    this.now = options.now ?? Date.now;
  }

  /** Whether `error`, met under `topic`, is to be logged now. */
  shouldLog(error: unknown, topic: string): boolean {
    if (!this.isOutage(error)) return true;
    const now = this.now();
    if (now - (this.loggedAt.get(topic) ?? -Infinity) < OUTAGE_LOG_MS) return false;
    this.loggedAt.set(topic, now);
    return true;
  }
}

/** How often an outage is said again under one topic. */
const OUTAGE_LOG_MS = 60_000;
