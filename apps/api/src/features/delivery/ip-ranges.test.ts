import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cidrInterval, IpRanges, ipv4ToNumber, ipv6ToBigInt } from './ip-ranges.ts';

describe('IP parsing', () => {
  it.each([
    ['0.0.0.0', 0],
    ['203.0.113.9', 203 * 2 ** 24 + 113 * 256 + 9],
    ['255.255.255.255', 2 ** 32 - 1],
    ['256.1.1.1', null],
    ['1.2.3', null],
    ['1.2.3.4.5', null],
    ['a.b.c.d', null],
    ['', null],
  ] as const)('IPv4 %s', (text, value) => {
    expect(ipv4ToNumber(text)).toBe(value);
  });

  it.each([
    ['::', 0n],
    ['::1', 1n],
    ['2001:db8::', 0x20010db8n << 96n],
    ['2001:DB8:0:0:0:0:0:1', (0x20010db8n << 96n) | 1n],
    ['::ffff:192.0.2.1', (0xffffn << 32n) | 0xc0000201n],
    ['fe80::1%eth0', (0xfe80n << 112n) | 1n],
    ['1::2::3', null],
    ['1:2:3:4:5:6:7:8:9', null],
    ['1:2:3:4:5:6:7', null],
    ['12345::', null],
    ['::ffff:300.0.0.1', null],
  ] as const)('IPv6 %s', (text, value) => {
    expect(ipv6ToBigInt(text)).toBe(value);
  });
});

describe('cidrInterval', () => {
  it('spans a range from its network address to its last one, a host address widened to its prefix', () => {
    expect(cidrInterval('192.0.2.77/24')).toEqual({ v6: false, start: 0xc0000200, end: 0xc00002ff });
    expect(cidrInterval('198.51.100.7')).toEqual({ v6: false, start: 0xc6336407, end: 0xc6336407 });
    expect(cidrInterval('0.0.0.0/0')).toEqual({ v6: false, start: 0, end: 2 ** 32 - 1 });
    expect(cidrInterval('2001:db8::1/127')).toEqual({
      v6: true,
      start: 0x20010db8n << 96n,
      end: (0x20010db8n << 96n) | 1n,
    });
    expect(cidrInterval('::/0')).toEqual({ v6: true, start: 0n, end: (1n << 128n) - 1n });
  });

  it.each([['10.1/16'], ['3232235777'], ['0x7f.0.0.1/8'], ['1.2.3.4/-1'], ['::1/x'], ['']])('refuses %s', (text) => {
    expect(cidrInterval(text)).toBeNull();
  });
});

describe('IpRanges', () => {
  const ranges = IpRanges.parse(
    [
      '# cloud provider blocks',
      '203.0.113.0/24',
      '198.51.100.7          # one address',
      '',
      '192.0.2.128/25',
      '192.0.2.0/25',
      '2001:db8:a::/48',
      '10.9.8.7/8',
    ].join('\n'),
  );

  it('finds the addresses inside the ranges, IPv4, IPv6 and IPv4-mapped', () => {
    for (const ip of ['203.0.113.0', '203.0.113.255', '198.51.100.7', '192.0.2.1', '192.0.2.200', '10.200.0.1']) {
      expect(ranges.has(ip), ip).toBe(true);
    }
    expect(ranges.has('2001:db8:a:ffff::1')).toBe(true);
    expect(ranges.has('::ffff:203.0.113.4')).toBe(true);
  });

  it('does not find the addresses around them, nor what is not an address', () => {
    for (const ip of ['203.0.112.255', '203.0.114.0', '198.51.100.8', '192.0.3.0', '11.0.0.0', '2001:db8:b::1']) {
      expect(ranges.has(ip), ip).toBe(false);
    }
    expect(ranges.has('not an ip')).toBe(false);
    expect(ranges.has('')).toBe(false);
  });

  it('merges overlapping and adjacent ranges (a host address is widened to its prefix)', () => {
    // 192.0.2.0/25 and 192.0.2.128/25 are one interval; 10.9.8.7/8 is 10.0.0.0/8.
    expect(ranges.size).toEqual({ v4: 4, v6: 1 });
  });

  it.each([['203.0.113.0/33'], ['203.0.113/24'], ['2001:db8::/129'], ['example.com'], ['1.2.3.4/24/8'], ['1.2.3.4/x']])(
    'refuses %s, naming its line',
    (line) => {
      expect(() => IpRanges.parse(`1.2.3.4\n${line}`, 'ranges.txt')).toThrow(`ranges.txt, line 2: not an IP range`);
    },
  );

  it('loads a file, and holds nothing when empty', () => {
    const folder = mkdtempSync(join(tmpdir(), 'helium-ranges-'));
    const file = join(folder, 'datacenters.txt');
    writeFileSync(file, '203.0.113.0/24\n');
    expect(IpRanges.load(file).has('203.0.113.77')).toBe(true);
    expect(IpRanges.EMPTY.has('203.0.113.77')).toBe(false);
    expect(() => IpRanges.load(join(folder, 'missing.txt'))).toThrow(/missing\.txt/);
  });
});
