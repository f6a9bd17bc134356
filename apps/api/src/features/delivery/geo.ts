import { createRequire } from 'node:module';
import type { VisitorLocation } from '@helium/domain';

/** The part of geoip-lite this uses (its data ships inside the package: no download, works offline). */
interface GeoipLite {
  lookup(ip: string): { country: string; region: string; city: string } | null;
}

/** A lookup of one IP; the default reads geoip-lite's database. */
export type IpLookup = (ip: string) => VisitorLocation | null;

const require = createRequire(import.meta.url);

/** geoip-lite reads its whole database into memory when first required (about 150 MB, 0.15 s): only when needed. */
function geoipLookup(): IpLookup {
  const geoip = require('geoip-lite') as GeoipLite;
  return (ip) => {
    const found = geoip.lookup(ip);
    if (!found?.country) return null;
    return {
      country: found.country,
      ...(found.region ? { region: found.region } : {}),
      ...(found.region && found.city ? { city: found.city } : {}),
    };
  };
}

/**
 * The visitor's location from the IP, for geotargeting: country (ISO 3166-1 alpha-2), region (the ISO
 * 3166-2 subdivision code geoip-lite gives, such as `IDF`) and city. Looked up once per pageview and kept
 * per IP (the most recent `maxEntries` IPs), so a visitor's later pageviews cost a map read. Private,
 * loopback and unknown addresses have no location: only untargeted campaigns reach them.
 */
export class GeoLocator {
  private lookup: IpLookup | null;
  private readonly cache = new Map<string, VisitorLocation | null>();

  constructor(
    lookup?: IpLookup,
    private readonly maxEntries = 50_000,
  ) {
    this.lookup = lookup ?? null;
  }

  /** Loads the database now (at index load, when some campaign is geotargeted), not during a request. */
  load(): void {
    this.lookup ??= geoipLookup();
  }

  locate(ip: string): VisitorLocation | null {
    const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    const cached = this.cache.get(address);
    if (cached !== undefined) return cached;
    this.load();
    const location = this.lookup!(address);
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(address, location);
    return location;
  }
}
