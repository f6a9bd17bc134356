import { getAllCitiesOfCountry, getCountries, getStatesOfCountry } from '@countrystatecity/countries';
import type { TLocation } from '@helium/contracts';
import type { Locale } from '@helium/domain';
import {
  compactSelectionItems,
  locationIdParts,
  locationSummary,
  LOCATION_ID_SEPARATOR,
  type LocationNames,
} from '@helium/domain/locations';
import { comparableName, readIpDatabasePlaces, type IpDatabasePlaces } from './ip-database-places.ts';

/*
 * The places a campaign may target (docs/targeting.md). Names come from the countries/states/cities dataset
 * (@countrystatecity/countries); ids from the IP database (geoip-lite), so that serving compares a campaign's
 * targets with a visitor's location directly: a region is one the IP database gives (its ISO 3166-2 code), a city
 * one it names in that region. Countries are named by Intl.DisplayNames in the caller's language; the dataset has
 * no French names for regions and cities, which keep their English (or local) name.
 */

/** One country's regions and cities, with the names the dataset gives them. */
interface CountryPlaces {
  regions: Array<{ id: string; name: string }>;
  cities: Array<{ id: string; regionId: string; name: string }>;
  /** Every region and city id, with its dataset name. */
  names: Map<string, string>;
}

let ipPlaces: IpDatabasePlaces | null = null;
/** The IP database's places, read on first use. */
export function ipDatabasePlaces(): IpDatabasePlaces {
  return (ipPlaces ??= readIpDatabasePlaces());
}

let countryCodes: Promise<string[]> | null = null;
/** Every country of the dataset (ISO codes). */
export function datasetCountries(): Promise<string[]> {
  return (countryCodes ??= getCountries().then((countries) => countries.map((country) => country.iso2)));
}

/** The region codes of a country that the IP database gives (some give none: country only). */
export function ipRegionCodes(country: string): string[] {
  return [...(ipDatabasePlaces().get(country)?.keys() ?? [])].filter((region) => region !== '');
}

const countryPlaces = new Map<string, Promise<CountryPlaces>>();
/** A country's regions and cities, built once (about 0.1 to 1 s a country: search-locations asks for few). */
export function placesOf(country: string): Promise<CountryPlaces> {
  let places = countryPlaces.get(country);
  if (!places) {
    places = buildCountryPlaces(country);
    countryPlaces.set(country, places);
    places.catch(() => countryPlaces.delete(country));
  }
  return places;
}

/**
 * A country's regions (the IP database's, named by the dataset's subdivision of the same code) and the dataset's
 * cities the IP database can locate. The dataset files some countries' cities under a smaller subdivision than
 * the IP database's region (French departments, not regions): such a subdivision belongs to the region where most
 * of its cities are found by name, and a city is kept only when the IP database knows its name in that region.
 */
async function buildCountryPlaces(country: string): Promise<CountryPlaces> {
  const byRegion = ipDatabasePlaces().get(country) ?? new Map<string, ReadonlyMap<string, string>>();
  const regionCodes = ipRegionCodes(country);
  const names = new Map<string, string>();
  if (regionCodes.length === 0) return { regions: [], cities: [], names };
  const regions = await regionsOf(country);
  for (const region of regions) names.set(region.id, region.name);

  const datasetCities = await getAllCitiesOfCountry(country);
  const regionsNaming = (name: string) => regionCodes.filter((code) => byRegion.get(code)?.has(name));
  // Which region each smaller subdivision lies in: where most of its cities with one candidate are.
  const tally = new Map<string, Map<string, number>>();
  for (const city of datasetCities) {
    if (regionCodes.includes(city.state_code)) continue;
    const candidates = regionsNaming(comparableName(city.name));
    if (candidates.length !== 1) continue;
    const counts = tally.get(city.state_code) ?? new Map<string, number>();
    counts.set(candidates[0]!, (counts.get(candidates[0]!) ?? 0) + 1);
    tally.set(city.state_code, counts);
  }
  const regionOfState = new Map(
    [...tally].map(([state, counts]) => [state, [...counts].sort((a, b) => b[1] - a[1])[0]![0]]),
  );

  const cities: CountryPlaces['cities'] = [];
  for (const city of datasetCities) {
    const name = comparableName(city.name);
    const region = regionCodes.includes(city.state_code)
      ? city.state_code
      : (regionOfState.get(city.state_code) ?? singleOrNull(regionsNaming(name)));
    const asGiven = region ? byRegion.get(region)?.get(name) : undefined;
    if (!region || !asGiven) continue;
    const regionId = `${country}${LOCATION_ID_SEPARATOR}${region}`;
    const id = `${regionId}${LOCATION_ID_SEPARATOR}${asGiven}`;
    if (names.has(id)) continue;
    names.set(id, city.name);
    cities.push({ id, regionId, name: city.name });
  }
  return { regions, cities, names };
}

const countryRegions = new Map<string, Promise<Array<{ id: string; name: string }>>>();
/**
 * A country's regions: the IP database's codes, named by the dataset's subdivision of the same code (the code when
 * it has none). Cheaper than its places (no cities), so a search may name every country's regions.
 */
