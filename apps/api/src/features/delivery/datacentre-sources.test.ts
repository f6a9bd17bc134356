import { describe, expect, it } from 'vitest';
import { DATACENTRE_SOURCES, datacentreRangesFile } from './datacentre-sources.ts';
import { IpRanges } from './ip-ranges.ts';

/** Excerpts in each provider's published format. */
const SAMPLES: Record<string, { body: string; ranges: string[] }> = {
  'Amazon Web Services (EC2)': {
    body: JSON.stringify({
      prefixes: [
        { ip_prefix: '3.5.140.0/22', region: 'ap-northeast-2', service: 'EC2' },
        { ip_prefix: '13.32.0.0/15', region: 'GLOBAL', service: 'CLOUDFRONT' },
      ],
      ipv6_prefixes: [{ ipv6_prefix: '2600:1f14::/35', region: 'us-west-2', service: 'EC2' }],
    }),
    ranges: ['3.5.140.0/22', '2600:1f14::/35'],
  },
  'Google Cloud': {
    body: JSON.stringify({
      prefixes: [
        { ipv4Prefix: '34.1.208.0/20', service: 'Google Cloud', scope: 'africa-south1' },
        { ipv6Prefix: '2600:1900:8000::/44', service: 'Google Cloud', scope: 'africa-south1' },
      ],
    }),
    ranges: ['34.1.208.0/20', '2600:1900:8000::/44'],
  },
  'Oracle Cloud': {
    body: JSON.stringify({
      regions: [{ region: 'eu-paris-1', cidrs: [{ cidr: '138.2.160.0/20', tags: ['OCI'] }] }],
    }),
    ranges: ['138.2.160.0/20'],
  },
  DigitalOcean: {
    body: '5.101.96.0/21,NL,NL-NH,Amsterdam,1098\n2a03:b0c0:0::/48,NL,NL-NH,Amsterdam,1098\n\n',
    ranges: ['5.101.96.0/21', '2a03:b0c0:0::/48'],
  },
};

describe('data-centre sources', () => {
  it.each(DATACENTRE_SOURCES.map((source) => [source.name, source] as const))(
    '%s: reads its published format (compute blocks only)',
    (name, source) => {
      const sample = SAMPLES[name];
      expect(sample).toBeDefined();
      expect(source.parse(sample!.body)).toEqual(sample!.ranges);
      expect(source.url).toMatch(/^https:\/\//);
    },
  );

  it('writes a file the server reads', () => {
    const lists = DATACENTRE_SOURCES.map((source) => ({ source, ranges: SAMPLES[source.name]!.ranges }));
    const text = datacentreRangesFile(lists, new Date('2026-11-22T12:00:00Z'));
    expect(text).toContain('fetched 2026-11-22T12:00:00.000Z');
    const ranges = IpRanges.parse(text);
    expect(ranges.has('3.5.141.7')).toBe(true);
    expect(ranges.has('2a03:b0c0::1')).toBe(true);
    // CloudFront carries real visitors: not listed.
    expect(ranges.has('13.32.0.1')).toBe(false);
  });
});
