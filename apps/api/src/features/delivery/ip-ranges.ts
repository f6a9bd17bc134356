import { readFileSync } from 'node:fs';

/** An IPv4 address as an unsigned 32-bit number, or null when the text is not one. */
export function ipv4ToNumber(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

/** An IPv6 address as a 128-bit bigint, or null when the text is not one (zone ids are dropped). */
export function ipv6ToBigInt(text: string): bigint | null {
  let address = text.split('%')[0] ?? '';
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes its two groups.
  const lastColon = address.lastIndexOf(':');
  if (lastColon >= 0 && address.includes('.', lastColon)) {
    const v4 = ipv4ToNumber(address.slice(lastColon + 1));
    if (v4 === null) return null;
    address = `${address.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
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
      const [address = '', prefixText, ...rest] = range.split('/');
      const prefix = prefixText === undefined ? null : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      const fail = () => {
        throw new Error(`${source}, line ${index + 1}: not an IP range in CIDR notation: ${range}`);
      };
      if (rest.length > 0) fail();
      const asV4 = ipv4ToNumber(address);
      if (asV4 !== null) {
        const bits = prefix ?? 32;
        if (!(bits >= 0 && bits <= 32)) fail();
        const size = 2 ** (32 - bits);
        const start = asV4 - (asV4 % size);
        v4.push([start, start + size - 1]);
        return;
      }
      const asV6 = ipv6ToBigInt(address);
      if (asV6 === null) return fail();
      const bits = prefix ?? 128;
      if (!(bits >= 0 && bits <= 128)) fail();
      const hostBits = BigInt(128 - bits);
      const start = (asV6 >> hostBits) << hostBits;
      v6.push([start, start + (1n << hostBits) - 1n]);
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
    const asV4 = ipv4ToNumber(ip);
    if (asV4 !== null) return this.v4.has(asV4);
    const asV6 = ipv6ToBigInt(ip);
    if (asV6 === null) return false;
    // ::ffff:a.b.c.d, as a dual-stack socket reports an IPv4 visitor.
    if (asV6 >> 32n === 0xffffn) return this.v4.has(Number(asV6 & 0xffffffffn));
    return this.v6.has(asV6);
  }
}
