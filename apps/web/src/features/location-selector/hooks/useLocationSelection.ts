import { useCallback, useRef, useState, type RefObject } from 'react';
import type { TLocation } from '@helium/contracts';
import type { LoadedTree } from './useLocationTree.ts';
import {
  compactItemId,
  compactSelectionItems,
  isKnownLocation,
  locationLevel,
  LOCATION_ID_SEPARATOR,
  selectionFromIds,
  toggleLocation,
  type CompactLocation,
  type LocationTree,
} from '@helium/domain/locations';

/** The DOM event the widget dispatches on its element after every change, with the compact selection. */
export const SELECTION_CHANGED_EVENT = 'selection-changed';

export interface LocationSelectionOptions {
  tree: LocationTree;
  entries: ReadonlyMap<string, TLocation>;
  /** Loads the regions and cities of these countries if they are not yet; answers the tree with them. */
  loadCountries: (countries: Iterable<string>) => Promise<LoadedTree>;
  root: RefObject<HTMLElement | null>;
  onSelectionChange?: (selection: CompactLocation[]) => void;
}

/**
 * The widget's selection (specification 01, section 4): a compact set of location ids, changed by toggling a box,
 * by setSelections (an array of compact items or ids: anything else logs `setSelections expects an array` and does
 * nothing) and by clearSelections. Each change is announced with the compact selection, as a `selection-changed`
 * CustomEvent on the widget's element and to `onSelectionChange`.
 */
export function useLocationSelection(options: LocationSelectionOptions) {
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const current = useRef<ReadonlySet<string>>(selection);
  const latest = useRef(options);
  latest.current = options;

  /** Sets the selection and announces it, named from `entries` (those just loaded, else the rendered ones). */
  const commit = useCallback((next: ReadonlySet<string>, entries = latest.current.entries) => {
    current.current = next;
    setSelection(next);
    const { root, onSelectionChange } = latest.current;
    const items = compactSelectionItems(next, (id) => entries.get(id));
    root.current?.dispatchEvent(new CustomEvent(SELECTION_CHANGED_EVENT, { detail: items, bubbles: true }));
    onSelectionChange?.(items);
  }, []);

  const toggle = useCallback(
    (id: string) => commit(toggleLocation(current.current, id, latest.current.tree)),
    [commit],
  );

  const setSelections = useCallback(
    async (items: unknown) => {
      if (!Array.isArray(items)) {
        console.error('setSelections expects an array');
        return;
      }
      const ids = items.map(compactItemId).filter((id): id is string => id !== null);
      // Regions and cities are known once their country is loaded.
      const countries = ids.filter((id) => locationLevel(id) !== 'country').map((id) => id.split('/')[0]!);
      const { tree, entries } = await latest.current.loadCountries(countries);
      commit(selectionFromIds(ids, tree), entries);
    },
    [commit],
  );

  /**
   * What ticking the place's box in the tree does, for a place found by the search: its country's regions and
   * cities are loaded first (the box may not be drawn yet). False when the list has no such place.
   */
  const pick = useCallback(
    async (id: string): Promise<boolean> => {
      const country = id.split(LOCATION_ID_SEPARATOR)[0]!;
      const { tree, entries } = await latest.current.loadCountries(locationLevel(id) === 'country' ? [] : [country]);
      if (!isKnownLocation(tree, id)) return false;
      commit(toggleLocation(current.current, id, tree), entries);
      return true;
    },
    [commit],
  );

  const clearSelections = useCallback(() => commit(new Set()), [commit]);

  return { selection, toggle, pick, setSelections, clearSelections };
}
