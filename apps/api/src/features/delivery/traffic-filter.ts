import { isbot } from 'isbot';
import {
  HOUR_MS,
  MINUTE_MS,
  tooManyVisitorsFromOneIp,
  VISITORS_PER_IP_PER_HOUR,
  VISITORS_PER_IP_PER_MINUTE,
  type EvidenceFault,
} from '@helium/domain';
import { MailProxyRanges } from './mail-proxies.ts';

/**
 * Why traffic was set aside; `dataCentre` is the engine's (a configured provider's address, ip-ranges.ts), and so
 * are the browser-evidence faults `noEvidence` and `otherDomain` (packages/domain, invalid-traffic.ts).
 * `ipVisitors`: one address showed more distinct visitors on a publisher in a minute or an hour than people do.
 */
export type InvalidReason = 'bot' | 'rate' | 'oneIp' | 'ipVisitors' | 'dataCentre' | 'tooEarly' | EvidenceFault;

/** The rules after which an address's traffic on a publisher is set aside for the rest of the day, and retroactively. */
export type AddressRule = Extract<InvalidReason, 'oneIp' | 'ipVisitors'>;

export interface TrafficLimits {
  /** Pageviews one visitor may make in a minute before the rest is rate abuse. */
  pageviewsPerVisitorPerMinute: number;
  /**
   * Pageviews one visitor may make on one publisher's pages in a UTC day: a program paced under the minute's
   * limit would otherwise make 43,200 a day, each with ads to view. Generous, since a visitor is an address and
   * a user agent: an office behind one address whose browsers all send the same user agent is one visitor.
   */
  pageviewsPerVisitorPerDay: number;
  /** Clicks one visitor may make in a minute. */
  clicksPerVisitorPerMinute: number;
  /** Requests one IP may make in a minute, all visitors together. */
  requestsPerIpPerMinute: number;
  /** Clicks from one IP in a minute, all visitors together (a new user agent makes a new visitor). */
  clicksPerIpPerMinute: number;
  /** Newsletter opens one visitor may make in a minute. */
  opensPerVisitorPerMinute: number;
  /** A newsletter's opens one reader (not a mail service's proxy) may make in a day. */
  opensPerVisitorPerDay: number;
  /** A newsletter's opens by readers (not mail services' proxies) from one IP in a day, all user agents together. */
  opensPerIpPerDay: number;
  /**
   * An issue's opens one mail proxy "reader" may make in a UTC day: a proxy's address and user agent, which stand
   * for many readers (mail-proxies.ts), so far more than one reader's opens, and still a cap.
   */
  mailProxyOpensPerReaderPerIssue: number;
  /** An issue's opens through mail proxies in a UTC day, all proxies together (at most 65,535: CountMinSketch). */
  mailProxyOpensPerIssuePerDay: number;
  /** Share of a publisher's daily unique visitors one IP may hold (docs/decisions.md section 4: 5%). */
  oneIpShare: number;
  /** The one-IP share applies from this many unique visitors of the publisher in the day. */
  oneIpMinVisitors: number;
  /** Distinct visitors one IP may show on one publisher's pages in a UTC minute (VISITORS_PER_IP_PER_MINUTE). */
  visitorsPerIpPerMinute: number;
  /** Distinct visitors one IP may show on one publisher's pages in a UTC hour (VISITORS_PER_IP_PER_HOUR). */
  visitorsPerIpPerHour: number;
}

export const DEFAULT_TRAFFIC_LIMITS: TrafficLimits = {
  pageviewsPerVisitorPerMinute: 30,
  pageviewsPerVisitorPerDay: 5000,
  clicksPerVisitorPerMinute: 10,
  requestsPerIpPerMinute: 1200,
  clicksPerIpPerMinute: 30,
  opensPerVisitorPerMinute: 30,
  opensPerVisitorPerDay: 50,
  opensPerIpPerDay: 1000,
  mailProxyOpensPerReaderPerIssue: 200,
  mailProxyOpensPerIssuePerDay: 20_000,
  oneIpShare: 0.05,
  oneIpMinVisitors: 200,
  visitorsPerIpPerMinute: VISITORS_PER_IP_PER_MINUTE,
  visitorsPerIpPerHour: VISITORS_PER_IP_PER_HOUR,
};

/** A pageview or a newsletter open, as the filter judges it: whose, from whom, which day and instant. */
export interface DailyRequest {
  publisherId: number;
  visitor: string;
  ipHash: string;
  userAgent: string;
  day: string;
  nowMs: number;
}

