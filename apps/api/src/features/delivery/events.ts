import type { Channel, Device } from '@helium/domain';
import type { InvalidReason } from './traffic-filter.ts';

/** Money of one counted event, in micro-euros (see splitRevenue). */
export interface EventMoney {
  cost: number;
  publisherRevenue: number;
  salesRepRevenue: number;
  companyRevenue: number;
  trialCost: number;
}

/**
 * The install heartbeat's host for a newsletter: its banner image was requested, so an issue went out with the
 * snippet. A page's heartbeat never takes this host (engine.ts `heartbeat`).
 */
export const NEWSLETTER_HEARTBEAT_HOST = 'newsletter';

export const NO_MONEY: EventMoney = {
  cost: 0,
  publisherRevenue: 0,
  salesRepRevenue: 0,
  companyRevenue: 0,
  trialCost: 0,
};

/** Where an ad was shown: what every event about one served ad carries. */
export interface AdRef {
  publisherId: number;
  adId: number;
  campaignId: number;
  advertiserId: number;
  channel: Channel;
  device: Device;
  url: string;
  /** The visitor's country when the decision was made (countryOf); absent = unknown (`ZZ`). */
  country?: string;
}

/** What the engine records; the store writes a batch of these in one transaction. */
export type DeliveryEvent =
  | {
      t: 'pageview';
      id: string;
      publisherId: number;
      device: Device;
      url: string;
      visitor: string;
      invalidReason: string | null;
      at: Date;
    }
  | ({
      t: 'decision';
      id: string;
      pageviewId: string | null;
      slot: number;
      visitor: string;
      /** The pageview's address hashed with the day's salt (VisitorHasher.ip), or null (a newsletter's, a lost one's). */
      ip: string | null;
      at: Date;
    } & AdRef)
  | ({
      t: 'impression';
      decisionId: string;
      /** Decrement the campaign's remaining impressions. */
      spendsCredit: boolean;
      money: EventMoney;
      at: Date;
    } & AdRef)
  | ({
      t: 'click';
      id: string;
      decisionId: string;
      visitor: string;
      isUnique: boolean;
      /** Decrement the campaign's remaining clicks. */
      spendsCredit: boolean;
      money: EventMoney;
      at: Date;
    } & AdRef)
  | ({ t: 'lead'; clickId: string; source: 'pixel' | 'postback'; at: Date } & AdRef)
  | {
      t: 'invalid';
      kind: 'pageview' | 'impression' | 'click' | 'lead';
      reason: InvalidReason | 'noCredits';
      publisherId: number | null;
      adId: number | null;
      decisionId: string | null;
      visitor: string | null;
      userAgent: string | null;
      device: Device | null;
      at: Date;
    }
  | {
      t: 'heartbeat';
      publisherId: number;
      host: string;
      /** The heartbeat installs the publisher: its registered domain, or its newsletter's banner. */
      installs: boolean;
      at: Date;
    }
  | {
      t: 'owlIssue';
      publisherId: number;
      bannerIndex: number;
      issue: string;
      adId: number;
      campaignId: number;
      advertiserId: number;
      at: Date;
    };
