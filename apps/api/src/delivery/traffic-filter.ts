import { isbot } from 'isbot';

export type InvalidReason = 'bot' | 'rate' | 'oneIp';

export interface TrafficLimits {
  /** Pageviews one visitor may make in a minute before the rest is rate abuse. */
  pageviewsPerVisitorPerMinute: number;
  /** Clicks one visitor may make in a minute. */
  clicksPerVisitorPerMinute: number;
  /** Requests one IP may make in a minute, all visitors together. */
  requestsPerIpPerMinute: number;
  /** Share of a publisher's daily unique visitors one IP may hold (decisions.md: 5%). */
  oneIpShare: number;
  /** The one-IP share applies from this many unique visitors of the publisher in the day. */
  oneIpMinVisitors: number;
}

export const DEFAULT_TRAFFIC_LIMITS: TrafficLimits = {
  pageviewsPerVisitorPerMinute: 30,
  clicksPerVisitorPerMinute: 10,
  requestsPerIpPerMinute: 1200,
  oneIpShare: 0.05,
  oneIpMinVisitors: 200,
};

/** How many user agents' bot verdicts are kept. */
const BOT_CACHE_SIZE = 5_000;

class MinuteCounter {
  private minute = -1;
  private counts = new Map<string, number>();

  hit(key: string, nowMs: number): number {
    const minute = Math.floor(nowMs / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts.clear();
    }
    const next = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, next);
    return next;
  }
}

/**
 * Invalid-traffic filtering in memory (decisions.md section 4): known bot user agents, rate abuse per
 * visitor and per IP, and an IP holding more than its share of a publisher's unique visitors of the day.
 * What it refuses is recorded aside by the engine, never counted.
 */
export class TrafficFilter {
  private pageviews = new MinuteCounter();
  private clicks = new MinuteCounter();
  private ips = new MinuteCounter();
  private day = '';
  private publisherVisitors = new Map<number, Set<string>>();
  private ipVisitors = new Map<string, Set<string>>();

  constructor(private readonly limits: TrafficLimits = DEFAULT_TRAFFIC_LIMITS) {}

  /** isbot's verdict per user agent (its regular expression is most of a decision's filtering cost). */
  private botVerdicts = new Map<string, boolean>();

  isBot(userAgent: string): boolean {
    const known = this.botVerdicts.get(userAgent);
    if (known !== undefined) return known;
    const verdict = userAgent.trim() === '' || isbot(userAgent);
    // Bounded: beyond BOT_CACHE_SIZE user agents the oldest verdict goes (insertion order).
    if (this.botVerdicts.size >= BOT_CACHE_SIZE) {
      const oldest = this.botVerdicts.keys().next().value;
      if (oldest !== undefined) this.botVerdicts.delete(oldest);
    }
    this.botVerdicts.set(userAgent, verdict);
    return verdict;
  }

  private rollDay(day: string) {
    if (day !== this.day) {
      this.day = day;
      this.publisherVisitors.clear();
      this.ipVisitors.clear();
    }
  }

  /** Judges a pageview; remembers it for the rate and share rules. */
  pageview(input: {
    publisherId: number;
    visitor: string;
    ipHash: string;
    userAgent: string;
    day: string;
    nowMs: number;
  }): InvalidReason | null {
    if (this.isBot(input.userAgent)) return 'bot';
    this.rollDay(input.day);
    let visitors = this.publisherVisitors.get(input.publisherId);
    if (!visitors) this.publisherVisitors.set(input.publisherId, (visitors = new Set()));
    visitors.add(input.visitor);
    const ipKey = `${input.publisherId}:${input.ipHash}`;
    let fromIp = this.ipVisitors.get(ipKey);
    if (!fromIp) this.ipVisitors.set(ipKey, (fromIp = new Set()));
    fromIp.add(input.visitor);
    if (this.ips.hit(input.ipHash, input.nowMs) > this.limits.requestsPerIpPerMinute) return 'rate';
    if (this.pageviews.hit(input.visitor, input.nowMs) > this.limits.pageviewsPerVisitorPerMinute) return 'rate';
    if (
      visitors.size >= this.limits.oneIpMinVisitors &&
      fromIp.size > 1 &&
      fromIp.size / visitors.size > this.limits.oneIpShare
    ) {
      return 'oneIp';
    }
    return null;
  }

  /** Judges a click. */
  click(input: { visitor: string; userAgent: string; nowMs: number }): InvalidReason | null {
    if (this.isBot(input.userAgent)) return 'bot';
    if (this.clicks.hit(input.visitor, input.nowMs) > this.limits.clicksPerVisitorPerMinute) return 'rate';
    return null;
  }
}