/** A newsletter open as the filter judges it: also the address (only to look it up in the mail proxies' ranges) and the issue. */
export interface OpenRequest extends DailyRequest {
  ip: string;
  issue: string;
}

/** A pageview as the filter judges it, with what the engine found missing of a browser's evidence, if anything. */
export interface PageviewRequest extends DailyRequest {
  evidenceFault?: EvidenceFault | null;
}

/** An address whose traffic on a publisher a rule set aside for the rest of the UTC day. */
export interface AddressTrip {
  publisherId: number;
  ipHash: string;
  day: string;
  reason: AddressRule;
}

/** How many user agents' bot verdicts are kept. */
const BOT_CACHE_SIZE = 5_000;

/** Bits of each of the two daily Bloom filters (16 MB each): about 0.5% false "seen" at 10 million a day. */
export const DAILY_FILTER_BITS = 2 ** 27;

/** Beyond this many IPs shared by several visitors, those with the fewest visitors are forgotten. */
const MAX_SHARED_IPS = 1_000_000;

/** FNV-1a over a text's UTF-16 units, from a seed: a fast hash for the filters below (no security role). */
function fnv1a(text: string, seed: number): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Murmur3's finaliser: spreads a hash's bits (the filter's second hash). */
function spread(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * A fixed-size set of (number, text) items: it may rarely answer "seen" for an item it never saw, never the
 * reverse. Four probes from two hashes (Kirsch and Mitzenmacher).
 */
export class BloomFilter {
  private readonly words: Uint32Array;
  private readonly mask: number;

  constructor(bits: number) {
    if (!Number.isInteger(Math.log2(bits)) || bits < 32) throw new Error('bits must be a power of two, at least 32');
    this.words = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  /** Adds the item; answers whether it was (probably) there already. */
  add(number: number, text: string): boolean {
    const first = fnv1a(text, Math.imul(number, 0x9e3779b1));
    const second = spread(first ^ 0x5bd1e995) | 1;
    let seen = true;
    for (let probe = 0; probe < 4; probe++) {
      const bit = (first + Math.imul(probe, second)) & this.mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if ((this.words[word]! & flag) === 0) {
        seen = false;
        this.words[word]! |= flag;
      }
    }
    return seen;
  }

  clear() {
    this.words.fill(0);
  }
}

/**
 * Counts of (number, text) items in fixed memory (a count-min sketch): an item's count is never under its
 * true count, and over it only by other items sharing all its four cells (at 25 million items a day in a
 * million cells a row, some tens), so a limit in the hundreds holds for everyone and flags no one wrongly.
 * Counts stop at 65,535.
 */
export class CountMinSketch {
  private readonly rows: Uint16Array[];
  private readonly mask: number;

  constructor(cellsPerRow: number) {
    if (!Number.isInteger(Math.log2(cellsPerRow))) throw new Error('cellsPerRow must be a power of two');
    this.rows = Array.from({ length: 4 }, () => new Uint16Array(cellsPerRow));
    this.mask = cellsPerRow - 1;
  }

  /** Adds one to the item's count; answers its count now. */
  add(number: number, text: string): number {
    const first = fnv1a(text, Math.imul(number, 0x9e3779b1) ^ 0x2545f491);
    const second = spread(first ^ 0x5bd1e995) | 1;
    let count = 0xffff;
    for (let row = 0; row < 4; row++) {
      const cells = this.rows[row]!;
      const cell = (first + Math.imul(row, second)) & this.mask;
      if (cells[cell]! < 0xffff) cells[cell]! += 1;
      count = Math.min(count, cells[cell]!);
    }
    return count;
  }

  clear() {
    for (const cells of this.rows) cells.fill(0);
  }
}

/** Cells of each row of the daily pageview counts (4 rows of 2 bytes: 8 MB). */
export const DAILY_COUNT_CELLS = 2 ** 20;

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
 * Keeps a map of visitor counts per IP bounded: the IPs with the fewest visitors, far from any limit worth
 * flagging, are forgotten until a quarter of the room is free (forgetting can only miss an abuse, never flag a
 * visitor wrongly).
 */
function forgetFewest(visitorsByIp: Map<string, number>, room: number) {
  for (let fewest = 2; visitorsByIp.size > room * 0.75; fewest++) {
    for (const [key, count] of visitorsByIp) if (count <= fewest) visitorsByIp.delete(key);
  }
}

/**
 * Distinct visitors per (publisher, IP) in fixed windows of time (a UTC minute, a UTC hour), in memory that does
 * not grow with the traffic: which (publisher, IP, visitor) and (publisher, IP) the window has seen is one Bloom
 * filter, and only IPs that several visitors share in the window have an entry. A Bloom filter may take a new
 * visitor for a seen one, never the reverse: it can only undercount, never flag an address wrongly.
 */
export class WindowVisitors {
  private window = -Infinity;
  private readonly seen: BloomFilter;
  private shared = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    bits: number,
    private readonly maxShared = MAX_SHARED_IPS,
  ) {
    this.seen = new BloomFilter(bits);
  }

  /**
   * Counts the visitor once in its window; answers the distinct visitors of the IP on the publisher in it. `key`
   * names the pair (publisher, IP) as the filter does (`${publisherId}:${ipHash}`), computed once per pageview.
   */
  add(publisherId: number, ipHash: string, visitor: string, nowMs: number, key = `${publisherId}:${ipHash}`): number {
    const window = Math.floor(nowMs / this.windowMs);
    // Forward only: a request that read the clock before an await may come back after a later one.
    if (window > this.window) {
      if (this.window !== -Infinity) this.seen.clear();
      this.shared.clear();
      this.window = window;
    }
    // The pair and the IP alone in the one filter: `ip|visitor` and `ip|` (a visitor is never empty).
    if (this.seen.add(publisherId, `${ipHash}|${visitor}`)) return this.shared.get(key) ?? 1;
    // The IP's first visitor of the window needs no entry: most IPs have one.
    if (!this.seen.add(publisherId, `${ipHash}|`)) return 1;
    const visitors = (this.shared.get(key) ?? 1) + 1;
    this.shared.set(key, visitors);
    if (this.shared.size > this.maxShared) forgetFewest(this.shared, this.maxShared);
    return visitors;
  }
}

/** Beyond this many addresses set aside in a day, the earliest are forgotten (their later traffic judged afresh). */
const MAX_FLAGGED_IPS = 1_000_000;

/**
 * Invalid-traffic filtering in memory (docs/decisions.md section 4): known bot user agents, rate abuse per
 * visitor and per IP, and an IP holding more than its share of a publisher's unique visitors of the day.
 * What it refuses is recorded aside by the engine, never counted.
 */
export class TrafficFilter {
  private pageviews = new MinuteCounter();
  private clicks = new MinuteCounter();
  private clicksByIp = new MinuteCounter();
  private opens = new MinuteCounter();
  private ips = new MinuteCounter();
  private day = '';
  // The one-IP share in memory that does not grow with the traffic: which (publisher, visitor) and
  // (publisher, IP) pairs the day has seen are two Bloom filters; a publisher's distinct visitors are a
  // count; and only IPs that several visitors share have an entry, with their number of visitors.
  private seenVisitors: BloomFilter;
  private seenIps: BloomFilter;
  /** Each (publisher, visitor)'s pageviews of the day, and newsletter opens per reader and per IP, in fixed memory too. */
  private dayCounts: CountMinSketch;
  private publisherVisitors = new Map<number, number>();
  private sharedIpVisitors = new Map<string, number>();
  /** Distinct visitors per (publisher, IP) in the current minute and hour (against user-agent rotation). */
  private minuteVisitors: WindowVisitors;
  private hourVisitors: WindowVisitors;
  /** (publisher, IP) pairs a rule set aside for the rest of the day, with the rule. */
  private flagged = new Map<string, AddressRule>();
  /**
   * Called once when a rule sets an address aside on a publisher for the rest of the day (the engine then sets
   * aside what it counted from there today).
   */
  onTrip: (trip: AddressTrip) => void = () => {};

  constructor(
    private readonly limits: TrafficLimits = DEFAULT_TRAFFIC_LIMITS,
    filterBits = DAILY_FILTER_BITS,
    private readonly maxSharedIps = MAX_SHARED_IPS,
    dailyCountCells = DAILY_COUNT_CELLS,
    /** The mail proxies' published ranges; the repository's file by default. */
    private readonly mailProxies: MailProxyRanges = MailProxyRanges.published(),
  ) {
    this.seenVisitors = new BloomFilter(filterBits);
    this.seenIps = new BloomFilter(filterBits);
    this.dayCounts = new CountMinSketch(dailyCountCells);
    // One filter per window, for pairs and IPs together: an hour's (8 MB by default) holds 3.5 million of them with
    // 0.2% taken for seen (an hour at 1,000 pageviews a second), a minute's (512 KB) 60,000 with less.
    this.hourVisitors = new WindowVisitors(HOUR_MS, Math.max(32, filterBits / 2), maxSharedIps);
    this.minuteVisitors = new WindowVisitors(MINUTE_MS, Math.max(32, filterBits / 32), maxSharedIps);
  }

  /** IPs that several of a publisher's visitors shared today (for tests and diagnosis). */
  get sharedIps(): number {
    return this.sharedIpVisitors.size;
  }

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
      // New filters start empty: clearing them would only make their memory resident.
      if (this.day !== '') {
        this.seenVisitors.clear();
        this.seenIps.clear();
        this.dayCounts.clear();
      }
      this.day = day;
      this.publisherVisitors.clear();
      this.sharedIpVisitors.clear();
      this.flagged.clear();
    }
  }

  /** Today's distinct visitors of an IP on a publisher as far as the filter knows (1 for an IP it holds no entry of). */
  visitorsOfIp(publisherId: number, ipHash: string): number {
    return this.sharedIpVisitors.get(`${publisherId}:${ipHash}`) ?? 1;
  }

  /** Whether a rule set some address aside today (a view or click then checks its address). */
  get hasFlags(): boolean {
    return this.flagged.size > 0;
  }

  /** The rule that set the first of these IPs aside on this publisher today, if one did. */
  flagOfAny(publisherId: number, ipHashes: ReadonlyArray<string | null | undefined>, day: string): AddressRule | null {
    for (const ipHash of ipHashes) {
      const flag = this.flagOf(publisherId, ipHash, day);
      if (flag) return flag;
    }
    return null;
  }

  /** The rule that set this IP aside on this publisher today, if one did. */
  flagOf(publisherId: number, ipHash: string | null | undefined, day: string): AddressRule | null {
    if (!ipHash || day !== this.day) return null;
    return this.flagged.get(`${publisherId}:${ipHash}`) ?? null;
  }

  /** Sets the IP aside on the publisher for the rest of the day, once; tells the engine. */
  private trip(publisherId: number, ipHash: string, reason: AddressRule): AddressRule {
    const key = `${publisherId}:${ipHash}`;
    if (this.flagged.has(key)) return this.flagged.get(key)!;
    // Bounded: the earliest go first (insertion order); their later traffic is judged afresh by the same rules.
    if (this.flagged.size >= MAX_FLAGGED_IPS) {
      const earliest = this.flagged.keys().next().value;
      if (earliest !== undefined) this.flagged.delete(earliest);
    }
    this.flagged.set(key, reason);
    this.onTrip({ publisherId, ipHash, day: this.day, reason });
    return reason;
  }

  /** Counts a visitor once a day per publisher; answers the publisher's visitors and those of this IP. */
  private countVisitor(publisherId: number, visitor: string, ipHash: string) {
    const ipKey = `${publisherId}:${ipHash}`;
    if (this.seenVisitors.add(publisherId, visitor)) {
      return {
        visitors: this.publisherVisitors.get(publisherId) ?? 0,
        fromIp: this.sharedIpVisitors.get(ipKey) ?? 1,
      };
    }
    const visitors = (this.publisherVisitors.get(publisherId) ?? 0) + 1;
    this.publisherVisitors.set(publisherId, visitors);
    // The IP's first visitor needs no entry: most IPs have one visitor.
    if (!this.seenIps.add(publisherId, ipHash)) return { visitors, fromIp: 1 };
    const fromIp = (this.sharedIpVisitors.get(ipKey) ?? 1) + 1;
    this.sharedIpVisitors.set(ipKey, fromIp);
    if (this.sharedIpVisitors.size > this.maxSharedIps) forgetFewest(this.sharedIpVisitors, this.maxSharedIps);
    return { visitors, fromIp };
  }

  /**
   * Judges a pageview; remembers it for the rate and share rules. An IP set aside on the publisher today stays so;
   * one showing more distinct visitors there in a minute or an hour than the limits (user agents changed at will)
   * is set aside from now on, as is one holding more than its share of the day's visitors. A pageview without a
   * browser's evidence counts towards its IP's visitors, not towards the publisher's.
   */
  pageview(input: PageviewRequest): InvalidReason | null {
    if (this.isBot(input.userAgent)) return 'bot';
    this.rollDay(input.day);
    const key = `${input.publisherId}:${input.ipHash}`;
    const flag = this.flagged.get(key);
    if (flag) return flag;
    const minute = this.minuteVisitors.add(input.publisherId, input.ipHash, input.visitor, input.nowMs, key);
    const hour = this.hourVisitors.add(input.publisherId, input.ipHash, input.visitor, input.nowMs, key);
    const perMinute = this.limits.visitorsPerIpPerMinute;
    if (tooManyVisitorsFromOneIp({ minute, hour }, { perMinute, perHour: this.limits.visitorsPerIpPerHour })) {
      return this.trip(input.publisherId, input.ipHash, 'ipVisitors');
    }
    if (input.evidenceFault) return input.evidenceFault;
    const { visitors, fromIp } = this.countVisitor(input.publisherId, input.visitor, input.ipHash);
    if (this.ips.hit(input.ipHash, input.nowMs) > this.limits.requestsPerIpPerMinute) return 'rate';
    if (this.pageviews.hit(input.visitor, input.nowMs) > this.limits.pageviewsPerVisitorPerMinute) return 'rate';
    if (this.dayCounts.add(input.publisherId, input.visitor) > this.limits.pageviewsPerVisitorPerDay) {
      return 'rate';
    }
    if (visitors >= this.limits.oneIpMinVisitors && fromIp > 1 && fromIp / visitors > this.limits.oneIpShare) {
      return this.trip(input.publisherId, input.ipHash, 'oneIp');
    }
    return null;
  }

  /** Judges a click. */
  click(input: { visitor: string; ipHash: string; userAgent: string; nowMs: number }): InvalidReason | null {
    if (this.isBot(input.userAgent)) return 'bot';
    const visitorClicks = this.clicks.hit(input.visitor, input.nowMs);
    const ipClicks = this.clicksByIp.hit(input.ipHash, input.nowMs);
    if (visitorClicks > this.limits.clicksPerVisitorPerMinute) return 'rate';
    if (ipClicks > this.limits.clicksPerIpPerMinute) return 'rate';
    return null;
  }

  /**
   * Judges a newsletter open (the banner image loaded by a mail reader). The one-IP share does not apply: mail
   * services fetch images for many readers through few addresses. Their image proxies (Gmail's, and Apple Mail's
   * privacy proxy, which says only `Mozilla/5.0`) load the image for a reader's open: isbot calls them bots, but
   * each fetch of theirs is a reader's open, and one proxy address and user agent stands for many readers. So a
   * proxy's user agent from its provider's published addresses (mail-proxies.ts) is held to an issue's opens a day
   * per proxy address and user agent, and per issue, not to one reader's; the same user agent from any other address
   * is anybody's, judged as a reader (and a bot when isbot says so). A reader's own mail program is held to a
   * newsletter's opens a day, per reader and per IP (a new user agent at each request is a new reader: the IP's
   * count stops it). The per-address limit a minute holds for all.
   */
  /** Whether an open comes from a mail service's image proxy: its user agent, from its provider's addresses. */
  isMailProxy(ip: string, userAgent: string): boolean {
    return this.mailProxies.isMailProxy(ip, userAgent);
  }

  open(input: OpenRequest): InvalidReason | null {
    const isMailProxy = this.isMailProxy(input.ip, input.userAgent);
    if (!isMailProxy && this.isBot(input.userAgent)) return 'bot';
    this.rollDay(input.day);
    if (this.ips.hit(input.ipHash, input.nowMs) > this.limits.requestsPerIpPerMinute) return 'rate';
    // Keyed apart from the pageviews of the same sketch: the publisher's id negated, and a prefix.
    const newsletter = -input.publisherId;
    if (isMailProxy) {
      const reader = this.dayCounts.add(newsletter, `proxy|${input.visitor}|${input.issue}`);
      if (reader > this.limits.mailProxyOpensPerReaderPerIssue) return 'rate';
      // Counted once a reader's cap let the open through: a capped proxy address spends none of the issue's.
      const issue = this.dayCounts.add(newsletter, `proxy-issue|${input.issue}`);
      return issue > this.limits.mailProxyOpensPerIssuePerDay ? 'rate' : null;
    }
    if (this.opens.hit(input.visitor, input.nowMs) > this.limits.opensPerVisitorPerMinute) return 'rate';
    if (this.dayCounts.add(newsletter, `open|${input.visitor}`) > this.limits.opensPerVisitorPerDay) return 'rate';
    if (this.dayCounts.add(newsletter, `ip|${input.ipHash}`) > this.limits.opensPerIpPerDay) return 'rate';
    return null;
  }
}
