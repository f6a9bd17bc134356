import { describe, expect, it } from 'vitest';
import { isTooEarlyForAView, MIN_VIEW_MS } from '../src/index.ts';

describe('isTooEarlyForAView', () => {
  it('refuses a beacon sooner than 1 s after the decision for an image, 2 s for a video', () => {
    expect(MIN_VIEW_MS).toEqual({ image: 1_000, video: 2_000 });
    expect(isTooEarlyForAView(0, 'image')).toBe(true);
    expect(isTooEarlyForAView(999, 'image')).toBe(true);
    expect(isTooEarlyForAView(1_000, 'image')).toBe(false);
    expect(isTooEarlyForAView(1_999, 'video')).toBe(true);
    expect(isTooEarlyForAView(2_000, 'video')).toBe(false);
    expect(isTooEarlyForAView(60_000, 'video')).toBe(false);
  });
});
