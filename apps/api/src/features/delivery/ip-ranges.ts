import { readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

const valueOfV4 = (address: ipaddr.IPv4) => address.octets.reduce((value, byte) => value * 256 + byte, 0);
const valueOfV6 = (address: ipaddr.IPv6) => address.parts.reduce((value, part) => (value << 16n) | BigInt(part), 0n);

/*
 * Per request, Node's own check (net.isIPv4/isIPv6, native) picks the family and ipaddr.js parses only what it
 * accepted: together faster than either ipaddr.js's `parse` or the hand-written parser they replace
 * (docs/performance.md, "IP range lookups").
 */

/** An IPv4 address as an unsigned 32-bit number, or null when the text is not one. */
export function ipv4ToNumber(text: string): number | null {
  return isIPv4(text) ? valueOfV4(ipaddr.IPv4.parse(text)) : null;
}

/** An IPv6 address as a 128-bit bigint, or null when the text is not one (zone ids are dropped). */
export function ipv6ToBigInt(text: string): bigint | null {
  return isIPv6(text) ? valueOfV6(ipaddr.IPv6.parse(text)) : null;
}

/**
 * The addresses of a range in CIDR notation (`203.0.113.0/24`, `2001:db8::/32`) or of one address, parsed and
 * checked by ipaddr.js (IPv4 in four decimal parts only: `203.0.113/24` is refused); null when the text is not one.
 */
export function cidrInterval(text: string): Interval<number> | Interval<bigint> | null {
  const slash = text.indexOf('/');
  let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    parsed = slash < 0 ? [ipaddr.parse(text), isIPv4(text) ? 32 : 128] : ipaddr.parseCIDR(text);
  } catch {
    return null;
  }
  const [address, bits] = parsed;
  if (address.kind() === 'ipv4') {
    if (!isIPv4(slash < 0 ? text : text.slice(0, slash))) return null;
    const size = 2 ** (32 - bits);
    const start = valueOfV4(address as ipaddr.IPv4);
    return { v6: false, start: start - (start % size), end: start - (start % size) + size - 1 };
  }
  const hostBits = BigInt(128 - bits);
  const start = (valueOfV6(address as ipaddr.IPv6) >> hostBits) << hostBits;
  return { v6: true, start, end: start + (1n << hostBits) - 1n };
}

/** The first and last address of a range, of one family. */
interface Interval<T extends number | bigint> {
  v6: T extends bigint ? true : false;
  start: T;
  end: T;
}

/** Sorted, merged [start, end] intervals; `has` is a binary search. */
class Intervals<T extends number | bigint> {
  private starts: T[] = [];
  private ends: T[] = [];

  /** `successor` gives the next address (merging adjacent intervals). */
  constructor(intervals: Array<[T, T]>, successor: (value: T) => T) {
    intervals.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [start, end] of intervals) {
      const last = this.ends.length - 1;
      const lastEnd = this.ends[last];
      if (lastEnd !== undefined && start <= successor(lastEnd)) {
        if (end > lastEnd) this.ends[last] = end;
      } else {
        this.starts.push(start);
        this.ends.push(end);
      }
    }
  }

  get size(): number {
    return this.starts.length;
  }

  has(value: T): boolean {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((this.starts[middle] as T) > value) high = middle - 1;
      else if ((this.ends[middle] as T) < value) low = middle + 1;
      else return true;
    }
    return false;
  }
}

/**
 * A set of IP ranges (IPv4 and IPv6, in CIDR notation or single addresses), such as the address blocks of
 * cloud and hosting providers, whose traffic docs/decisions.md section 4 counts as invalid. Looked up on every
 * pageview, view and click: a binary search over merged intervals, whatever the number of ranges.
 */
export class IpRanges {
  private readonly v4: Intervals<number>;
  private readonly v6: Intervals<bigint>;

  private constructor(v4: Array<[number, number]>, v6: Array<[bigint, bigint]>) {
    this.v4 = new Intervals(v4, (value) => value + 1);
    this.v6 = new Intervals(v6, (value) => value + 1n);
  }

  static readonly EMPTY = new IpRanges([], []);

  /**
   * Parses one range per line (`203.0.113.0/24`, `2001:db8::/32`, `198.51.100.7`); blank lines and text after
   * `#` are ignored. A line that is not a range throws, naming its number.
   */
  static parse(text: string, source = 'ranges'): IpRanges {
    const v4: Array<[number, number]> = [];
    const v6: Array<[bigint, bigint]> = [];
    text.split(/\r?\n/).forEach((line, index) => {
      const range = line.replace(/#.*/, '').trim();
      if (range === '') return;
      const interval = cidrInterval(range);
      if (!interval) throw new Error(`${source}, line ${index + 1}: not an IP range in CIDR notation: ${range}`);
      if (interval.v6) v6.push([interval.start, interval.end]);
      else v4.push([interval.start, interval.end]);
    });
    return new IpRanges(v4, v6);
  }

  /** The ranges of a file, as `parse`; an unreadable file throws with its path. */
  static load(path: string): IpRanges {
    return IpRanges.parse(readFileSync(path, 'utf8'), path);
  }

  /** How many merged intervals it holds (IPv4, IPv6). */
  get size(): { v4: number; v6: number } {
    return { v4: this.v4.size, v6: this.v6.size };
  }

  /** Whether the address (IPv4, IPv6, or IPv4-mapped IPv6) is in one of the ranges; false for anything else. */
  has(ip: string): boolean {
    if (this.v4.size === 0 && this.v6.size === 0) return false;
    if (isIPv4(ip)) return this.v4.has(valueOfV4(ipaddr.IPv4.parse(ip)));
    if (!isIPv6(ip)) return false;
    const address = ipaddr.IPv6.parse(ip);
    // ::ffff:a.b.c.d, as a dual-stack socket reports an IPv4 visitor.
    if (address.isIPv4MappedAddress()) return this.v4.has(valueOfV4(address.toIPv4Address()));
    return this.v6.has(valueOfV6(address));
  }
}
