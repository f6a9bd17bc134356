import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { locationsCall, type TLocation } from '@helium/contracts';
import { buildLocationTree, type LocationTree } from '@helium/domain/locations';
import { apiErrorMessage, apiPost } from '../../../api/client.ts';
import { locationListOf } from '../utils/locationList.ts';

export type LocationsStatus = 'loading' | 'error' | 'loaded';

/** What is loaded: every entry by id, the ids in the endpoint's order, and the countries whose regions are to come. */
export interface LoadedLocations {
  entries: ReadonlyMap<string, TLocation>;
  order: readonly string[];
  pending: ReadonlySet<string>;
}

/** The tree of what is loaded, and its entries. */
export interface LoadedTree {
  tree: LocationTree;
  entries: ReadonlyMap<string, TLocation>;
}

/** A country whose regions are being asked for, or whose request failed (its message). */
export type CountryLoad = { loading: true } | { loading: false; error: string };

const NOTHING: LoadedLocations = { entries: new Map(), order: [], pending: new Set() };

/** The endpoint's list (a POST, as the specification has it; `{ country }` for one country's regions and cities). */
function fetchLocations(endpoint: string, country?: string): Promise<TLocation[]> {
  const call = { ...locationsCall, path: endpoint } as typeof locationsCall;
  return apiPost(call, country ? { country } : {}).then(locationListOf);
}

export function errorText(error: unknown): string {
  return apiErrorMessage(error) ?? (error instanceof Error ? error.message : String(error));
}

/** Adds a list to what is loaded; `country` names the country it details, which is then no longer pending. */
function merge(loaded: LoadedLocations, list: readonly TLocation[], country?: string): LoadedLocations {
  const entries = new Map(loaded.entries);
  const order = [...loaded.order];
  const pending = new Set(loaded.pending);
  const withRegions = new Set(list.filter((entry) => entry.region).map((entry) => entry.id.split('/')[0]!));
  for (const entry of list) {
    if (!entries.has(entry.id)) order.push(entry.id);
    entries.set(entry.id, { ...entries.get(entry.id), ...entry });
    if (entry.hasRegions && !entry.region && !withRegions.has(entry.id) && entry.id !== country) pending.add(entry.id);
  }
  if (country) pending.delete(country);
  return { entries, order, pending };
}

/**
 * The location list of the widget: loaded on mount (and again on Retry), then each country's regions and cities
 * when the endpoint lists it without them (`hasRegions`) and it is expanded or named by a selection.
 */
export function useLocationTree(endpoint: string) {
  const [status, setStatus] = useState<LocationsStatus>('loading');
  const [error, setError] = useState('');
  const [loaded, setLoaded] = useState<LoadedLocations>(NOTHING);
  const [countryLoads, setCountryLoads] = useState<ReadonlyMap<string, CountryLoad>>(new Map());
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(loaded);
  const requests = useRef(new Map<string, Promise<void>>());

  useEffect(() => {
    let live = true;
    setStatus('loading');
    fetchLocations(endpoint).then(
      (list) => {
        if (!live) return;
        latest.current = merge(NOTHING, list);
        requests.current.clear();
        setLoaded(latest.current);
        setCountryLoads(new Map());
        setStatus('loaded');
      },
      (failure: unknown) => {
        if (!live) return;
        setError(errorText(failure));
        setStatus('error');
      },
    );
    return () => {
      live = false;
    };
  }, [endpoint, attempt]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  const setCountryLoad = (country: string, load: CountryLoad | null) =>
    setCountryLoads((current) => {
      const next = new Map(current);
      if (load) next.set(country, load);
      else next.delete(country);
      return next;
    });

  /** Loads the regions and cities of those countries still pending; answers the tree and entries with them. */
  const loadCountries = useCallback(
    async (countries: Iterable<string>): Promise<LoadedTree> => {
      const asked = [...new Set(countries)].filter((country) => latest.current.pending.has(country));
      await Promise.all(
        asked.map((country) => {
          let request = requests.current.get(country);
          if (!request) {
            setCountryLoad(country, { loading: true });
            request = fetchLocations(endpoint, country).then(
              (list) => {
                latest.current = merge(latest.current, list, country);
                setLoaded(latest.current);
                setCountryLoad(country, null);
              },
              (failure: unknown) => {
                requests.current.delete(country);
                setCountryLoad(country, { loading: false, error: errorText(failure) });
              },
            );
            requests.current.set(country, request);
          }
          return request;
        }),
      );
      const { order, pending, entries } = latest.current;
      return { tree: buildLocationTree(order, pending), entries };
    },
    [endpoint],
  );

  const tree = useMemo(() => buildLocationTree(loaded.order, loaded.pending), [loaded]);
  return { status, error, retry, entries: loaded.entries, pending: loaded.pending, tree, countryLoads, loadCountries };
}
