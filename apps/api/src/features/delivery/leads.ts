import type { Database } from '@helium/db';
import { LEAD_WINDOW_MS } from '@helium/domain';
import type { AdIndexSnapshot } from './ad-index.ts';
import { decisionPlace, hasLead, readClick, uniqueClickBefore, type StoredClick } from './event-reads.ts';
import type { GroupCommitRecorder } from './recorder.ts';

/** Leads remembered in memory beyond which the list of those seen starts again (the database has them all). */
const MAX_LEADS_SEEN = 100_000;

/**
 * Leads (the advertiser's pixel or postback reporting a click id): once per billed click, within LEAD_WINDOW_MS of
 * it. A repeat click (the same visitor on the same ad within the hour) stands for the unique click before it, so
 * that leads never outnumber the clicks they are divided by (LR = leads / clicks).
 */
export class LeadBook {
  private seen = new Set<string>();
  /** Leads counted and not yet durable: kept apart from `seen`, which the sweep may empty. */
  private writing = new Set<string>();
  /**
   * Leads whose click and earlier lead are being read. The sweep empties `seen` only when none is: a read
   * that began before another report of the same click was written would otherwise find neither its row nor its
   * id in memory, and count the lead twice.
   */
  private beingRead = 0;

  constructor(
    private readonly db: Database,
    private readonly recorder: GroupCommitRecorder,
    private readonly index: () => AdIndexSnapshot,
    /** Several instances: a lead's click is also taken in the store they share (shared/shared-claims.ts). */
    private readonly shared?: { claim(clickId: string): Promise<boolean>; release(clickId: string): void },
  ) {}

  /** Whether a lead of this click id is counted already, in memory: seen, or being written. */
  private taken(clickId: string): boolean {
    return this.seen.has(clickId) || this.writing.has(clickId);
  }

  /** Counts a lead for a click id; answers whether it counted. */
  async lead(clickIdGiven: unknown, source: 'pixel' | 'postback', at: Date): Promise<boolean> {
    if (typeof clickIdGiven !== 'string' || !/^[A-Za-z0-9_-]{8,40}$/.test(clickIdGiven)) return false;
    if (this.taken(clickIdGiven)) return false;
    const click = await this.claimBilledClick(clickIdGiven, at);
    if (!click) return false;
    const clickId = click.id;
    try {
      const index = this.index();
      const advertiserId =
        index.ads.get(click.adId)?.advertiserId ?? index.campaigns.get(click.campaignId)?.advertiserId ?? 0;
      const decision = await decisionPlace(this.db, click.decisionId);
      await this.recorder.record([
        {
          t: 'lead',
          clickId,
          source,
          publisherId: click.publisherId,
          adId: click.adId,
          campaignId: click.campaignId,
          advertiserId,
          channel: decision?.channel ?? 'owl',
          device: click.device,
          url: decision?.url ?? '',
          at,
        },
      ]);
      this.seen.add(clickId);
    } catch (error) {
      this.shared?.release(clickId);
      throw error;
    } finally {
      this.writing.delete(clickId);
    }
    return true;
  }

  /**
   * The billed click a lead of this id converts, if it may still count one, marked as being written in the same
   * synchronous step as the last check (another report of it must not pass that check in between).
   */
  private async claimBilledClick(clickIdGiven: string, at: Date): Promise<StoredClick | null> {
    this.beingRead += 1;
    try {
      const given = await readClick(this.db, clickIdGiven);
      const click = given && !given.isUnique ? await uniqueClickBefore(this.db, given) : given;
      if (!click || at.getTime() - click.createdAt.getTime() > LEAD_WINDOW_MS) return null;
      // A click set aside with its address (its rule tripped later that day) is no billed click to convert.
      if (click.invalidReason) return null;
      if (this.taken(click.id)) return null;
      if ((await hasLead(this.db, click.id)) || this.taken(click.id)) return null;
      this.writing.add(click.id);
      if (this.shared && !(await this.shared.claim(click.id).catch(() => false))) {
        this.writing.delete(click.id);
        return null;
      }
      return click;
    } finally {
      this.beingRead -= 1;
    }
  }

  sweep(): void {
    if (this.seen.size > MAX_LEADS_SEEN && this.beingRead === 0) this.seen.clear();
  }
}
