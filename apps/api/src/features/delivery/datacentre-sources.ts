/**
 * The address blocks that cloud providers publish, as `npm run datacentre-ranges` turns them into the file
 * DATACENTER_IP_RANGES_FILE names (docs/configuration.md). Only compute and hosting blocks: CDN and relay
 * addresses (CloudFront, Cloudflare, Apple's private relay) carry real visitors and are left out.
 */
export interface DatacentreSource {
  name: string;
  url: string;
  /** The published document's CIDR ranges. */
  parse(body: string): string[];
}

function json(body: string): unknown {
  return JSON.parse(body) as unknown;
}

function records(value: unknown, field: string): Array<Record<string, unknown>> {
  const list = (value as Record<string, unknown> | null)?.[field];
  return Array.isArray(list) ? (list as Array<Record<string, unknown>>) : [];
}

function strings(values: unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string' && value.includes('/'));
}

export const DATACENTRE_SOURCES: DatacentreSource[] = [
  {
    name: 'Amazon Web Services (EC2)',
    url: 'https://ip-ranges.amazonaws.com/ip-ranges.json',
    parse: (body) => {
      const document = json(body);
      return strings([
        ...records(document, 'prefixes')
          .filter((prefix) => prefix.service === 'EC2')
          .map((prefix) => prefix.ip_prefix),
        ...records(document, 'ipv6_prefixes')
          .filter((prefix) => prefix.service === 'EC2')
          .map((prefix) => prefix.ipv6_prefix),
      ]);
    },
  },
  {
    name: 'Google Cloud',
    url: 'https://www.gstatic.com/ipranges/cloud.json',
    parse: (body) => strings(records(json(body), 'prefixes').map((prefix) => prefix.ipv4Prefix ?? prefix.ipv6Prefix)),
  },
  {
    name: 'Oracle Cloud',
    url: 'https://docs.oracle.com/en-us/iaas/tools/public_ip_ranges.json',
    parse: (body) =>
      strings(records(json(body), 'regions').flatMap((region) => records(region, 'cidrs').map((entry) => entry.cidr))),
  },
  {
    name: 'DigitalOcean',
    url: 'https://digitalocean.com/geo/google.csv',
    // One range a line: cidr,country,region,city,postal code.
    parse: (body) => strings(body.split(/\r?\n/).map((line) => line.split(',')[0]?.trim())),
  },
];

/** The file's text: a header saying where and when, then each source's ranges under its name. */
export function datacentreRangesFile(lists: Array<{ source: DatacentreSource; ranges: string[] }>, at: Date): string {
  const lines = [`# Data-centre IP ranges for DATACENTER_IP_RANGES_FILE, fetched ${at.toISOString()}`];
  for (const { source, ranges } of lists) {
    lines.push('', `# ${source.name}: ${source.url} (${ranges.length} ranges)`, ...ranges);
  }
  return `${lines.join('\n')}\n`;
}
