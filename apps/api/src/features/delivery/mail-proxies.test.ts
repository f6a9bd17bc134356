import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAIL_PROXY_RANGES_FILE, MailProxyRanges, mailProxyNamed } from './mail-proxies.ts';
import { cidrDifference, MAIL_PROXY_SOURCES, mailProxyRangesFile } from './mail-proxy-sources.ts';

/*
 * The mail proxies' published ranges (issue 32): the file kept in the repository, how it is read, and how
 * `npm run mail-proxy-ranges` writes it from Google's and Apple's lists.
 */

const GMAIL = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
const APPLE = 'Mozilla/5.0';
const YAHOO = 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html';

describe('mailProxyNamed', () => {
  it.each([
    [GMAIL, 'google'],
    [APPLE, 'apple'],
    [YAHOO, 'yahoo'],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 GoogleImageProxy', null],
    ['Mozilla/5.0 ', null],
    ['x YahooMailProxy; y', null],
  ])('%j names %s', (userAgent, provider) => {
    expect(mailProxyNamed(userAgent)).toBe(provider);
  });
});

describe("the repository's file", () => {
  const published = MailProxyRanges.published();

  it('holds Google and Apple, each with its sources and the date they were taken, and no Yahoo', () => {
    expect(Object.keys(published.sizes).sort()).toEqual(['apple', 'google']);
    const text = readFileSync(MAIL_PROXY_RANGES_FILE, 'utf8');
    for (const url of MAIL_PROXY_SOURCES.flatMap((source) => source.urls)) expect(text).toContain(`# Source: ${url}`);
    expect(text.match(/^# Taken: \d{4}-\d{2}-\d{2}T/gm)).toHaveLength(2);
    expect(text).toContain('No [yahoo] section');
  });

  it.each([
    ['a Gmail image proxy address', '66.249.84.10', GMAIL, true],
    ['another of Google’s own blocks', '66.102.1.20', GMAIL, true],
    ['a Google Cloud customer’s address (cloud.json)', '34.35.0.1', GMAIL, false],
    ['an iCloud Private Relay egress address', '104.28.28.1', APPLE, true],
    ['an iCloud Private Relay egress address as a dual-stack socket shows it', '::ffff:104.28.28.1', APPLE, true],
    ['a Google address with Apple’s user agent', '66.249.84.10', APPLE, false],
    ['an Apple egress address with Gmail’s user agent', '104.28.28.1', GMAIL, false],
    ['an address of nobody’s proxy', '203.0.113.50', APPLE, false],
    ['a home address', '82.64.10.20', GMAIL, false],
    ['Yahoo’s user agent from anywhere', '66.249.84.10', YAHOO, false],
  ])('%s (%s): %s', (_label, ip, userAgent, trusted) => {
    expect(published.isMailProxy(ip, userAgent)).toBe(trusted);
  });
});

describe('MailProxyRanges.parse', () => {
  it('reads [provider] sections of ranges and comments', () => {
    const ranges = MailProxyRanges.parse('# header\n[google]\n192.0.2.0/24 # a block\n\n[apple]\n2001:db8::/32\n');
    expect(ranges.sizes).toEqual({ google: { v4: 1, v6: 0 }, apple: { v4: 0, v6: 1 } });
    expect(ranges.isMailProxy('192.0.2.9', GMAIL)).toBe(true);
    expect(ranges.isMailProxy('2001:db8::1', APPLE)).toBe(true);
    expect(MailProxyRanges.EMPTY.isMailProxy('192.0.2.9', GMAIL)).toBe(false);
  });

  it.each([
    ['a range before any section', '192.0.2.0/24\n[google]\n', 'line 1: a range before any [provider] section'],
    ['an unknown provider', '[google]\n192.0.2.0/24\n[hotmail]\n', 'line 3: unknown provider [hotmail]'],
    ['a line that is not a range', '[google]\n192.0.2.0/24\n\n[apple]\n2001:db8::/32\nnot-a-range\n', 'line 6'],
  ])('refuses %s, naming the line', (_label, text, message) => {
    expect(() => MailProxyRanges.parse(text, 'ranges.txt')).toThrow(message);
  });
});

describe('cidrDifference', () => {
  it('removes the ranges of the second list, leaving the fewest blocks', () => {
    expect(cidrDifference(['10.0.0.0/8'], ['10.0.0.0/9'])).toEqual(['10.128.0.0/9']);
    expect(cidrDifference(['10.0.0.0/24'], ['10.0.0.128/26'])).toEqual(['10.0.0.0/25', '10.0.0.192/26']);
    expect(cidrDifference(['2600:1900::/28'], ['2600:1900:8000::/33'])).toEqual([
      '2600:1900::/33',
      '2600:1901::/32',
      '2600:1902::/31',
      '2600:1904::/30',
      '2600:1908::/29',
    ]);
  });

  it('merges overlapping and adjacent ranges, single addresses included, IPv4 first', () => {
    expect(
      cidrDifference(['2001:db8::/33', '192.0.2.0/25', '192.0.2.128/25', '192.0.2.7', '2001:db8:8000::/33']),
    ).toEqual(['192.0.2.0/24', '2001:db8::/32']);
    expect(cidrDifference(['192.0.2.1', '192.0.2.2'])).toEqual(['192.0.2.1/32', '192.0.2.2/32']);
  });
});

describe('the published lists', () => {
  const google = MAIL_PROXY_SOURCES.find((source) => source.provider === 'google')!;
  const apple = MAIL_PROXY_SOURCES.find((source) => source.provider === 'apple')!;

  it("Google: every range of goog.json less cloud.json's, dated by goog.json's creationTime", () => {
    const goog = JSON.stringify({
      creationTime: '2026-11-20T07:05:03.68994',
      prefixes: [{ ipv4Prefix: '66.249.64.0/19' }, { ipv4Prefix: '34.0.0.0/15' }, { ipv6Prefix: '2001:4860::/32' }],
    });
    const cloud = JSON.stringify({
      prefixes: [{ ipv4Prefix: '34.0.0.0/16', service: 'Google Cloud', scope: 'us-east1' }],
    });
    expect(google.parse([goog, cloud])).toEqual({
      ranges: ['34.1.0.0/16', '66.249.64.0/19', '2001:4860::/32'],
      publishedAt: '2026-11-20T07:05:03.68994',
    });
  });

  it("Apple: the egress list's first column, merged", () => {
    const csv =
      '172.224.226.0/27,GB,GB-EN,London,\n172.224.226.32/27,GB,GB-EN,London,\n2a02:26f7:b3c0:4000::/64,FR,FR-75,Paris,\n';
    expect(apple.parse([csv])).toEqual({ ranges: ['172.224.226.0/26', '2a02:26f7:b3c0:4000::/64'], publishedAt: null });
  });

  it('writes a file the server reads, each section with its sources and date', () => {
    const text = mailProxyRangesFile([
      { source: google, ranges: ['66.249.64.0/19'], takenAt: '2026-11-20T07:05:03' },
      { source: apple, ranges: ['172.224.226.0/26'], takenAt: '2026-11-21T00:00:00Z', note: 'A copy.' },
    ]);
    expect(text).toContain('# Taken: 2026-11-20T07:05:03 (1 ranges)');
    expect(text).toContain('# A copy.');
    const ranges = MailProxyRanges.parse(text);
    expect(ranges.isMailProxy('66.249.80.1', GMAIL)).toBe(true);
    expect(ranges.isMailProxy('172.224.226.9', APPLE)).toBe(true);
  });
});
