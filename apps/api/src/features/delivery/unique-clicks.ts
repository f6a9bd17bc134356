import { isUniqueClick, uniqueClickWindow, type ClickKey } from '@helium/domain';
import type { CounterSnapshot } from './ad-index.ts';
import { NO_HOLD, type CountHold } from './credits.ts';

/**
 * The last unique (billed) click under each key of uniqueClickKeys, in this process: a visitor's on an ad for an
 * hour, a decision's for its click token's life. Read back from the database at start (clicks of the last
 * CLICK_TOKEN_MS), so that a restart does not bill a repeat.
 */
export class UniqueClicks {
  private lastUniqueClick = new Map<string, number>();

  /** Adds the database's recent unique clicks (kept: a click counted since is later than any of them). */
  load(clicks: CounterSnapshot['recentUniqueClicks'], nowMs: number): void {
    for (const click of clicks) {
      for (const key of [`${click.adId}|${click.visitor}`, `decision|${click.decisionId}`]) {
        if (nowMs - click.at >= uniqueClickWindow(key)) continue;
        this.lastUniqueClick.set(key, Math.max(this.lastUniqueClick.get(key) ?? 0, click.at));
      }
    }
  }

  /**
   * Whether a click at `nowMs` is unique under `checked`; if so it marks `own` (its hold takes the marks back if the
   * click's batch fails). Synchronous: two clicks of one visitor cannot both pass.
   */
  claim(keys: { own: readonly ClickKey[]; checked: readonly ClickKey[] }, nowMs: number): CountHold | null {
    const previous = keys.checked.map((key) => this.lastUniqueClick.get(key.key));
    if (!isUniqueClick(keys.checked, previous, nowMs)) return null;
    const before = keys.own.map((key) => this.lastUniqueClick.get(key.key));
    for (const key of keys.own) this.lastUniqueClick.set(key.key, nowMs);
    return {
      ...NO_HOLD,
      undo: () =>
        keys.own.forEach((key, index) => {
          const at = before[index];
          if (at === undefined) this.lastUniqueClick.delete(key.key);
          else this.lastUniqueClick.set(key.key, at);
        }),
    };
  }

  /** Forgets clicks whose window is over. */
  sweep(nowMs: number): void {
    for (const [key, at] of this.lastUniqueClick) {
      if (nowMs - at >= uniqueClickWindow(key)) this.lastUniqueClick.delete(key);
    }
  }
}
