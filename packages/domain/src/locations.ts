/*
 * Locations for geotargeting (specification 01, sections 2 and 4; docs/decisions.md section 5). A location id is
 * `FR` (a country, ISO 3166-1), `FR/IDF` (a region, the code the IP database gives) or `FR/IDF/Paris` (a city, as
 * the IP database names it). A selection is a set of ids in compact form: a country whose every region is selected
 * is the country's id, a region whose every city is selected is the region's id, and no id sits inside another.
 * A country's id stands for all of it, even while its regions are not loaded.
 */

export const LOCATION_ID_SEPARATOR = '/';

/** Most places one campaign may target. */
export const MAX_CAMPAIGN_LOCATIONS = 1000;

/** A search of places (search-locations): from 2 characters typed, at most 100; at most 20 places answered. */
export const LOCATION_SEARCH_MIN_CHARS = 2;
export const LOCATION_SEARCH_MAX_CHARS = 100;
export const LOCATION_SEARCH_LIMIT = 20;

export type LocationLevel = 'country' | 'region' | 'city';

/** What a checkbox shows: all of the location selected, some of it, or none. */
export type CheckState = 'checked' | 'indeterminate' | 'unchecked';

/** The parts of a location id; null when it is not one (empty parts, more than three). */
export function locationIdParts(id: string): { country: string; region?: string; city?: string } | null {
  const parts = id.split(LOCATION_ID_SEPARATOR);
  if (parts.length > 3 || parts.some((part) => part.trim() === '' || part !== part.trim())) return null;
  const [country, region, city] = parts as [string, string?, string?];
  return { country, ...(region ? { region } : {}), ...(city ? { city } : {}) };
}

export function locationLevel(id: string): LocationLevel {
  const depth = id.split(LOCATION_ID_SEPARATOR).length;
  return depth === 1 ? 'country' : depth === 2 ? 'region' : 'city';
}

/** The id of the region a city is in, of the country a region is in; null for a country. */
export function parentLocationId(id: string): string | null {
  const at = id.lastIndexOf(LOCATION_ID_SEPARATOR);
  return at < 0 ? null : id.slice(0, at);
}

/** Whether `id` is `ancestor` or lies inside it (`FR/IDF/Paris` is inside `FR/IDF` and `FR`). */
export function isWithinLocation(id: string, ancestor: string): boolean {
  return id === ancestor || id.startsWith(ancestor + LOCATION_ID_SEPARATOR);
}

/** The ids from the country down to `id` itself: `FR`, `FR/IDF`, `FR/IDF/Paris`. */
function lineage(id: string): string[] {
  const parts = id.split(LOCATION_ID_SEPARATOR);
  return parts.map((_, index) => parts.slice(0, index + 1).join(LOCATION_ID_SEPARATOR));
}

/**
 * What the rules know of the tree. `children` holds the children of every location whose children are known
 * (a loaded country's regions, each region's cities; `[]` for none). A country missing from it is not loaded yet.
 */
export interface LocationTree {
  countries: readonly string[];
  children: ReadonlyMap<string, readonly string[]>;
}

/**
 * The tree of a flat list of ids (the order is kept). A country listed in `unloaded` (its regions come later)
 * gets no children entry; any other country, and every region, has its children, possibly none.
 */
export function buildLocationTree(ids: Iterable<string>, unloaded: ReadonlySet<string> = new Set()): LocationTree {
  const countries: string[] = [];
  const children = new Map<string, string[]>();
  const add = (parent: string, child: string) => {
    const list = children.get(parent);
    if (list) {
      if (!list.includes(child)) list.push(child);
    } else children.set(parent, [child]);
  };
  for (const id of ids) {
    const level = locationLevel(id);
    if (level === 'country') {
      if (!countries.includes(id)) countries.push(id);
      if (!unloaded.has(id) && !children.has(id)) children.set(id, []);
    } else {
      add(parentLocationId(id)!, id);
      if (level === 'region' && !children.has(id)) children.set(id, []);
    }
  }
  return { countries, children };
}

/** Whether the tree knows this id: a listed country, or a region or city of a loaded country. */
export function isKnownLocation(tree: LocationTree, id: string): boolean {
  const parent = parentLocationId(id);
  if (parent === null) return tree.countries.includes(id);
  return tree.children.get(parent)?.includes(id) ?? false;
}

/** Whether the location is selected, itself or through the region or country it is in. */
export function isLocationSelected(selection: ReadonlySet<string>, id: string): boolean {
  return lineage(id).some((ancestor) => selection.has(ancestor));
}

/** Checked when all of it is selected, indeterminate when some of it is (specification 01, section 2). */
export function locationCheckState(selection: ReadonlySet<string>, id: string): CheckState {
  if (isLocationSelected(selection, id)) return 'checked';
  for (const selected of selection) if (isWithinLocation(selected, id)) return 'indeterminate';
  return 'unchecked';
}

