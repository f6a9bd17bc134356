import { describe, expect, it } from 'vitest';
import { campaignHeaderColour } from './campaignHeaderColour.ts';

describe('campaignHeaderColour (issue 26)', () => {
  it('is green for an impression-priced campaign and red for a click-priced one (CPM 0)', () => {
    expect(campaignHeaderColour({ cpm: 2.5 })).toBe('green');
    expect(campaignHeaderColour({ cpm: 0 })).toBe('red');
  });
});
