/** Counted events the tally keeps at most, all addresses together (about 50 MB of ids). */
export const MAX_TALLIED_EVENTS = 1_000_000;

/** What was counted from one address on one publisher today: impressions by decision id, unique clicks by click id. */
export interface AddressEvents {
  impressions: string[];
  clicks: string[];
}

interface Entry extends AddressEvents {
  publisherId: number;
  ipHash: string;
}

/**
 * The impressions and unique clicks counted today from each (publisher, address), by id, so that what an address
 * had billed is set aside when a rule trips for it later in the day (engine.ts, `setAsideAddress`). In memory
 * only: no query per request, and the events are found by primary key when set aside. Bounded: beyond
 * `maxEvents`, the addresses with the fewest distinct visitors today (`visitorsOf`) are forgotten first, a quarter
 * of the room at a time. A rule trips only for an address with several visitors (twenty in a minute, a hundred in
 * an hour, or 5% of a publisher's day), so what is forgotten first is what no rule can reach: an address seen
 * with one visitor. An address forgotten and tripping later has only what was counted since set aside.
 */
export class AddressTally {
  private day = '';
  private entries = new Map<string, Entry>();
  private count = 0;

  constructor(
    private readonly visitorsOf: (publisherId: number, ipHash: string) => number,
    private readonly maxEvents = MAX_TALLIED_EVENTS,
  ) {}

  /** Events tallied now (for tests and diagnosis). */
  get events(): number {
    return this.count;
  }

  private roll(day: string): boolean {
    if (day < this.day) return false;
    if (day > this.day) {
      this.day = day;
      this.entries.clear();
      this.count = 0;
    }
    return true;
  }

  /** Tallies an event counted on `day` (the UTC day it is summarised under) from this address. */
  add(day: string, publisherId: number, ipHash: string, kind: 'impression' | 'click', id: string): void {
    // An event of a day before the tally's (counted at 23:59:59, tallied after midnight) has no rule left to trip.
    if (!this.roll(day)) return;
    const key = `${publisherId}:${ipHash}`;
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { publisherId, ipHash, impressions: [], clicks: [] }));
    (kind === 'impression' ? entry.impressions : entry.clicks).push(id);
    this.count += 1;
    if (this.count > this.maxEvents) this.forgetFewestVisitors();
  }

  /** What was counted today from this address on this publisher, taken out of the tally (null: nothing). */
  take(day: string, publisherId: number, ipHash: string): AddressEvents | null {
    if (day !== this.day) return null;
    const key = `${publisherId}:${ipHash}`;
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    this.count -= entry.impressions.length + entry.clicks.length;
    return { impressions: entry.impressions, clicks: entry.clicks };
  }

  private forgetFewestVisitors() {
    // Fewest visitors first; among equals, the earliest tallied (the map's order, kept by a stable sort).
    const byVisitors = [...this.entries].map(([key, entry]) => ({
      key,
      entry,
      visitors: this.visitorsOf(entry.publisherId, entry.ipHash),
    }));
    byVisitors.sort((a, b) => a.visitors - b.visitors);
    for (const { key, entry } of byVisitors) {
      if (this.count <= this.maxEvents * 0.75) return;
      this.entries.delete(key);
      this.count -= entry.impressions.length + entry.clicks.length;
    }
  }
}
