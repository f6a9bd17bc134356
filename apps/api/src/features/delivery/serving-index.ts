import type { Database } from '@helium/db';
import { loadIndex, readStoredCredits, type AdIndexSnapshot } from './ad-index.ts';
import type { GroupCommitRecorder } from './recorder.ts';

/** How often the index is reloaded anyway (a change made by hand in the database, a missed notification). */
export const INDEX_RELOAD_MS = 60_000;

/**
 * The serving index: everything selection reads (ads, campaigns, publishers, placements, settings), loaded from the
 * database in a few queries and replaced whole, never changed in place (but for a publisher's install flag). It is
 * reloaded every minute and whenever a change affects serving (`servingChanged`). The credits (and today's counters,
 * when read) are read again between two batches of the recorder, so that no batch's spend is read back half-written,
 * and the counters kept beside the index follow it in the same step; the rest is read before, while batches go on
 * (on PGlite the whole index held the batches for 7-16 ms, every minute).
 */
export class ServingIndex {
  private current: AdIndexSnapshot | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The reload that changes made so far will share, until it starts; then the next change asks for another. */
  private nextReload: Promise<void> | null = null;
  /** The latest reload asked for by a change: the graceful stop waits for it. */
  private lastReload: Promise<void> = Promise.resolve();
  /** Loads started so far, and the number of the one in force: a load applies only if none started after it has. */
  private loadsStarted = 0;
  private loadApplied = 0;

  constructor(
    private readonly db: Database,
    private readonly recorder: GroupCommitRecorder,
    /** The new index, before decisions see it: what is kept beside it follows (credits). */
    private readonly onLoaded: (index: AdIndexSnapshot) => void | Promise<void>,
    /** Once decisions see it: today's counters are read again (with `counters`, or on a new day). */
    private readonly afterLoaded: (options: { counters: boolean }) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly options: {
      /** Tells the other instances of a change (shared/serving-changes.ts). */
      announce?: () => void;
      /** The periodic reload also reads today's counters (several instances: what the others counted). */
      countersEveryReload?: boolean;
    } = {},
  ) {}

  /** The index in force; throws before the first load. */
  snapshot(): AdIndexSnapshot {
    if (!this.current) throw new Error('The delivery engine is not started');
    return this.current;
  }

  /** The first load (with the counters), then the periodic reload unless `timers` is false. */
  async start(options: { timers?: boolean } = {}): Promise<void> {
    await this.load({ counters: true });
    if (options.timers !== false) {
      const counters = this.options.countersEveryReload ?? false;
      this.timer = setInterval(() => void this.refresh({ counters }).catch(this.onError), INDEX_RELOAD_MS);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.lastReload;
  }

  /**
   * Ads, campaigns, validations, publishers, placements, credits or settings changed: the index is reloaded and the
   * promise resolves once decisions see the change, so the call that made it answers after. Changes made before
   * that reload starts share it. A failed reload is reported (onError), not thrown: the change itself is saved, and
   * the minute's refresh loads it.
   */
  servingChanged(options: { announce?: boolean } = {}): Promise<void> {
    if (options.announce !== false) this.options.announce?.();
    if (!this.nextReload) {
      const reload = Promise.resolve()
        .then(() => {
          this.nextReload = null;
          return this.refresh();
        })
        .catch(this.onError);
      this.nextReload = reload;
      this.lastReload = reload;
    }
    return this.nextReload;
  }

  /** Reloads the index now, its credits between two batches; with `counters`, today's counters too, as at start. */
  async refresh(options: { counters?: boolean } = {}): Promise<void> {
    const loading = ++this.loadsStarted;
    const index = await loadIndex(this.db);
    await this.recorder.exclusive(async () => {
      // Two reloads may overlap (the minute's and a change's): one started earlier must not replace a later one,
      // but the counters it was asked for are still read.
      if (loading < this.loadApplied) {
        if (options.counters) await this.afterLoaded({ counters: true });
        return;
      }
      await this.apply(index, loading, { counters: options.counters ?? false });
    });
  }

  private async load(options: { counters: boolean }): Promise<void> {
    const loading = ++this.loadsStarted;
    await this.apply(await loadIndex(this.db), loading, options);
  }

  private async apply(index: AdIndexSnapshot, loading: number, options: { counters: boolean }): Promise<void> {
    await readStoredCredits(this.db, index);
    this.loadApplied = loading;
    await this.onLoaded(index);
    this.current = index;
    await this.afterLoaded(options);
  }
}
