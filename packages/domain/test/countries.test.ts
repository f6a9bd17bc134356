import { describe, expect, it } from 'vitest';
import { countryOf, UNKNOWN_COUNTRY } from '../src/delivery/countries.ts';

describe('countryOf', () => {
  it.each([
    [{ country: 'FR', region: 'IDF', city: 'Paris' }, 'FR'],
    [{ country: 'us' }, 'US'],
    [{ country: '' }, UNKNOWN_COUNTRY],
    [{ country: 'EU1' }, UNKNOWN_COUNTRY],
    [null, 'ZZ'],
  ])('%j is counted under %s', (location, country) => expect(countryOf(location)).toBe(country));
});
