import { tooManyVisitorsFromOneIp } from '@helium/domain';
import type { AddressEvents } from '../address-tally.ts';
import type { MailProxyRanges } from '../mail-proxies.ts';
import {
  DEFAULT_TRAFFIC_LIMITS,
  TrafficFilter,
  type AddressRule,
  type AddressTrip,
  type OpenRequest,
  type InvalidReason,
  type PageviewRequest,
  type TrafficLimits,
} from '../traffic-filter.ts';
import { DAY_KEY_SECONDS } from './shared-billing.ts';
import type { SharedKeys } from './keys.ts';
import type { RedisScripts } from './redis-scripts.ts';

const minuteOf = (nowMs: number) => Math.floor(nowMs / 60_000);
/** A minute's counter lives two: the minute, and a request that read the clock just before it ended. */
const MINUTE_KEY_SECONDS = 120;

/**
 * The traffic filter's rules (traffic-filter.ts: the same limits, applied in the same order) on counters several
 * instances share in Redis: an address's visitors per minute, hour and day, its requests and each visitor's per
 * minute and day, the addresses set aside for the day. Counts are exact (sets and HyperLogLogs) where the
 * in-process filter keeps fixed-size sketches; each key expires with its window. The bot verdicts stay in this
 * process (a pure function of the user agent).
 */
export class SharedTrafficFilter {
  private readonly local: TrafficFilter;
  /** Called once, by the instance whose request tripped the rule, when an address is set aside for the day. */
  onTrip: (trip: AddressTrip) => void = () => {};

  constructor(
    private readonly scripts: RedisScripts,
    private readonly keys: SharedKeys,
    private readonly limits: TrafficLimits = DEFAULT_TRAFFIC_LIMITS,
    /** The mail proxies' published ranges; the repository's file by default. */
    mailProxies?: MailProxyRanges,
  ) {
    this.local = new TrafficFilter(limits, 32, 16, 1, mailProxies);
  }

  /** Every view and click checks its address: flags live in Redis, never all known here. */
  readonly hasFlags = true;

  isBot(userAgent: string): boolean {
    return this.local.isBot(userAgent);
  }

  /** The address's visitors today is not known here: the tally in Redis keeps every address (SharedTally). */
  visitorsOfIp(): number {
    return 1;
  }

  async flagOfAny(
    publisherId: number,
    ipHashes: ReadonlyArray<string | null | undefined>,
    day: string,
  ): Promise<AddressRule | null> {
    const keys = [...new Set(ipHashes.filter((ip): ip is string => Boolean(ip)))].map((ip) =>
      this.keys.flag(day, publisherId, ip),
    );
    if (keys.length === 0) return null;
    const flags = await this.scripts.call((redis) => redis.mget(...keys));
    return (flags.find((flag) => flag !== null) as AddressRule | undefined) ?? null;
  }

  /** Sets the address aside for the rest of the day; the instance that set it first sets aside what it counted. */
  private async trip(publisherId: number, ipHash: string, day: string, reason: AddressRule): Promise<AddressRule> {
    const set = await this.scripts.call((redis) =>
      redis.set(this.keys.flag(day, publisherId, ipHash), reason, 'EX', DAY_KEY_SECONDS, 'NX'),
    );
    if (set === 'OK') this.onTrip({ publisherId, ipHash, day, reason });
    return reason;
  }

  async pageview(input: PageviewRequest): Promise<InvalidReason | null> {
    if (this.isBot(input.userAgent)) return 'bot';
    const { publisherId, ipHash, visitor, day } = input;
    const minute = minuteOf(input.nowMs);
    const keys = [
      this.keys.flag(day, publisherId, ipHash),
      this.keys.traffic('mv', publisherId, ipHash, minute),
      this.keys.traffic('hv', publisherId, ipHash, Math.floor(minute / 60)),
      this.keys.traffic('pv', day, publisherId),
      this.keys.traffic('iv', day, publisherId, ipHash),
      this.keys.traffic('ri', ipHash, minute),
      this.keys.traffic('rv', visitor, minute),
      this.keys.traffic('dv', day, publisherId, visitor),
    ];
    const [flag, ...counts] = await this.scripts.run<[string, ...number[]]>('heliumPageview', keys, [
      visitor,
      input.evidenceFault ? 1 : 0,
      DAY_KEY_SECONDS,
      this.limits.requestsPerIpPerMinute,
      this.limits.pageviewsPerVisitorPerMinute,
    ]);
    if (flag) return flag as AddressRule;
    const [
      minuteVisitors = 0,
      hourVisitors = 0,
      visitors = 0,
      fromIp = 0,
      ipRequests = 0,
      visitorMinute = 0,
      visitorDay = 0,
    ] = counts.map(Number);
    const limits = this.limits;
    if (
      tooManyVisitorsFromOneIp(
        { minute: minuteVisitors, hour: hourVisitors },
        { perMinute: limits.visitorsPerIpPerMinute, perHour: limits.visitorsPerIpPerHour },
      )
    ) {
      return this.trip(publisherId, ipHash, day, 'ipVisitors');
    }
    if (input.evidenceFault) return input.evidenceFault;
    if (ipRequests > limits.requestsPerIpPerMinute) return 'rate';
    if (visitorMinute > limits.pageviewsPerVisitorPerMinute) return 'rate';
    if (visitorDay > limits.pageviewsPerVisitorPerDay) return 'rate';
    if (visitors >= limits.oneIpMinVisitors && fromIp > 1 && fromIp / visitors > limits.oneIpShare) {
      return this.trip(publisherId, ipHash, day, 'oneIp');
    }
    return null;
  }

