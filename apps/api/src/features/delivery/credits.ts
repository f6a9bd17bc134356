import type { IndexedCampaign } from './ad-index.ts';

/** A change of the in-memory state made when an event was counted: undone if its batch fails, settled once written. */
export interface CountHold {
  /** The batch failed: the change is taken back (on the state of now, which a reload may have rebuilt). */
  undo(): void;
  /** The batch is done (written or failed): what was kept to survive a reload of the index is dropped. */
  settled(): void;
}

export const NO_HOLD: CountHold = { undo() {}, settled() {} };

function addTo<Key>(counters: Map<Key, number>, key: Key, amount: number) {
  const total = (counters.get(key) ?? 0) + amount;
  if (total === 0) counters.delete(key);
  else counters.set(key, total);
}

export { addTo };

/**
 * Each campaign's credits as serving sees them, in this process: what the database held when the index was loaded,
 * less the spends counted since and not yet written (so that a reload does not give them back), and the
 * reservations of served ads not yet viewed (RESERVATION_MS). The database has the last word on spending
 * (record_delivery_batch refuses to overdraw); this book keeps serving from promising what is not there.
 */
export class CreditBook {
  private remaining = new Map<number, { impressions: number; clicks: number }>();
  private reserved = new Map<number, number>();
  private unwrittenImpressions = new Map<number, number>();
  private unwrittenClicks = new Map<number, number>();

  /** A new index was loaded: its stored credits, less what is counted and not yet written. */
  load(campaigns: Iterable<IndexedCampaign>): void {
    const remaining = new Map<number, { impressions: number; clicks: number }>();
    for (const campaign of campaigns) {
      remaining.set(campaign.id, {
        impressions: campaign.storedImpressions - (this.unwrittenImpressions.get(campaign.id) ?? 0),
        clicks: campaign.storedClicks - (this.unwrittenClicks.get(campaign.id) ?? 0),
      });
    }
    this.remaining = remaining;
  }

  remainingImpressions(campaignId: number): number {
    return this.remaining.get(campaignId)?.impressions ?? 0;
  }

  remainingClicks(campaignId: number): number {
    return this.remaining.get(campaignId)?.clicks ?? 0;
  }

  /** Impressions promised to served ads not yet viewed. */
  reservedImpressions(campaignId: number): number {
    return this.reserved.get(campaignId) ?? 0;
  }

  /** Promises one impression to a served ad (selection checked that one is available). */
  reserve(campaignId: number): void {
    addTo(this.reserved, campaignId, 1);
  }

  release(campaignId: number): void {
    const left = (this.reserved.get(campaignId) ?? 0) - 1;
    if (left > 0) this.reserved.set(campaignId, left);
    else this.reserved.delete(campaignId);
  }

  /** One impression or click spent by a counted event. */
  spend(campaignId: number, kind: 'impression' | 'click'): CountHold {
    const unwritten = kind === 'impression' ? this.unwrittenImpressions : this.unwrittenClicks;
    this.move(campaignId, kind, -1);
    addTo(unwritten, campaignId, 1);
    return {
      undo: () => this.move(campaignId, kind, 1),
      settled: () => addTo(unwritten, campaignId, -1),
    };
  }

  /** Credits given back by a set-aside (set_aside_traffic reversed a billed event). */
  giveBack(campaignId: number, kind: 'impression' | 'click'): void {
    this.move(campaignId, kind, 1);
  }

  private move(campaignId: number, kind: 'impression' | 'click', amount: number) {
    const credits = this.remaining.get(campaignId);
    if (!credits) return;
    if (kind === 'impression') credits.impressions += amount;
    else credits.clicks += amount;
  }

  /** Figures of the store shared by several instances, copied here for selection (shared/shared-billing.ts). */
  setShared(campaignId: number, figures: { impressions?: number; clicks?: number; reserved?: number }): void {
    const credits = this.remaining.get(campaignId);
    if (credits && figures.impressions !== undefined) credits.impressions = figures.impressions;
    if (credits && figures.clicks !== undefined) credits.clicks = figures.clicks;
    if (figures.reserved !== undefined) {
      if (figures.reserved > 0) this.reserved.set(campaignId, figures.reserved);
      else this.reserved.delete(campaignId);
    }
  }

  /** Reservations per campaign (the admin's activity view and tests). */
  reservations(): ReadonlyMap<number, number> {
    return this.reserved;
  }
}
