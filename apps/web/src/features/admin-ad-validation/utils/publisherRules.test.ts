import { describe, expect, it } from 'vitest';
import type { TAdminAd } from '@helium/contracts';
import { hasPublisherCheckbox, initiallyChecked, isAdMediaReady, isPublisherRowDimmed } from './publisherRules.ts';

const publisher = (id: number, isInstalled: boolean, adValidation: 0 | 1 | 2 | 3) => ({
  id,
  brand: `P${id}`,
  isInstalled,
  adValidation,
  expiresAtStr: null,
});

const ad = (overrides: Partial<TAdminAd> = {}): TAdminAd => ({
  id: 1,
  hashId: 'h',
  advertiser_id: 1,
  advertiser: { brand: 'A' },
  type: 'image',
  image: '/media/x.png',
  mp4: null,
  poster: null,
  preview: null,
  link: 'https://a.example',
  screenshot: null,
  filesize: 1,
  is_owl: false,
  format_id: 3,
  is_video_thumbnail_ready: false,
  adminsValidation: 1,
  is_emailed_as_validated: true,
  publishers: [publisher(1, true, 0), publisher(2, false, 0), publisher(3, true, 3), publisher(4, true, 1)],
  ...overrides,
});

describe('admin ad validation rules', () => {
  it('media is ready for an image, or a video with its poster', () => {
    expect(isAdMediaReady(ad())).toBe(true);
    expect(isAdMediaReady(ad({ type: 'video', image: null, mp4: '/media/v.mp4' }))).toBe(false);
    expect(
      isAdMediaReady(ad({ type: 'video', image: null, mp4: '/media/v.mp4', is_video_thumbnail_ready: true })),
    ).toBe(true);
  });

  it('pre-checks installed publishers not yet asked, once the admin approved', () => {
    expect(initiallyChecked(ad())).toEqual([1]);
    expect(initiallyChecked(ad({ adminsValidation: 3 }))).toEqual([]);
    expect(hasPublisherCheckbox(ad(), publisher(3, true, 3))).toBe(false);
  });

  it('dims rows unless installed, approved and showable', () => {
    expect(isPublisherRowDimmed(ad(), publisher(1, true, 0))).toBe(false);
    expect(isPublisherRowDimmed(ad(), publisher(2, false, 0))).toBe(true);
    expect(isPublisherRowDimmed(ad({ adminsValidation: 0 }), publisher(1, true, 0))).toBe(true);
    expect(isPublisherRowDimmed(ad({ type: 'video', image: null, mp4: '/m.mp4' }), publisher(1, true, 0))).toBe(true);
  });
});
