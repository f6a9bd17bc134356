import { type BillingLimit } from '@helium/domain';
import type { AdIndexSnapshot, IndexedCampaign } from '../ad-index.ts';
import { pacedReversal, type Billing, type SpendRequest, type Spent } from '../billing.ts';
import { CreditBook, type CountHold } from '../credits.ts';
import { RESERVATION_MS } from '../decisions.ts';
import type { ReversedEvent } from '../event-reads.ts';
import type { DeliveryEvent } from '../events.ts';
import { Pacing, type PacedEvent } from '../pacing.ts';
import type { SelectionState } from '../slot-selection.ts';
import type { CreditsAfter } from '../store.ts';
import type { SharedKeys } from './keys.ts';
import type { RedisScripts } from './redis-scripts.ts';

/** How long a spend stays pending at most: its batch is written or failed long before (a dead instance's expire). */
export const PENDING_SPEND_MS = 60_000;
/** Seconds a day's counter lives: the day, and the next for late events. */
export const DAY_KEY_SECONDS = 2 * 24 * 3600;

/** Reads a campaign's stored credits when the shared store does not know them (first use, Redis restarted). */
export type StoredCredits = (
  campaignId: number,
) => Promise<{ impressions: number; clicks: number; version: number } | null>;

/**
 * Billing shared by several instances through Redis (docs/scaling.md). Reservations, spends, today's impressions
 * and each ad's spend are Redis's, changed by scripts that check and write in one step (redis-scripts.ts), so that
 * two instances never promise or spend the same credit; the database still refuses an overdraw. Selection reads a
 * copy in this process (`credits`, `pacing`), refreshed every second and by each answer of a script: it may be a
 * second behind, which only makes a reservation fail now and then.
 */
export class SharedBilling implements Billing {
  readonly credits = new CreditBook();
  readonly pacing = new Pacing();
  private campaigns = new Map<number, IndexedCampaign>();
  private budgets = new Map<number, number>();

  constructor(
    private readonly scripts: RedisScripts,
    private readonly keys: SharedKeys,
    private readonly storedCredits: StoredCredits,
    /** The app's clock (epoch ms): expiries in Redis follow it, as the requests' instants do. */
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
  ) {}

  state(index: AdIndexSnapshot, nowMs: number): SelectionState {
    return { index, credits: this.credits, pacing: this.pacing, nowMs };
  }

  async indexLoaded(index: AdIndexSnapshot): Promise<void> {
    this.credits.load(index.campaigns.values());
    this.campaigns = index.campaigns;
    this.budgets = new Map([...index.ads.values()].filter((ad) => ad.budget > 0).map((ad) => [ad.id, ad.budget]));
    // The stored figures, at their version: the shared store keeps whichever is newer. A store away is not a
    // reason to keep the old index: serving answers without it meanwhile.
    await this.syncAll([...index.campaigns.values()]).catch(this.onError);
    if (this.pacing.today) await this.refresh(this.now()).catch(this.onError);
  }

  /**
   * Today's counters were read from the database: where the shared store has no figure yet for today's
   * impressions of a campaign or for an ad's spend (a new day, Redis emptied), it starts from them.
   */
  async countersLoaded(): Promise<void> {
    const day = this.pacing.today;
    const pipeline = this.scripts.redis.pipeline();
    for (const campaign of this.campaigns.values()) {
      const today = this.pacing.campaignImpressionsToday(campaign.id);
      pipeline.set(this.keys.today(day, campaign.id), today, 'EX', DAY_KEY_SECONDS, 'NX');
    }
    for (const adId of this.budgets.keys()) pipeline.set(this.keys.adSpend(adId), this.pacing.spentOf(adId), 'NX');
    await pipeline.exec().catch(this.onError);
    await this.refresh(this.now()).catch(this.onError);
  }

