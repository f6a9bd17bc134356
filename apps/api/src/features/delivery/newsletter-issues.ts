import type { Database } from '@helium/db';
import { readIssueAd } from './event-reads.ts';
import type { IndexedAd } from './ad-index.ts';
import type { DeliveryEvent } from './events.ts';

/** Newsletter issues whose ad is kept in memory (the most recently chosen or read back). */
export const MAX_OWL_ISSUES_IN_MEMORY = 10_000;

/**
 * The ad of each newsletter issue's banner: chosen at the issue's first open and kept for every later open and
 * click (owl_issue_ads, read back when not in memory).
 */
export class NewsletterIssues {
  private issues = new Map<string, number>();

  constructor(
    private readonly db: Database,
    /** Several instances: the first to store an issue's ad in the store they share decides it (shared-claims.ts). */
    private readonly shared?: {
      settle(issue: { publisherId: number; bannerIndex: number; issue: string }, adId: number): Promise<number>;
    },
    private readonly maxInMemory = MAX_OWL_ISSUES_IN_MEMORY,
  ) {}

  /**
   * The issue's ad id: kept, read back, or chosen now by `choose` (its record joins `events`); null when none can
   * be chosen.
   */
  async adOf(
    issue: { publisherId: number; bannerIndex: number; issue: string },
    choose: () => IndexedAd | null,
    at: Date,
    events: DeliveryEvent[],
  ): Promise<number | null> {
    const key = `${issue.publisherId}|${issue.bannerIndex}|${issue.issue}`;
    const known = this.issues.get(key);
    if (known !== undefined) return known;
    const stored = await readIssueAd(this.db, issue.publisherId, issue.bannerIndex, issue.issue);
    // Opens that came at once (a mail service fetching for many readers) all waited for that select: the
    // first back chose the issue's ad (synchronously, below), and the others take it.
    let adId = this.issues.get(key) ?? stored;
    if (adId === undefined) {
      const ad = choose();
      if (!ad) return null;
      adId = this.shared ? await this.shared.settle(issue, ad.id) : ad.id;
      // Another instance (or request) chose the issue's ad first: its record is theirs to write.
      if (adId === ad.id) {
        events.push({
          t: 'owlIssue',
          ...issue,
          adId,
          campaignId: ad.campaignId,
          advertiserId: ad.advertiserId,
          at,
        });
      }
    }
    // Bounded (issue names come from the link, which anyone may vary): the oldest go first; the database
    // keeps every issue's ad, read back on its next open.
    for (const oldest of this.issues.keys()) {
      if (this.issues.size < this.maxInMemory) break;
      this.issues.delete(oldest);
    }
    this.issues.set(key, adId);
    return adId;
  }
}
