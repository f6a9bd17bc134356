import { cidrInterval } from './ip-ranges.ts';
import type { MailProxyProvider } from './mail-proxies.ts';

/*
 * Where the mail proxies' address ranges come from, as `npm run mail-proxy-ranges` turns the providers' published
 * lists into mail-proxy-ranges.txt (read by mail-proxies.ts). Only lists the providers publish themselves.
 */

export interface MailProxySource {
  provider: MailProxyProvider;
  /** What the section holds, for the file's header. */
  description: string;
  /** The published documents, fetched in this order. */
  urls: string[];
  /** The section's CIDR ranges from the documents' bodies, and the date they say they were published, if they do. */
  parse(bodies: string[]): { ranges: string[]; publishedAt: string | null };
}

/** A range as an interval of addresses of one family. */
interface Interval {
  v6: boolean;
  start: bigint;
  end: bigint;
}

function intervalOf(cidr: string): Interval {
  const interval = cidrInterval(cidr.trim());
  if (!interval) throw new Error(`Not an IP range: ${cidr}`);
  return { v6: interval.v6, start: BigInt(interval.start), end: BigInt(interval.end) };
}

/** Sorted, merged (overlapping or adjacent joined), per family. */
function merged(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) =>
    a.v6 !== b.v6 ? (a.v6 ? 1 : -1) : a.start < b.start ? -1 : a.start > b.start ? 1 : 0,
  );
  const out: Interval[] = [];
  for (const interval of sorted) {
    const last = out.at(-1);
    if (last && last.v6 === interval.v6 && interval.start <= last.end + 1n) {
      if (interval.end > last.end) last.end = interval.end;
    } else {
      out.push({ ...interval });
    }
  }
  return out;
}

/** The intervals less every address of `removed`. */
function without(kept: Interval[], removed: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const interval of kept) {
    let pieces = [interval];
    for (const cut of removed) {
      if (cut.v6 !== interval.v6) continue;
      pieces = pieces.flatMap((piece) => {
        if (cut.end < piece.start || cut.start > piece.end) return [piece];
        const left = cut.start > piece.start ? [{ ...piece, end: cut.start - 1n }] : [];
        const right = cut.end < piece.end ? [{ ...piece, start: cut.end + 1n }] : [];
        return [...left, ...right];
      });
    }
    out.push(...pieces);
  }
  return out;
}

function formatAddress(value: bigint, v6: boolean): string {
  if (!v6) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, index) => Number((value >> BigInt(112 - 16 * index)) & 0xffffn));
  // The longest run of two or more zero groups becomes `::`.
  let best = { at: -1, length: 0 };
  for (let at = 0; at < 8; at++) {
    let length = 0;
    while (at + length < 8 && groups[at + length] === 0) length++;
    if (length > best.length && length >= 2) best = { at, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}

/** An interval as the fewest CIDR blocks that cover exactly it. */
function cidrsOf(interval: Interval): string[] {
  const bits = interval.v6 ? 128n : 32n;
  const out: string[] = [];
  let start = interval.start;
  while (start <= interval.end) {
    let hostBits = 0n;
    // The largest block aligned at `start` that does not pass the end.
    while (
      hostBits < bits &&
      (start & ((1n << (hostBits + 1n)) - 1n)) === 0n &&
      start + (1n << (hostBits + 1n)) - 1n <= interval.end
    ) {
      hostBits++;
    }
    out.push(`${formatAddress(start, interval.v6)}/${bits - hostBits}`);
    start += 1n << hostBits;
  }
  return out;
}

/** The addresses of `ranges` less those of `removed`, as merged CIDR blocks (IPv4 first). */
export function cidrDifference(ranges: string[], removed: string[] = []): string[] {
  return without(merged(ranges.map(intervalOf)), merged(removed.map(intervalOf))).flatMap(cidrsOf);
}

function prefixesOf(body: string): { ranges: string[]; creationTime: string | null } {
  const document = JSON.parse(body) as { creationTime?: unknown; prefixes?: Array<Record<string, unknown>> };
  const ranges = (document.prefixes ?? [])
    .map((prefix) => prefix.ipv4Prefix ?? prefix.ipv6Prefix)
    .filter((range): range is string => typeof range === 'string');
  return { ranges, creationTime: typeof document.creationTime === 'string' ? document.creationTime : null };
}

export const MAIL_PROXY_SOURCES: MailProxySource[] = [
  {
    provider: 'google',
    description:
      "Gmail's image proxy (GoogleImageProxy) fetches from Google's own addresses: every range Google publishes " +
      'less those it rents to Google Cloud customers, which is how Google says to find the addresses of its own ' +
      'services (anyone can rent a Cloud address; nobody else fetches from the rest).',
    urls: ['https://www.gstatic.com/ipranges/goog.json', 'https://www.gstatic.com/ipranges/cloud.json'],
    parse: ([google = '', cloud = '']) => {
      const all = prefixesOf(google);
      return { ranges: cidrDifference(all.ranges, prefixesOf(cloud).ranges), publishedAt: all.creationTime };
    },
  },
  {
    provider: 'apple',
    description:
      "Apple Mail's Mail Privacy Protection loads images through iCloud Private Relay, from its egress addresses " +
      '(the first column of the list Apple publishes, merged).',
    urls: ['https://mask-api.icloud.com/egress-ip-ranges.csv'],
    // One range a line: prefix,country,region,city,
    parse: ([csv = '']) => ({
      ranges: cidrDifference(
        csv
          .split(/\r?\n/)
          .map((line) => line.split(',')[0]?.trim() ?? '')
          .filter((range) => /^[0-9a-f.:]+(\/\d+)?$/i.test(range)),
      ),
      publishedAt: null,
    }),
  },
];

/** Why there is no section for Yahoo's proxy (docs/configuration.md). */
export const YAHOO_NOT_PUBLISHED =
  'No [yahoo] section: Yahoo publishes no list of the addresses its mail proxy (YahooMailProxy) fetches from, ' +
  "as Google and Apple do, so its opens are judged as any reader's (isbot calls its user agent a bot).";

/** The file's text: a header, then each source's section with where and when its ranges were taken. */
export function mailProxyRangesFile(
  lists: Array<{ source: MailProxySource; ranges: string[]; takenAt: string; note?: string }>,
): string {
  const lines = [
    "# Mail services' image proxies for apps/api/src/features/delivery/mail-proxies.ts: an open whose user agent",
    "# is a provider's proxy's counts as mail proxy opens only from that provider's ranges below.",
    '# Written by `npm run mail-proxy-ranges` (scripts/mail-proxy-ranges.ts) from the published lists named.',
    '#',
    ...wrapComment(YAHOO_NOT_PUBLISHED),
  ];
  for (const { source, ranges, takenAt, note } of lists) {
    lines.push('', `[${source.provider}]`, ...wrapComment(source.description));
    for (const url of source.urls) lines.push(`# Source: ${url}`);
    lines.push(`# Taken: ${takenAt} (${ranges.length} ranges)`);
    if (note) lines.push(...wrapComment(note));
    lines.push(...ranges);
  }
  return `${lines.join('\n')}\n`;
}

/** A comment's text in lines of at most 116 characters. */
function wrapComment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length + word.length + 1 > 116) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}
