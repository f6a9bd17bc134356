import { LEAD_WINDOW_MS, type ClickKey } from '@helium/domain';
import type { Database } from '@helium/db';
import { NO_HOLD, type CountHold } from '../credits.ts';
import type { AdIndexSnapshot, CounterSnapshot } from '../ad-index.ts';
import { adRef, DecisionBook, KEPT_AFTER_VIEW_MS, RESERVATION_MS, type DecisionState } from '../decisions.ts';
import type { AdRef } from '../events.ts';
import type { TokenPayload } from '../tokens.ts';
import type { SharedKeys } from './keys.ts';
import type { RedisScripts } from './redis-scripts.ts';

/** A claim outlives what it guards by this much (a token's last second, a clock a little ahead). */
const CLAIM_MARGIN_MS = 60_000;

/**
 * How long a decision's view stays claimed: longer than any instance keeps the decision in memory (2 minutes, 1
 * more once its view is written), after which its impression in the database says it was viewed. A claim of an
 * instance that died before writing the view frees the view after this time.
 */
export const VIEW_CLAIM_MS = RESERVATION_MS + KEPT_AFTER_VIEW_MS + 2 * CLAIM_MARGIN_MS;

/**
 * How long a decision is kept in Redis for the beacons that reach another instance (its reservation's life; an older
 * one is read from the database). Shorter than a view's claim, which is taken after the decision: while a decision
 * is found there, its view's claim, if any was taken, is too, so that `viewed` may start false.
 */
const SHARED_DECISION_MS = RESERVATION_MS;

/**
 * What Redis keeps of a decision (DecisionBook.find rebuilds the rest). `reserved`: its CPM credit was reserved, so
 * that the instance that counts its view releases the reservation as it spends (else it would stand until it expires,
 * promising that credit twice).
 */
type SharedDecision = AdRef & { at: number; ip: string | null; reserved: boolean; shownAs?: 'image' | 'video' };

/**
 * Decisions whose views several instances may receive: a beacon takes the decision's view in Redis as well as in
 * this process, so that the same token sent to two instances at once counts once. Each recent decision is kept in
 * Redis too: a beacon that reaches another instance finds it there instead of reading the database.
 */
export class SharedDecisionBook extends DecisionBook {
  constructor(
    db: Database,
    onExpired: (decision: DecisionState) => void,
    private readonly scripts: RedisScripts,
    private readonly keys: SharedKeys,
  ) {
    super(db, onExpired);
  }

  override async claimView(decision: DecisionState): Promise<boolean> {
    if (!super.claimView(decision)) return false;
    const key = this.keys.view(decision.id);
    try {
      // Another instance counts it (or did): this decision's view is used.
      return (await this.scripts.call((redis) => redis.set(key, '1', 'PX', VIEW_CLAIM_MS, 'NX'))) === 'OK';
    } catch (error) {
      super.unclaimView(decision);
      throw error;
    }
  }

  override unclaimView(decision: DecisionState): void {
    super.unclaimView(decision);
    this.scripts.redis.del(this.keys.view(decision.id)).catch(() => {});
  }

  override add(decision: DecisionState): void {
    super.add(decision);
    const shared: SharedDecision = {
      ...adRef(decision),
      at: decision.at,
      ip: decision.ip ?? null,
      reserved: decision.reserved,
      // A video's view counts after 2 s, not the 1 s of a decision read back from the database.
      shownAs: decision.shownAs,
    };
    // Best effort: a beacon that does not find it reads the database.
    this.scripts.redis
      .set(this.keys.decision(decision.id), JSON.stringify(shared), 'PX', SHARED_DECISION_MS)
      .catch(() => {});
  }

  override forget(decisionId: string): void {
    super.forget(decisionId);
    this.scripts.redis.del(this.keys.decision(decisionId)).catch(() => {});
  }

  protected override async load(
    payload: TokenPayload,
    tokenMs: number,
    index: () => AdIndexSnapshot,
  ): Promise<DecisionState | null> {
    // Redis away: the database has it (a click still reaches the ad's page).
    const stored = await this.scripts.redis.get(this.keys.decision(payload.decisionId)).catch(() => null);
    if (!stored) return super.load(payload, tokenMs, index);
    const shared = JSON.parse(stored) as SharedDecision;
    return { ...shared, id: payload.decisionId, viewed: false };
  }
}

/** Unique clicks shared by several instances: each key of uniqueClickKeys held in Redis for its window. */
export class SharedUniqueClicks {
  constructor(
    private readonly scripts: RedisScripts,
    private readonly keys: SharedKeys,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Seeds Redis with the database's recent unique clicks (it may have restarted empty); kept where it has them. */
  load(clicks: CounterSnapshot['recentUniqueClicks'], nowMs: number): void {
    const pipeline = this.scripts.redis.pipeline();
    for (const click of clicks) {
      for (const [key, windowMs] of [
        [`${click.adId}|${click.visitor}`, 3_600_000],
        [`decision|${click.decisionId}`, 86_400_000],
      ] as const) {
        const left = click.at + windowMs - nowMs;
        if (left > 0) pipeline.set(this.keys.click(key), String(click.at), 'PX', left, 'NX');
      }
    }
    pipeline.exec().catch(this.onError);
  }

  async claim(
    keys: { own: readonly ClickKey[]; checked: readonly ClickKey[] },
    nowMs: number,
  ): Promise<CountHold | null> {
    const names = keys.checked.map((key) => this.keys.click(key.key));
    const args = [nowMs, keys.own.length, ...keys.own.map((key) => key.windowMs)];
    if ((await this.scripts.run<number>('heliumClaimClick', names, args)) !== 1) return null;
    const own = names.slice(0, keys.own.length);
    return {
      ...NO_HOLD,
      undo: () => void this.scripts.run('heliumDeleteIfEqual', own, [nowMs]).catch(this.onError),
    };
  }

  sweep(): void {}
}

/** Leads counted once across instances: a lead's click id is taken in Redis before it is written. */
export class SharedLeadClaims {
  constructor(
    private readonly scripts: RedisScripts,
    private readonly keys: SharedKeys,
  ) {}

  async claim(clickId: string): Promise<boolean> {
    const taken = await this.scripts.call((redis) =>
      redis.set(this.keys.lead(clickId), '1', 'PX', LEAD_WINDOW_MS + CLAIM_MARGIN_MS, 'NX'),
    );
    return taken === 'OK';
  }

  release(clickId: string): void {
    this.scripts.redis.del(this.keys.lead(clickId)).catch(() => {});
  }
}

/** How long an issue's ad is kept in Redis; older issues read theirs from the database. */
const ISSUE_AD_MS = 90 * 86_400_000;

/** The ad of a newsletter issue, chosen once across instances: the first to store it in Redis wins. */
export class SharedIssueClaims {
  constructor(
    private readonly scripts: RedisScripts,
    private readonly keys: SharedKeys,
  ) {}

  /** Stores `adId` as the issue's ad unless another instance stored one: answers the issue's ad. */
  async settle(issue: { publisherId: number; bannerIndex: number; issue: string }, adId: number): Promise<number> {
    const key = this.keys.issue(issue.publisherId, issue.bannerIndex, issue.issue);
    const previous = await this.scripts.call((redis) => redis.set(key, String(adId), 'PX', ISSUE_AD_MS, 'NX', 'GET'));
    return previous === null ? adId : Number(previous);
  }
}
