import { describe, expect, it } from 'vitest';
import { formatKey } from './formatKey.ts';

describe('formatKey', () => {
  it('names the five formats, and an unknown one as format 4', () => {
    expect(formatKey(1)).toBe('advertiserAds.formats.1');
    expect(formatKey(5)).toBe('advertiserAds.formats.5');
    expect(formatKey(0)).toBe('advertiserAds.formats.4');
    expect(formatKey(9)).toBe('advertiserAds.formats.4');
  });
});
