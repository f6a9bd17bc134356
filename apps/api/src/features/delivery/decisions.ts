import type { Database } from '@helium/db';
import type { AdIndexSnapshot } from './ad-index.ts';
import { readDecision, isViewUsed } from './event-reads.ts';
import type { AdRef, DeliveryEvent } from './events.ts';
import type { TokenPayload } from './tokens.ts';

/** A served ad is reserved this long: its credit is not promised to another slot until viewed or released. */
export const RESERVATION_MS = 2 * 60_000;
/** How long a decision stays in memory after its view was written (DecisionState.keptUntil). */
export const KEPT_AFTER_VIEW_MS = 60_000;

/** A decision the engine keeps in memory: where its ad was shown, when, and what it has used so far. */
export interface DecisionState extends AdRef {
  id: string;
  at: number;
  reserved: boolean;
  viewed: boolean;
  /**
   * Views of it being written (counted, not yet durable). The sweep keeps such a decision in memory: read
   * back from the database before its impression is there, it would look unviewed, and a replayed beacon
   * would be billed a second time.
   */
  writing?: number;
  /**
   * Kept in memory until then (epoch ms) once its view is written: a beacon of the same token whose database
   * read began before that commit and ends after it finds this state, not the stale row it read.
   */
  keptUntil?: number;
  /**
   * How the script was told to show the ad, which sets the earliest view (MIN_VIEW_MS); unknown for a decision
   * read back from the database or a token, which then gets the shorter rule.
   */
  shownAs?: 'image' | 'video';
  /**
   * Rebuilt from a token's `served` part because its record is nowhere (lost in a crash before its batch
   * committed): the first event counted against it writes the decision record again.
   */
  unrecorded?: boolean;
  /**
   * The address of the pageview that made it, hashed with its day's salt (VisitorHasher.ip): its view and click
   * are that address's traffic, set aside with it when a rule trips. Null when unknown (a newsletter's decision,
   * one rebuilt from a token, one recorded before migration 0009): the view's or click's own address stands in.
   */
  ip?: string | null;
}

/** Where the decision's ad was shown (publisher, ad, campaign, advertiser, channel, device, page). */
export function adRef(decision: DecisionState): AdRef {
  return {
    publisherId: decision.publisherId,
    adId: decision.adId,
    campaignId: decision.campaignId,
    advertiserId: decision.advertiserId,
    channel: decision.channel,
    device: decision.device,
    url: decision.url,
    country: decision.country,
  };
}

/** The decision record the store writes for a decision (the page's pageview, slot and visitor added). */
export function decisionRecord(
  decision: DecisionState,
  page: { pageviewId: string | null; slot: number; visitor: string },
): DeliveryEvent {
  return {
    t: 'decision',
    id: decision.id,
    ...page,
    ip: decision.ip ?? null,
    ...adRef(decision),
    at: new Date(decision.at),
  };
}

/** The decision record to write again before the first event counted against a lost decision (DecisionBook.find). */
export function rerecord(decision: DecisionState): DeliveryEvent[] {
  if (!decision.unrecorded) return [];
  decision.unrecorded = false;
  return [decisionRecord(decision, { pageviewId: null, slot: 0, visitor: '' })];
}

/**
 * The decisions of this process's recent pageviews, and of the tokens it was sent since: one state per decision,
 * so that concurrent beacons of one token see one view. Older ones are read back from the database; a swept
 * decision's reservation is released (`onExpired`).
 */
export class DecisionBook {
  private decisions = new Map<string, DecisionState>();

  constructor(
    private readonly db: Database,
    private readonly onExpired: (decision: DecisionState) => void,
  ) {}

  /**
   * Takes the decision's one view for the beacon being counted; false when another has it. Synchronous here: two
   * beacons of one token in this process see one state.
   */
  claimView(decision: DecisionState): boolean | Promise<boolean> {
    if (decision.viewed) return false;
    decision.viewed = true;
    return true;
  }

  /** The view's batch failed: the decision's view may be counted again. */
  unclaimView(decision: DecisionState): void {
    decision.viewed = false;
  }

  add(decision: DecisionState): void {
    this.decisions.set(decision.id, decision);
  }

  forget(decisionId: string): void {
    this.decisions.delete(decisionId);
  }

  /**
   * A decision named by a genuine token: from memory, else from the database (older ones, after a restart),
   * else rebuilt from the token (its record was lost in a crash before its batch committed). Kept in memory
   * once found, so that concurrent beacons of one token see one state (one impression per decision).
   */
  async find(payload: TokenPayload, tokenMs: number, index: () => AdIndexSnapshot): Promise<DecisionState | null> {
    const known = this.decisions.get(payload.decisionId);
    if (known) return known;
    const found = await this.load(payload, tokenMs, index);
    // Another beacon of the same token may have found it meanwhile: theirs is the one to keep.
    const raced = this.decisions.get(payload.decisionId);
    if (raced) return raced;
    if (found) this.decisions.set(found.id, found);
    return found;
  }

  /** A decision this process does not have: from the database, else rebuilt from the token (see `find`). */
  protected async load(
    payload: TokenPayload,
    tokenMs: number,
    index: () => AdIndexSnapshot,
  ): Promise<DecisionState | null> {
    const decisionId = payload.decisionId;
    const row = await readDecision(this.db, decisionId);
    if (!row) {
      // Its record is nowhere: a decision answered, then lost by a crash before its batch committed. The
      // signed token says what was served (not the page's URL, so the per-URL summary misses it).
      const served = payload.served;
      const ad = served ? index().ads.get(served.adId) : undefined;
      if (!served || !ad) return null;
      return {
        id: decisionId,
        publisherId: served.publisherId,
        adId: ad.id,
        campaignId: ad.campaignId,
        advertiserId: ad.advertiserId,
        channel: 'web',
        device: served.device,
        url: '',
        at: payload.expiresAt * 1000 - tokenMs,
        reserved: false,
        viewed: await isViewUsed(this.db, decisionId),
        unrecorded: true,
      };
    }
    const snapshot = index();
    return {
      id: row.id,
      publisherId: row.publisherId,
      adId: row.adId,
      campaignId: row.campaignId,
      // An ad ejected or switched off since leaves the index; its campaign names the same advertiser.
      advertiserId:
        snapshot.ads.get(row.adId)?.advertiserId ?? snapshot.campaigns.get(row.campaignId)?.advertiserId ?? 0,
      channel: row.channel,
      device: row.device,
      url: row.url,
      at: row.at.getTime(),
      reserved: false,
      viewed: row.viewed,
      ip: row.ip,
      country: row.country ?? undefined,
    };
  }

  /**
   * Releases reservations of ads not viewed in time and forgets old decisions (not those being written). The map
   * keeps the order decisions were added in, that of their times but for ones read back later: the sweep stops at
   * the first one still young rather than visiting the two minutes of pageviews held (120,000 at 1,000 a second
   * stopped serving for 5-18 ms every sweep). One read back with an older time waits for those before it, at most
   * RESERVATION_MS longer: a reservation is this process's own decision's (released in time) or, with several
   * instances, that of the instance that made it, which releases it in time too.
   */
  sweep(nowMs: number): void {
    for (const [id, decision] of this.decisions) {
      if (nowMs - decision.at < RESERVATION_MS) break;
      if (decision.writing || (decision.keptUntil ?? 0) > nowMs) continue;
      if (decision.reserved) this.onExpired(decision);
      this.decisions.delete(id);
    }
  }
}
