import type { Database } from '@helium/db';
import { DAY_MS, MINUTE_MS } from '@helium/domain';
import type { Clock } from '../../infra/clock.ts';
import { DAY_CLOSE_GRACE_MS } from '../revenue-ledger/daily-ledger.ts';
import { AddressTally, type AddressEvents } from './address-tally.ts';
import type { Awaitable } from './parts.ts';
import { setAsideTraffic, type ReversedEvent } from './event-reads.ts';
import type { GroupCommitRecorder } from './recorder.ts';
import type { AddressRule, AddressTrip } from './traffic-filter.ts';

/**
 * A day's set-aside starts no later than this before the daily revenue ledger may close the day (5 minutes after
 * its midnight, DAY_CLOSE_GRACE_MS), so that it has committed when the ledger reads the day's summaries.
 */
export const SET_ASIDE_MARGIN_MS = MINUTE_MS;

/**
 * A set-aside of what an address had counted on a publisher today (its rule tripped): written once, as a rare
 * statement of its own (set_aside_traffic, migration 0009) run between two batches.
 */
interface SetAside extends AddressEvents {
  reason: AddressRule;
  day: string;
  publisherId: number;
}

/** Whether the daily revenue ledger may be closing `day` now: a set-aside of it must not start then. */
function isClosing(day: string, nowMs: number): boolean {
  return nowMs >= Date.parse(`${day}T00:00:00Z`) + DAY_MS + DAY_CLOSE_GRACE_MS - SET_ASIDE_MARGIN_MS;
}

/** What each address counted today: this process's (AddressTally) or several instances' (SharedTally). */
export interface Tally {
  add(day: string, publisherId: number, ipHash: string, kind: 'impression' | 'click', id: string): Awaitable<void>;
  take(day: string, publisherId: number, ipHash: string): Awaitable<AddressEvents | null>;
}

/**
 * Setting an address's traffic aside after the fact: when a rule trips for an address on a publisher, what it had
 * counted there that UTC day (the tally) is set aside too. Each set-aside runs between two batches of the recorder
 * (GroupCommitRecorder.exclusive), queued behind every event recorded so far, so that each tallied event is
 * committed when it runs; one the database refuses is tried again at each sweep while its day is open.
 */
export class SetAsides {
  /** What each address counted today, to set aside when a rule trips for it. */
  readonly tally: Tally;
  /** Set-asides queued or being written. */
  private running = new Set<Promise<void>>();
  /** Set-asides the database refused or that could not be written: tried again at each sweep while their day is open. */
  private failed: SetAside[] = [];

  constructor(
    private readonly options: {
      db: Database;
      recorder: GroupCommitRecorder;
      clock: Clock;
      visitorsOfIp: (publisherId: number, ipHash: string) => number;
      /** What the database reversed, for the counters kept in memory (credits, today's impressions, CTR, spend). */
      onReversed: (events: ReversedEvent[], reason: AddressRule) => void;
      onError?: (error: unknown) => void;
      maxTalliedEvents?: number;
      /** The tally several instances share (shared/shared-traffic.ts); this process's by default. */
      tally?: Tally;
      /**
       * Several instances: events another counted may still be on their way to the database when the rule trips,
       * so the set-aside runs again this much later (each event is set aside once, whichever run finds it).
       */
      repeatAfterMs?: number;
    },
  ) {
    this.tally = options.tally ?? new AddressTally(options.visitorsOfIp, options.maxTalliedEvents);
  }

  /** A rule set an address aside on a publisher for the rest of the day: what it counted there today follows. */
  trip(trip: AddressTrip): void {
    const taken = Promise.resolve(this.tally.take(trip.day, trip.publisherId, trip.ipHash)).then(
      (events) => {
        if (!events) return;
        const work = { reason: trip.reason, day: trip.day, publisherId: trip.publisherId, ...events };
        this.queue(work);
        const repeatAfterMs = this.options.repeatAfterMs;
        if (repeatAfterMs) setTimeout(() => this.queue(work), repeatAfterMs).unref();
      },
      (error: unknown) => this.options.onError?.(error),
    );
    const done: Promise<void> = taken.finally(() => this.running.delete(done));
    this.running.add(done);
  }

  private queue(work: SetAside) {
    const done: Promise<void> = this.options.recorder
      .exclusive(() => this.write(work))
      .catch((error: unknown) => {
        this.options.onError?.(error);
        this.failed.push(work);
      })
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Runs between two batches: no event it names is still on its way, and no reload of the counters overlaps. */
  private async write(work: SetAside): Promise<void> {
    const at = this.options.clock.now();
    if (isClosing(work.day, at.getTime())) {
      this.options.onError?.(
        new Error(
          `A set-aside of ${work.impressions.length} impressions and ${work.clicks.length} clicks of publisher ${work.publisherId} on ${work.day} came too late for the daily revenue ledger: not written`,
        ),
      );
      return;
    }
    this.options.onReversed(await setAsideTraffic(this.options.db, work, at), work.reason);
  }

  /** Tries again the set-asides that failed. */
  retryFailed(): void {
    for (const work of this.failed.splice(0)) this.queue(work);
  }

  /**
   * Resolves once every set-aside queued so far is done (written, or refused and kept to try again), and so every
   * event recorded before it: what the daily revenue ledger should wait for before it reads a closed day, since a
   * set-aside queued just before midnight may still be on its way. It does not wait for the recorder to be idle
   * (which a steady load may never be), only for what was queued before.
   */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
