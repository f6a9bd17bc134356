import { describe, expect, it } from 'vitest';
import { draftsOf, newDraft, placementFieldOf, requestOf, sitePreviewUrl } from './placementForm.ts';

describe('placement form', () => {
  it('round-trips stored placements, a null selector as the default slot', () => {
    const stored = [
      { id: 4, selector: '#side', position: 'after' as const, formatIds: [4, 3], device: 'desktop' as const },
      { id: 5, selector: null, position: 'inside' as const, formatIds: [], device: 'all' as const },
    ];
    const drafts = draftsOf(stored);
    expect(drafts.map((draft) => [draft.key, draft.isDefault])).toEqual([
      ['4', false],
      ['5', true],
    ]);
    expect(requestOf(drafts)).toEqual([
      { selector: '#side', position: 'after', formatIds: [3, 4], device: 'desktop' },
      { selector: null, position: 'inside', formatIds: [], device: 'all' },
    ]);
  });

  it('trims selectors, and finds the placement an issue names', () => {
    const draft = { ...newDraft(), selector: '  .slot ' };
    expect(requestOf([draft])[0]?.selector).toBe('.slot');
    expect(newDraft().key).not.toBe(newDraft().key);
    expect(placementFieldOf('placements.1.selector')).toBe('1');
    expect(placementFieldOf('placements.12')).toBe('12');
    expect(placementFieldOf('publisherId')).toBeNull();
  });

  it('previews the site over https', () => {
    expect(sitePreviewUrl('example.com')).toBe('https://example.com/');
    expect(sitePreviewUrl(null)).toBeNull();
  });
});
