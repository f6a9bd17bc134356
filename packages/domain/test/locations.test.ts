import { describe, expect, it } from 'vitest';
import {
  buildLocationTree,
  compactItemId,
  compactLocations,
  compactSelectionItems,
  isKnownLocation,
  locationCheckState,
  locationIdParts,
  locationSummary,
  selectionFromIds,
  toggleLocation,
  type CompactLocation,
} from '../src/locations.ts';

/** France loaded (two regions, one without cities), Belgium loaded, Germany not loaded yet, Monaco without regions. */
const tree = buildLocationTree(
  [
    'FR',
    'FR/IDF',
    'FR/IDF/Paris',
    'FR/IDF/Versailles',
    'FR/ARA',
    'FR/ARA/Lyon',
    'FR/ARA/Grenoble',
    'FR/COR',
    'BE',
    'BE/BRU',
    'BE/BRU/Brussels',
    'DE',
    'MC',
  ],
  new Set(['DE']),
);
const set = (...ids: string[]) => new Set(ids);
const sorted = (selection: Set<string>) => [...selection].sort();

describe('location ids', () => {
  it.each([
    ['FR', { country: 'FR' }],
    ['FR/IDF', { country: 'FR', region: 'IDF' }],
    ['FR/IDF/Paris', { country: 'FR', region: 'IDF', city: 'Paris' }],
    ['US/CA/San Francisco', { country: 'US', region: 'CA', city: 'San Francisco' }],
    ['', null],
    ['FR//Paris', null],
    ['FR/IDF/Paris/Louvre', null],
    [' FR', null],
  ])('%j has the parts %j', (id, parts) => {
    expect(locationIdParts(id)).toEqual(parts);
  });

  it('knows listed countries, and the regions and cities of loaded countries only', () => {
    expect(tree.countries).toEqual(['FR', 'BE', 'DE', 'MC']);
    for (const id of ['FR', 'DE', 'MC', 'FR/COR', 'FR/IDF/Paris', 'BE/BRU/Brussels']) {
      expect(isKnownLocation(tree, id)).toBe(true);
    }
    for (const id of ['ES', 'FR/XX', 'FR/IDF/Lyon', 'DE/BY', 'DE/BY/Munich'])
      expect(isKnownLocation(tree, id)).toBe(false);
    expect(tree.children.has('DE')).toBe(false);
    expect(tree.children.get('MC')).toEqual([]);
    expect(tree.children.get('FR/COR')).toEqual([]);
  });
});

describe('check states', () => {
  it.each([
    [[], 'FR', 'unchecked'],
    [['FR'], 'FR', 'checked'],
    [['FR'], 'FR/IDF', 'checked'],
    [['FR'], 'FR/IDF/Paris', 'checked'],
    [['FR/IDF'], 'FR', 'indeterminate'],
    [['FR/IDF'], 'FR/IDF/Versailles', 'checked'],
    [['FR/IDF/Paris'], 'FR/IDF', 'indeterminate'],
    [['FR/IDF/Paris'], 'FR', 'indeterminate'],
    [['FR/IDF/Paris'], 'FR/ARA', 'unchecked'],
    [['FR/IDF/Paris'], 'BE', 'unchecked'],
    // A country not loaded yet: its id means all of it; a region of it named in the selection makes it partial.
    [['DE'], 'DE', 'checked'],
    [['DE/BY'], 'DE', 'indeterminate'],
  ] as const)('%j: %s is %s', (selection, id, state) => {
    expect(locationCheckState(set(...selection), id)).toBe(state);
  });
});

describe('toggling', () => {
  it('a city, then its sibling: the region becomes one item, then the country once every region is in', () => {
    let selection = toggleLocation(set(), 'FR/IDF/Paris', tree);
    expect(sorted(selection)).toEqual(['FR/IDF/Paris']);
    selection = toggleLocation(selection, 'FR/IDF/Versailles', tree);
    expect(sorted(selection)).toEqual(['FR/IDF']);
    selection = toggleLocation(selection, 'FR/ARA', tree);
    expect(sorted(selection)).toEqual(['FR/ARA', 'FR/IDF']);
    selection = toggleLocation(selection, 'FR/COR', tree);
    expect(sorted(selection)).toEqual(['FR']);
  });

  it('a partly selected region or country selects all of it; a wholly selected one deselects all of it', () => {
    expect(sorted(toggleLocation(set('FR/IDF/Paris'), 'FR/IDF', tree))).toEqual(['FR/IDF']);
    expect(sorted(toggleLocation(set('FR/IDF/Paris', 'BE'), 'FR', tree))).toEqual(['BE', 'FR']);
    expect(sorted(toggleLocation(set('FR/IDF', 'BE'), 'FR/IDF', tree))).toEqual(['BE']);
    expect(sorted(toggleLocation(set('FR'), 'FR', tree))).toEqual([]);
  });

  it('deselecting a city of a selected country keeps the rest of the country', () => {
    expect(sorted(toggleLocation(set('FR'), 'FR/IDF/Paris', tree))).toEqual(['FR/ARA', 'FR/COR', 'FR/IDF/Versailles']);
    expect(sorted(toggleLocation(set('FR'), 'FR/ARA', tree))).toEqual(['FR/COR', 'FR/IDF']);
    // Ticked back, it is whole again.
    expect(sorted(toggleLocation(toggleLocation(set('FR'), 'FR/IDF/Paris', tree), 'FR/IDF/Paris', tree))).toEqual([
      'FR',
    ]);
  });

  it('a country not loaded yet is selected and deselected whole', () => {
    expect(sorted(toggleLocation(set(), 'DE', tree))).toEqual(['DE']);
    expect(sorted(toggleLocation(set('DE/BY'), 'DE', tree))).toEqual(['DE']);
    expect(sorted(toggleLocation(set('DE'), 'DE', tree))).toEqual([]);
  });

  it('a country or region without children is a place of its own', () => {
    expect(sorted(toggleLocation(set(), 'MC', tree))).toEqual(['MC']);
    expect(sorted(toggleLocation(set(), 'FR/COR', tree))).toEqual(['FR/COR']);
  });
});

