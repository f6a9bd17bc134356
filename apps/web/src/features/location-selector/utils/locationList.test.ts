import { describe, expect, it } from 'vitest';
import { locationListOf, placeLabel } from './locationList.ts';

const france = { id: 'FR', country: 'France' };

describe('locationListOf', () => {
  it('reads data.data, else data.locations, else the answer itself', () => {
    expect(locationListOf({ data: [france], locations: [] })).toEqual([france]);
    expect(locationListOf({ locations: [france] })).toEqual([france]);
    expect(locationListOf([france])).toEqual([france]);
  });

  it('answers nothing for what is not a list, and leaves out entries without an id and a country', () => {
    expect(locationListOf(null)).toEqual([]);
    expect(locationListOf({ data: 'FR' })).toEqual([]);
    expect(locationListOf([france, { id: 'BE' }, 'DE', null])).toEqual([france]);
  });
});

describe('placeLabel', () => {
  it('names a place with its region and country, smallest first', () => {
    expect(placeLabel({ id: 'BR/SP/São Paulo', country: 'Brazil', region: 'São Paulo', city: 'São Paulo' })).toBe(
      'São Paulo — São Paulo — Brazil',
    );
    expect(placeLabel({ id: 'FR/IDF', country: 'France', region: 'Île-de-France' })).toBe('Île-de-France — France');
    expect(placeLabel(france)).toBe('France');
  });
});
