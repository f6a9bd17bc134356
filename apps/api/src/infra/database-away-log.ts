import { isDatabaseUnreachable } from '@helium/db';

/**
 * While the database cannot be reached, every batch of events and every timed job's claim fails: each topic says so
 * once a minute instead of hundreds of times. Any other error is always logged.
 */
export class DatabaseAwayLog {
  private readonly loggedAt = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly everyMs = 60_000,
  ) {}

  /** Whether `error`, met under `topic`, is to be logged now. */
  shouldLog(error: unknown, topic: string): boolean {
    if (!isDatabaseUnreachable(error)) return true;
    const now = this.now();
    if (now - (this.loggedAt.get(topic) ?? -Infinity) < this.everyMs) return false;
    this.loggedAt.set(topic, now);
    return true;
  }
}