describe('compaction', () => {
  it.each([
    [['FR/IDF/Paris', 'FR/IDF/Versailles'], ['FR/IDF']],
    [['FR/IDF/Paris', 'FR/IDF/Versailles', 'FR/ARA/Lyon', 'FR/ARA/Grenoble', 'FR/COR'], ['FR']],
    [['FR/IDF', 'FR/IDF/Paris'], ['FR/IDF']],
    [
      ['FR', 'FR/ARA/Lyon', 'BE/BRU/Brussels'],
      ['BE', 'FR'],
    ],
    [['FR/ARA/Lyon'], ['FR/ARA/Lyon']],
    [['DE/BY', 'DE'], ['DE']],
  ])('%j is %j', (ids, compact) => {
    expect(sorted(compactLocations(ids, tree))).toEqual(compact);
  });
});

describe('setSelections: ids to a selection', () => {
  it('drops duplicates and unknown places, and compacts', () => {
    expect(sorted(selectionFromIds(['FR/IDF/Paris', 'FR/IDF/Paris', 'FR/IDF/Nowhere', 'XX', 'FR/ZZ'], tree))).toEqual([
      'FR/IDF/Paris',
    ]);
    expect(sorted(selectionFromIds(['BE/BRU/Brussels', 'DE'], tree))).toEqual(['BE', 'DE']);
    expect(sorted(selectionFromIds([], tree))).toEqual([]);
  });

  it('reads the id of an item, or a plain id', () => {
    expect(compactItemId('FR')).toBe('FR');
    expect(compactItemId({ type: 'region', id: 'FR/IDF', country: 'France', region: 'Île-de-France' })).toBe('FR/IDF');
    expect(compactItemId({ type: 'country', country: 'France' })).toBeNull();
    expect(compactItemId(null)).toBeNull();
    expect(compactItemId(7)).toBeNull();
  });
});

describe('compact items and the summary', () => {
  const names = new Map([
    ['FR', { country: 'France' }],
    ['BE/BRU', { country: 'Belgium', region: 'Brussels' }],
    ['FR/ARA/Lyon', { country: 'France', region: 'Auvergne-Rhône-Alpes', city: 'Lyon' }],
  ]);

  it('names each item, from the names given or from its id', () => {
    expect(compactSelectionItems(set('FR', 'BE/BRU', 'FR/ARA/Lyon', 'DE/BY/Munich'), (id) => names.get(id))).toEqual([
      { type: 'country', id: 'FR', country: 'France' },
      { type: 'region', id: 'BE/BRU', country: 'Belgium', region: 'Brussels' },
      { type: 'city', id: 'FR/ARA/Lyon', country: 'France', region: 'Auvergne-Rhône-Alpes', city: 'Lyon' },
      { type: 'city', id: 'DE/BY/Munich', country: 'DE', region: 'BY', city: 'Munich' },
    ]);
  });

  const items = (...list: CompactLocation[]) => list;
  it.each([
    [items(), ''],
    [
      items(
        { type: 'country', id: 'FR', country: 'France' },
        { type: 'region', id: 'BE/BRU', country: 'Belgium', region: 'Brussels' },
      ),
      'France, Belgium: Brussels',
    ],
    [
      items(
        { type: 'city', id: 'FR/ARA/Lyon', country: 'France', region: 'ARA', city: 'Lyon' },
        { type: 'region', id: 'FR/IDF', country: 'France', region: 'Île-de-France' },
        { type: 'country', id: 'BE', country: 'Belgium' },
      ),
      'France: Lyon, Île-de-France; Belgium',
    ],
  ])('%j reads %j', (list, summary) => {
    expect(locationSummary(list)).toBe(summary);
  });
});
