import { billingLimit, type BillingLimit } from '@helium/domain';
import type { AdIndexSnapshot, IndexedCampaign } from './ad-index.ts';
import { CreditBook, type CountHold } from './credits.ts';
import type { ReversedEvent } from './event-reads.ts';
import { Pacing, type PacedEvent } from './pacing.ts';
import type { CreditsAfter } from './store.ts';
import type { SelectionState } from './slot-selection.ts';

/** One impression or click a counted event would spend, with what decides whether it may. */
export interface SpendRequest {
  kind: 'impression' | 'click';
  campaign: IndexedCampaign;
  adId: number;
  /** The event's id (the decision's for an impression, the click's id for a click). */
  id: string;
  /** The decision's reservation, released by the spend (an impression of a served ad). */
  reservation: { decisionId: string } | null;
  day: string;
  budget: number;
  /** The most the event may cost (against the ad's budget before its exact cost is known). */
  costBound: number;
  nowMs: number;
}

/** A spend allowed: the campaign's credits before it (an impression's price depends on them) and its hold. */
export type Spent = { ok: true; remainingBefore: number; hold: CountHold } | { ok: false; limit: BillingLimit };

/** What a reversed event gives back to the day's pacing (its campaign's count, its ad's budget). */
export function pacedReversal(event: ReversedEvent, display: string): PacedEvent {
  const impressions = event.kind === 'impression' ? 1 : 0;
  return {
    day: event.day,
    campaignId: event.campaignId,
    adId: event.adId,
    display,
    impressions,
    clicks: impressions ? 0 : 1,
    spent: event.cost + event.trialCost,
  };
}

/**
 * What counting may bill and selection may promise: each campaign's credits and reservations, and pacing (today's
 * impressions against the AutoFlow cap, each ad's spend against its budget, the CTR window). Selection reads it
 * synchronously (`state`); reserving and spending may go to a store shared by several instances, where they are
 * atomic. Two implementations: this process's memory (LocalBilling, the embedded default) and Redis
 * (shared/shared-billing.ts).
 */
export interface Billing {
  readonly credits: CreditBook;
  readonly pacing: Pacing;
  /** What selection reads now. */
  state(index: AdIndexSnapshot, nowMs: number): SelectionState;
  /** The index was loaded: the credits as stored (the shared store keeps the newest version it was told of). */
  indexLoaded(index: AdIndexSnapshot): void | Promise<void>;
  /** Today's counters were read from the database (a shared store starts from them where it has none). */
  countersLoaded(): void | Promise<void>;
  /** Promises one impression of a CPM campaign to a served ad; false when another instance took the last one. */
  reserve(campaign: IndexedCampaign, decisionId: string, nowMs: number): boolean | Promise<boolean>;
  release(campaignId: number, decisionId: string): void;
  /** Spends one credit if no limit forbids it (billingLimit), atomically with the check. */
  spend(request: SpendRequest): Spent | Promise<Spent>;
  /** Counts an event in pacing (today's figures, the CTR window, the ad's exact spend). */
  count(event: PacedEvent, costBound?: number): CountHold;
  /** A batch was written: the credits the database left (the shared store follows them). */
  written(after: CreditsAfter[], events: readonly { t: string }[]): void;
  /** What set_aside_traffic reversed. */
  reversed(events: ReversedEvent[], display: (event: ReversedEvent) => string): void;
}

/** Billing in this process's memory: the embedded default, one server. */
export class LocalBilling implements Billing {
  readonly credits = new CreditBook();
  readonly pacing = new Pacing();

  state(index: AdIndexSnapshot, nowMs: number): SelectionState {
    return { index, credits: this.credits, pacing: this.pacing, nowMs };
  }

  indexLoaded(index: AdIndexSnapshot): void {
    this.credits.load(index.campaigns.values());
  }

  countersLoaded(): void {}

  reserve(campaign: IndexedCampaign): boolean {
    this.credits.reserve(campaign.id);
    return true;
  }

  release(campaignId: number): void {
    this.credits.release(campaignId);
  }

  spend(request: SpendRequest): Spent {
    const { campaign } = request;
    if (request.reservation) this.credits.release(campaign.id);
    const limit = billingLimit({
      isCpc: campaign.isCpc,
      remainingImpressions: this.credits.remainingImpressions(campaign.id),
      remainingClicks: this.credits.remainingClicks(campaign.id),
      pauseDailyImpressions: campaign.pauseDailyImpressions,
      todayImpressions: this.pacing.campaignImpressionsToday(campaign.id),
      budget: request.budget,
      spent: this.pacing.spentOf(request.adId),
    });
    if (limit) return { ok: false, limit };
    const remainingBefore =
      request.kind === 'impression'
        ? this.credits.remainingImpressions(campaign.id)
        : this.credits.remainingClicks(campaign.id);
    const credit = this.credits.spend(campaign.id, request.kind);
    return {
      ok: true,
      remainingBefore,
      hold: {
        undo: () => {
          credit.undo();
          if (request.reservation) this.credits.reserve(campaign.id);
        },
        settled: credit.settled,
      },
    };
  }

  count(event: PacedEvent): CountHold {
    return this.pacing.count(event);
  }

  written(): void {}

  reversed(events: ReversedEvent[], display: (event: ReversedEvent) => string): void {
    for (const event of events) {
      if (event.credit) this.credits.giveBack(event.campaignId, event.kind);
      this.pacing.reverse(pacedReversal(event, display(event)));
    }
  }
}