  private async syncAll(campaigns: IndexedCampaign[]) {
    const pipeline = this.scripts.redis.pipeline();
    for (const campaign of campaigns) {
      this.scripts.queue(pipeline, 'heliumWritten', this.creditKeys(campaign.id), [
        campaign.creditsVersion,
        campaign.storedImpressions,
        campaign.storedClicks,
        this.now(),
        0,
      ]);
    }
    await pipeline.exec();
  }

  private creditKeys(campaignId: number) {
    return [
      this.keys.credits(campaignId),
      this.keys.pending(campaignId, 'impression'),
      this.keys.pending(campaignId, 'click'),
    ];
  }

  /** Syncs one campaign from the database (its credits were unknown to Redis). */
  private async syncFromDatabase(campaignId: number): Promise<boolean> {
    const stored = await this.storedCredits(campaignId);
    if (!stored) return false;
    await this.scripts.run('heliumWritten', this.creditKeys(campaignId), [
      stored.version,
      stored.impressions,
      stored.clicks,
      this.now(),
      0,
    ]);
    return true;
  }

  async reserve(campaign: IndexedCampaign, decisionId: string, nowMs: number): Promise<boolean> {
    const keys = [
      this.keys.credits(campaign.id),
      this.keys.reservations(campaign.id),
      this.keys.today(this.pacing.today, campaign.id),
    ];
    const args = [decisionId, nowMs, nowMs + RESERVATION_MS, campaign.pauseDailyImpressions];
    let answer = await this.scripts.run<number[]>('heliumReserve', keys, args);
    if (answer[0] === -1 && (await this.syncFromDatabase(campaign.id))) {
      answer = await this.scripts.run<number[]>('heliumReserve', keys, args);
    }
    const [ok, impressions, reserved] = answer;
    if (impressions !== undefined && reserved !== undefined)
      this.credits.setShared(campaign.id, { impressions, reserved });
    return ok === 1;
  }

  release(campaignId: number, decisionId: string): void {
    this.scripts.redis.zrem(this.keys.reservations(campaignId), decisionId).catch(this.onError);
  }

  async spend(request: SpendRequest): Promise<Spent> {
    const { campaign } = request;
    const keys = this.spendKeys(request);
    const args = [
      request.kind === 'impression' ? 'i' : 'c',
      request.id,
      request.reservation?.decisionId ?? '',
      request.nowMs,
      request.nowMs + PENDING_SPEND_MS,
      campaign.pauseDailyImpressions,
      request.budget,
      request.budget > 0 ? request.costBound : 0,
      DAY_KEY_SECONDS,
    ];
    let answer = await this.scripts.run<[number, number | string]>('heliumSpend', keys, args);
    if (answer[0] === -1 && (await this.syncFromDatabase(campaign.id))) {
      answer = await this.scripts.run<[number, number | string]>('heliumSpend', keys, args);
    }
    if (answer[0] !== 1) return { ok: false, limit: (answer[1] as BillingLimit | undefined) ?? 'noCredits' };
    const remainingBefore = Number(answer[1]);
    this.credits.setShared(
      campaign.id,
      request.kind === 'impression' ? { impressions: remainingBefore - 1 } : { clicks: remainingBefore - 1 },
    );
    return {
      ok: true,
      remainingBefore,
      hold: {
        undo: () => {
          const undo = [
            args[0]!,
            request.id,
            request.reservation?.decisionId ?? '',
            request.nowMs + RESERVATION_MS,
            args[7]!,
          ];
          this.scripts.run('heliumUnspend', keys, undo).catch(this.onError);
        },
        settled: () => {},
      },
    };
  }

  private spendKeys(request: SpendRequest) {
    const id = request.campaign.id;
    return [
      this.keys.credits(id),
      this.keys.reservations(id),
      this.keys.pending(id, request.kind),
      this.keys.today(request.day, id),
      this.keys.adSpend(request.adId),
    ];
  }