export function regionsOf(country: string): Promise<Array<{ id: string; name: string }>> {
  let regions = countryRegions.get(country);
  if (!regions) {
    const codes = ipRegionCodes(country);
    regions =
      codes.length === 0
        ? Promise.resolve([])
        : getStatesOfCountry(country).then((states) => {
            const stateNames = new Map(states.map((state) => [state.iso2, state.name]));
            return codes.map((code) => ({
              id: `${country}${LOCATION_ID_SEPARATOR}${code}`,
              name: stateNames.get(code) ?? code,
            }));
          });
    countryRegions.set(country, regions);
    regions.catch(() => countryRegions.delete(country));
  }
  return regions;
}

function singleOrNull<T>(list: T[]): T | null {
  return list.length === 1 ? list[0]! : null;
}

const displayNames = new Map<Locale, Intl.DisplayNames>();
/** A country's name in the caller's language (Intl.DisplayNames), its code when unknown. */
export function countryName(code: string, locale: Locale): string {
  let names = displayNames.get(locale);
  if (!names) displayNames.set(locale, (names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' })));
  return names.of(code) ?? code;
}

export const byName = (locale: Locale) => {
  const collator = new Intl.Collator(locale);
  return (a: { name: string }, b: { name: string }) => collator.compare(a.name, b.name);
};

const countryLists = new Map<Locale, Promise<TLocation[]>>();
/** Every country, by name in the caller's language; a country with regions says so (they are asked for apart). */
export function listCountries(locale: Locale): Promise<TLocation[]> {
  let list = countryLists.get(locale);
  if (!list) {
    list = datasetCountries().then((codes) =>
      codes
        .map((code) => ({ code, name: countryName(code, locale) }))
        .sort(byName(locale))
        .map(({ code, name }) => ({
          id: code,
          country: name,
          ...(ipRegionCodes(code).length > 0 ? { hasRegions: true } : {}),
        })),
    );
    countryLists.set(locale, list);
    list.catch(() => countryLists.delete(locale));
  }
  return list;
}

/** What /api/locations answers, by POST or GET: the countries, or one country's regions and cities. */
export function locationsFor(country: string | undefined, locale: Locale): Promise<TLocation[]> {
  return country ? listCountry(country, locale) : listCountries(locale);
}

const countryTrees = new Map<string, Promise<TLocation[]>>();
/** A country, then its regions by name, each followed by its cities by name; empty for an unknown country. */
export function listCountry(code: string, locale: Locale): Promise<TLocation[]> {
  const key = `${locale}:${code}`;
  let list = countryTrees.get(key);
  if (!list) {
    list = buildCountryList(code, locale);
    countryTrees.set(key, list);
    list.catch(() => countryTrees.delete(key));
  }
  return list;
}

async function buildCountryList(code: string, locale: Locale): Promise<TLocation[]> {
  if (!(await datasetCountries()).includes(code)) return [];
  const country = countryName(code, locale);
  const places = await placesOf(code);
  const order = byName(locale);
  const list: TLocation[] = [{ id: code, country }];
  for (const region of [...places.regions].sort(order)) {
    list.push({ id: region.id, country, region: region.name });
    const cities = places.cities.filter((city) => city.regionId === region.id).sort(order);
    for (const city of cities) list.push({ id: city.id, country, region: region.name, city: city.name });
  }
  return list;
}

/**
 * The ids of a list that are no place a campaign can target (malformed, an unknown country, region or city),
 * in their order; empty when all are known. One check for every screen that saves a campaign's geotargeting.
 */
export async function unknownLocationIds(ids: readonly string[]): Promise<string[]> {
  const countries = await datasetCountries();
  const unknown: string[] = [];
  for (const id of ids) {
    const parts = locationIdParts(id);
    if (!parts || !countries.includes(parts.country)) unknown.push(id);
    else if (parts.region && !(await placesOf(parts.country)).names.has(id)) unknown.push(id);
  }
  return unknown;
}

/** The names of a place in the caller's language; its id's parts stand in for what is unknown. */
async function namesOf(id: string, locale: Locale): Promise<LocationNames | undefined> {
  const parts = locationIdParts(id);
  if (!parts) return undefined;
  const country = countryName(parts.country, locale);
  if (!parts.region) return { country };
  const names = (await placesOf(parts.country).catch(() => null))?.names;
  const regionId = `${parts.country}${LOCATION_ID_SEPARATOR}${parts.region}`;
  const region = names?.get(regionId) ?? parts.region;
  return parts.city ? { country, region, city: names?.get(id) ?? parts.city } : { country, region };
}

/** A campaign's geotargeting in one line ("France, Belgium: Brussels"); empty for everywhere. */
export async function geolocationSummary(ids: readonly string[], locale: Locale): Promise<string> {
  const named = new Map<string, LocationNames | undefined>();
  for (const id of ids) named.set(id, await namesOf(id, locale));
  return locationSummary(compactSelectionItems(new Set(ids), (id) => named.get(id)));
}
