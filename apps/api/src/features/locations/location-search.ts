import type { TLocation } from '@helium/contracts';
import type { Locale } from '@helium/domain';
import { LOCATION_ID_SEPARATOR, LOCATION_SEARCH_LIMIT } from '@helium/domain/locations';
import {
  byName,
  countryName,
  datasetCountries,
  ipDatabasePlaces,
  listCountries,
  placesOf,
  regionsOf,
} from './location-catalogue.ts';
import { comparableName } from './ip-database-places.ts';

/*
 * The search of places (search-locations; docs/targeting.md, "Searching places"). Countries and regions are few
 * and named cheaply; a country's cities are only known once its places are built (about 0.1 to 1 s each), so the
 * cities are first found by name among the IP database's (114,000, their names already comparable), and only the
 * countries of the best of them are built, to keep those the list has and name them as it does.
 */

/** How many countries' cities one search may look into: a short query matches cities in most of them. */
export const SEARCH_CITY_COUNTRIES = 4;

/** How well a name matches, best first: the whole name, its start, a word's start, anywhere; null: not at all. */
export function matchRank(comparable: string, needle: string): number | null {
  if (comparable === needle) return 0;
  if (comparable.startsWith(needle)) return 1;
  if (` ${comparable}`.includes(` ${needle}`)) return 2;
  return comparable.includes(needle) ? 3 : null;
}

interface Candidate {
  id: string;
  rank: number;
  /** 0 country, 1 region, 2 city: at the same rank, the larger place first. */
  level: number;
  name: string;
}

const LEVELS = { country: 0, region: 1, city: 2 } as const;

/** The IP database's regions: its codes per country, for the regions' index. */
let regionIndex: Promise<Array<{ id: string; name: string; comparable: string }>> | null = null;
function allRegions() {
  if (!regionIndex) {
    regionIndex = datasetCountries()
      .then((codes) => Promise.all(codes.map((code) => regionsOf(code))))
      .then((lists) => lists.flat().map((region) => ({ ...region, comparable: comparableName(region.name) })));
    regionIndex.catch(() => (regionIndex = null));
  }
  return regionIndex;
}

/** The places whose name holds the query (accents, case and punctuation aside), best matches first. */
export async function searchLocations(
  query: string,
  locale: Locale,
  limit = LOCATION_SEARCH_LIMIT,
): Promise<TLocation[]> {
  const needle = comparableName(query);
  if (needle.length === 0) return [];
  const candidates: Candidate[] = [];
  const add = (id: string, level: number, name: string, comparable: string) => {
    const rank = matchRank(comparable, needle);
    if (rank !== null) candidates.push({ id, rank, level, name });
  };

  const countries = await listCountries(locale);
  for (const country of countries) add(country.id, LEVELS.country, country.country, comparableName(country.country));
  for (const region of await allRegions()) add(region.id, LEVELS.region, region.name, region.comparable);
  const known = new Set(countries.map((country) => country.id));
  for (const [country, regions] of ipDatabasePlaces()) {
    if (!known.has(country)) continue;
    for (const [region, cities] of regions) {
      if (region === '') continue;
      for (const [comparable, asGiven] of cities) {
        add(
          `${country}${LOCATION_ID_SEPARATOR}${region}${LOCATION_ID_SEPARATOR}${asGiven}`,
          LEVELS.city,
          asGiven,
          comparable,
        );
      }
    }
  }

  const order = byName(locale);
  candidates.sort((a, b) => a.rank - b.rank || a.level - b.level || order(a, b) || (a.id < b.id ? -1 : 1));

  const found: TLocation[] = [];
  const cityCountries = new Set<string>();
  for (const candidate of candidates) {
    if (found.length >= limit) break;
    const [code, region] = candidate.id.split(LOCATION_ID_SEPARATOR) as [string, string?];
    const country = countryName(code, locale);
    if (candidate.level === LEVELS.country) found.push({ id: candidate.id, country });
    else if (candidate.level === LEVELS.region) found.push({ id: candidate.id, country, region: candidate.name });
    else {
      if (!cityCountries.has(code) && cityCountries.size >= SEARCH_CITY_COUNTRIES) continue;
      cityCountries.add(code);
      // Only the cities the list has (the IP database's that the dataset names), named as it names them.
      const { names } = await placesOf(code);
      const city = names.get(candidate.id);
      if (city === undefined) continue;
      found.push({ id: candidate.id, country, region: names.get(`${code}${LOCATION_ID_SEPARATOR}${region}`), city });
    }
  }
  return found;
}