/**
 * The compact form of a set of ids: ids inside another selected id are dropped, and a location whose known
 * children are all selected replaces them (cities into their region, then regions into their country).
 */
export function compactLocations(ids: Iterable<string>, tree: LocationTree): Set<string> {
  const selection = new Set(ids);
  for (const id of [...selection]) {
    if (lineage(id).some((ancestor) => ancestor !== id && selection.has(ancestor))) selection.delete(id);
  }
  // Regions first, so that a country sees its regions already collapsed.
  for (const level of ['region', 'country'] as const) {
    for (const [parent, children] of tree.children) {
      if (locationLevel(parent) !== level || children.length === 0 || selection.has(parent)) continue;
      if (!children.every((child) => selection.has(child))) continue;
      for (const child of children) selection.delete(child);
      selection.add(parent);
    }
  }
  return selection;
}

/**
 * Toggles a checkbox (specification 01, section 4): a location not wholly selected becomes selected (all its
 * cities), a wholly selected one is deselected (all its cities), also when it was selected through its region or
 * country, which then keep the rest. The answer is compact.
 */
export function toggleLocation(selection: ReadonlySet<string>, id: string, tree: LocationTree): Set<string> {
  const next = new Set(selection);
  if (!isLocationSelected(selection, id)) {
    for (const selected of selection) if (isWithinLocation(selected, id)) next.delete(selected);
    next.add(id);
    return compactLocations(next, tree);
  }
  if (next.delete(id)) return next;
  const path = lineage(id);
  const from = path.findIndex((ancestor) => selection.has(ancestor));
  // Split the selected ancestor into its children, down to the location, which is left out.
  for (let index = from; index < path.length - 1; index++) {
    const children = tree.children.get(path[index]!);
    if (!children) return new Set(selection);
    next.delete(path[index]!);
    for (const child of children) if (child !== path[index + 1]) next.add(child);
  }
  return next;
}

/**
 * The selection that a list of ids means (setSelections, initial selections): duplicates and ids the tree does not
 * know are dropped, the rest compacted. Regions and cities of a country not loaded yet are unknown: load the
 * countries a list names first.
 */
export function selectionFromIds(ids: readonly string[], tree: LocationTree): Set<string> {
  return compactLocations(
    ids.filter((id) => isKnownLocation(tree, id)),
    tree,
  );
}

/** The names shown for a location: its country, and its region and city when it is one. */
export interface LocationNames {
  country: string;
  region?: string;
  city?: string;
}

/** One item of the compact selection the widget announces (specification 01, section 3), with its id. */
export type CompactLocation =
  | { type: 'country'; id: string; country: string }
  | { type: 'region'; id: string; country: string; region: string }
  | { type: 'city'; id: string; country: string; region: string; city: string };

/** The compact selection as items, in the selection's order, named by `names` (the id's parts when it has none). */
export function compactSelectionItems(
  selection: ReadonlySet<string>,
  names: (id: string) => LocationNames | undefined,
): CompactLocation[] {
  return [...selection].map((id) => {
    const parts = locationIdParts(id) ?? { country: id };
    const named = names(id);
    const country = named?.country ?? parts.country;
    const region = named?.region ?? parts.region ?? '';
    if (locationLevel(id) === 'country') return { type: 'country', id, country };
    if (locationLevel(id) === 'region') return { type: 'region', id, country, region };
    return { type: 'city', id, country, region, city: named?.city ?? parts.city ?? '' };
  });
}

/** The id a compact item stands for: its `id`, else one made of its parts; null when it has neither. */
export function compactItemId(item: unknown): string | null {
  if (typeof item === 'string') return item;
  if (typeof item !== 'object' || item === null) return null;
  const { id } = item as { id?: unknown };
  return typeof id === 'string' ? id : null;
}

/**
 * A one-line summary of a selection: `France, Belgium: Brussels`, each country whole or followed by its places.
 * Countries are separated by `; ` when one of them lists several places, so the line reads one way. Empty for
 * no selection (which means everywhere: the caller says so in its language).
 */
export function locationSummary(items: readonly CompactLocation[]): string {
  const groups = new Map<string, { country: string; whole: boolean; places: string[] }>();
  for (const item of items) {
    const key = locationIdParts(item.id)?.country ?? item.id;
    const group = groups.get(key) ?? { country: item.country, whole: false, places: [] };
    if (item.type === 'country') group.whole = true;
    else group.places.push(item.type === 'region' ? item.region : item.city);
    groups.set(key, group);
  }
  const texts = [...groups.values()].map((group) =>
    group.whole || group.places.length === 0 ? group.country : `${group.country}: ${group.places.join(', ')}`,
  );
  const several = [...groups.values()].some((group) => !group.whole && group.places.length > 1);
  return texts.join(several ? '; ' : ', ');
}
