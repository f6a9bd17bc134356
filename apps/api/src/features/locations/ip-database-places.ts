import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A place name compared loosely: without accents, case or punctuation (`Saint-Étienne` is `saint etienne`). */
export function comparableName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Per country, per region code, each city the IP database can answer: its comparable name to its name as given. */
export type IpDatabasePlaces = ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, string>>>;

/** geoip-lite's locations file: fixed records of country (2 bytes), region (3), ..., city (from byte 42). */
const RECORD_BYTES = 88;
const REGION_AT = 2;
const CITY_AT = 42;

const require = createRequire(import.meta.url);

/** The folder geoip-lite reads its data from (GEODATADIR when set, as geoip-lite itself does). */
function geoipDataFolder(): string {
  const library = path.dirname(require.resolve('geoip-lite'));
  return path.resolve(library, process.env.GEODATADIR || '../data/');
}

function field(buffer: Buffer, from: number, to: number): string {
  const text = buffer.toString('utf8', from, to);
  const end = text.indexOf('\u0000');
  return end < 0 ? text : text.slice(0, end);
}

/**
 * Every country, region and city the IP database can give a visitor, read from geoip-lite's locations file
 * (about 10 MB, 0.2 s, once): the places a campaign can target and serving can match (docs/targeting.md).
 */
export function readIpDatabasePlaces(file = path.join(geoipDataFolder(), 'geoip-city-names.dat')): IpDatabasePlaces {
  const buffer = readFileSync(file);
  const places = new Map<string, Map<string, Map<string, string>>>();
  for (let at = 0; at + RECORD_BYTES <= buffer.length; at += RECORD_BYTES) {
    const country = field(buffer, at, at + REGION_AT);
    if (!country) continue;
    const region = field(buffer, at + REGION_AT, at + REGION_AT + 3);
    const city = field(buffer, at + CITY_AT, at + RECORD_BYTES);
    let regions = places.get(country);
    if (!regions) places.set(country, (regions = new Map()));
    let cities = regions.get(region);
    if (!cities) regions.set(region, (cities = new Map()));
    if (city && !cities.has(comparableName(city))) cities.set(comparableName(city), city);
  }
  return places;
}
