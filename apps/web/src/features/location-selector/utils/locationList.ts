import type { TLocation } from '@helium/contracts';

/** The default address of the location list (specification 01, section 9). */
export const DEFAULT_LOCATIONS_ENDPOINT = '/api/locations';

/**
 * The location list in an endpoint's answer (specification 01, section 7): `data.data`, else `data.locations`,
 * else the answer itself; entries without a string `id` and `country` are left out.
 */
export function locationListOf(data: unknown): TLocation[] {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const list = Array.isArray(record.data) ? record.data : Array.isArray(record.locations) ? record.locations : data;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (entry): entry is TLocation =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as TLocation).id === 'string' &&
      typeof (entry as TLocation).country === 'string',
  );
}

/** A place with what it is in, smallest first: `São Paulo — São Paulo — Brazil`, `Île-de-France — France`. */
export function placeLabel(place: TLocation): string {
  return [place.city, place.region, place.country].filter((name) => name !== undefined && name !== '').join(' — ');
}