  count(event: PacedEvent, costBound?: number): CountHold {
    const counted = this.pacing.count(event);
    // The ad's spend was charged its bound when spent (the budget's check): now its exact cost. Undone with the
    // spend's own undo, which takes the bound back.
    const excess = costBound !== undefined && this.budgets.has(event.adId) ? costBound - event.spent : 0;
    if (excess === 0) return counted;
    const key = this.keys.adSpend(event.adId);
    this.scripts.redis.decrby(key, excess).catch(this.onError);
    return {
      undo: () => {
        counted.undo();
        this.scripts.redis.incrby(key, excess).catch(this.onError);
      },
      settled: counted.settled,
    };
  }

  written(after: CreditsAfter[], events: readonly DeliveryEvent[]): void {
    if (after.length === 0) return;
    const spends = new Map<number, { impressions: string[]; clicks: string[] }>();
    for (const event of events) {
      if ((event.t !== 'impression' && event.t !== 'click') || !event.spendsCredit) continue;
      let ids = spends.get(event.campaignId);
      if (!ids) spends.set(event.campaignId, (ids = { impressions: [], clicks: [] }));
      if (event.t === 'impression') ids.impressions.push(event.decisionId);
      else ids.clicks.push(event.id);
    }
    const pipeline = this.scripts.redis.pipeline();
    for (const [id, impressions, clicks, version] of after) {
      const ids = spends.get(id) ?? { impressions: [], clicks: [] };
      this.scripts.queue(pipeline, 'heliumWritten', this.creditKeys(id), [
        version,
        impressions,
        clicks,
        this.now(),
        ids.impressions.length,
        ...ids.impressions,
        ...ids.clicks,
      ]);
    }
    // Best effort: the batch is written whatever Redis answers; a spend left pending expires (PENDING_SPEND_MS).
    pipeline.exec().catch(this.onError);
  }

  reversed(events: ReversedEvent[], display: (event: ReversedEvent) => string): void {
    const pipeline = this.scripts.redis.pipeline();
    for (const event of events) {
      if (event.kind === 'impression') pipeline.decr(this.keys.today(event.day, event.campaignId));
      if (this.budgets.has(event.adId)) pipeline.decrby(this.keys.adSpend(event.adId), event.cost + event.trialCost);
      this.pacing.reverse(pacedReversal(event, display(event)));
    }
    pipeline.exec().catch(this.onError);
  }

  /**
   * Copies the shared figures selection reads into this process: each campaign's credits and reservations, today's
   * impressions, each budgeted ad's spend. Run every second.
   */
  async refresh(nowMs: number): Promise<void> {
    const campaigns = [...this.campaigns.values()];
    const ads = [...this.budgets.keys()];
    const day = this.pacing.today;
    const pipeline = this.scripts.redis.pipeline();
    for (const campaign of campaigns) {
      pipeline.hmget(this.keys.credits(campaign.id), 'imp', 'clk');
      pipeline.zcount(this.keys.reservations(campaign.id), nowMs, '+inf');
      pipeline.get(this.keys.today(day, campaign.id));
    }
    for (const adId of ads) pipeline.get(this.keys.adSpend(adId));
    const answers = (await pipeline.exec()) ?? [];
    let at = 0;
    const next = () => answers[at++]?.[1];
    for (const campaign of campaigns) {
      const [impressions, clicks] = (next() as Array<string | null> | undefined) ?? [];
      const reserved = Number(next() ?? 0);
      const today = next();
      this.credits.setShared(campaign.id, {
        ...(impressions != null ? { impressions: Number(impressions) } : {}),
        ...(clicks != null ? { clicks: Number(clicks) } : {}),
        reserved,
      });
      if (today != null) this.pacing.setShared({ campaignId: campaign.id, today: Number(today) });
    }
    for (const adId of ads) {
      const spent = next();
      if (spent != null) this.pacing.setShared({ adId, spent: Number(spent) });
    }
  }
}
