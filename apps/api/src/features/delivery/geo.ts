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
 * The visitor's location from the IP, for geotargeting and the country figures: country (ISO 3166-1 alpha-2),
 * region (the ISO 3166-2 subdivision code geoip-lite gives, such as `IDF`) and city. Looked up once per pageview
 * and kept per IP (about the most recent `maxEntries` IPs), so a visitor's later pageviews cost a map read.
 * Private, loopback and unknown addresses have no location: only untargeted campaigns reach them.
 */
export class GeoLocator {
  private lookup: IpLookup | null;
  /**
   * Two generations of half the size each: a full current one becomes the previous one, whose IPs move back to
   * the current one when seen again. Forgetting the oldest one by one (a Map's first key) costs more and more as
   * deleted entries pile up at the front of the Map: 100 us a lookup of a new IP once the cache was full.
   */
  private current = new Map<string, VisitorLocation | null>();
  private previous = new Map<string, VisitorLocation | null>();
  private readonly generationSize: number;

  constructor(lookup?: IpLookup, maxEntries = 50_000) {
    this.lookup = lookup ?? null;
    this.generationSize = Math.max(1, Math.ceil(maxEntries / 2));
  }

  /** Loads the database now (when the index loads), not during a request. */
  load(): void {
    this.lookup ??= geoipLookup();
  }

  locate(ip: string): VisitorLocation | null {
    const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    const cached = this.current.get(address);
    if (cached !== undefined) return cached;
    const older = this.previous.get(address);
    const location = older !== undefined ? older : this.find(address);
    if (this.current.size >= this.generationSize) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(address, location);
    return location;
  }

  private find(address: string): VisitorLocation | null {
    this.load();
    return this.lookup!(address);
  }
}