  async click(input: {
    visitor: string;
    ipHash: string;
    userAgent: string;
    nowMs: number;
  }): Promise<InvalidReason | null> {
    if (this.isBot(input.userAgent)) return 'bot';
    const minute = minuteOf(input.nowMs);
    const [visitorClicks = 0, ipClicks = 0] = await this.scripts.run<number[]>(
      'heliumHit',
      [this.keys.traffic('cv', input.visitor, minute), this.keys.traffic('ci', input.ipHash, minute)],
      [MINUTE_KEY_SECONDS, MINUTE_KEY_SECONDS],
    );
    if (visitorClicks > this.limits.clicksPerVisitorPerMinute) return 'rate';
    if (ipClicks > this.limits.clicksPerIpPerMinute) return 'rate';
    return null;
  }

  /** A newsletter open: the rules of TrafficFilter.open, on shared counters. */
  async open(input: OpenRequest): Promise<InvalidReason | null> {
    const isMailProxy = this.local.isMailProxy(input.ip, input.userAgent);
    if (!isMailProxy && this.isBot(input.userAgent)) return 'bot';
    const minute = minuteOf(input.nowMs);
    const { day, publisherId } = input;
    const keys = [this.keys.traffic('ri', input.ipHash, minute)];
    if (isMailProxy) {
      keys.push(
        this.keys.traffic('pr', day, publisherId, input.visitor, input.issue),
        this.keys.traffic('pi', day, publisherId, input.issue),
      );
    } else {
      keys.push(
        this.keys.traffic('ov', input.visitor, minute),
        this.keys.traffic('od', day, publisherId, input.visitor),
        this.keys.traffic('oi', day, publisherId, input.ipHash),
      );
    }
    const limits = this.limits;
    const expiries = [MINUTE_KEY_SECONDS, ...keys.slice(1).map(() => DAY_KEY_SECONDS)];
    if (!isMailProxy) expiries[1] = MINUTE_KEY_SECONDS;
    // In the order TrafficFilter.open checks them, each counted only once the ones before let the open through (a
    // proxy address over its own cap spends none of the issue's): a count over its limit sets the open aside.
    const allowed = isMailProxy
      ? [limits.requestsPerIpPerMinute, limits.mailProxyOpensPerReaderPerIssue, limits.mailProxyOpensPerIssuePerDay]
      : [
          limits.requestsPerIpPerMinute,
          limits.opensPerVisitorPerMinute,
          limits.opensPerVisitorPerDay,
          limits.opensPerIpPerDay,
        ];
    const counts = await this.scripts.run<number[]>('heliumHit', keys, [...expiries, ...allowed]);
    return counts.some((count, index) => count > allowed[index]!) ? 'rate' : null;
  }
}

/** What each address counted on each publisher today, in Redis: the instance that trips a rule takes it. */
export class SharedTally {
  constructor(
    private readonly scripts: RedisScripts,
    private readonly keys: SharedKeys,
  ) {}

  async add(day: string, publisherId: number, ipHash: string, kind: 'impression' | 'click', id: string): Promise<void> {
    const key = this.keys.tally(day, publisherId, ipHash);
    const item = `${kind === 'impression' ? 'i' : 'c'}:${id}`;
    await this.scripts.run('heliumAppend', [key], [item, DAY_KEY_SECONDS]);
  }

  async take(day: string, publisherId: number, ipHash: string): Promise<AddressEvents | null> {
    const items = await this.scripts.run<string[]>('heliumTakeList', [this.keys.tally(day, publisherId, ipHash)], []);
    if (items.length === 0) return null;
    return {
      impressions: items.filter((item) => item.startsWith('i:')).map((item) => item.slice(2)),
      clicks: items.filter((item) => item.startsWith('c:')).map((item) => item.slice(2)),
    };
  }
}
