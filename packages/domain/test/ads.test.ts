import { describe, expect, it } from 'vitest';
import {
  AD_FORMAT,
  AD_UPLOAD_RATE,
  MAX_AD_FILE_BYTES,
  MAX_AD_IMAGE_PIXELS,
  adFileExtension,
  adFileWarnings,
  adFormatFromDimensions,
  adminDecision,
  adminPublisherAction,
  advertiserAdRights,
  canPublisherChoose,
  exceedsAdPixelLimit,
  isHttpLink,
  isMobileCompatible,
  isRequestExpired,
  publisherAnswer,
  submitForValidation,
  type PublisherValidationRow,
} from '../src/ads.ts';

const HOUR = 3_600_000;

describe('ad files', () => {
  it.each([
    ['photo.jpg', 'jpg'],
    ['PHOTO.JPEG', 'jpeg'],
    ['banner.Png', 'png'],
    ['clip.MP4', 'mp4'],
    ['archive.tar.png', 'png'],
    ['document.pdf', null],
    ['no-extension', null],
    ['image.gif', null],
    ['png', null],
  ])('%s has the accepted extension %s', (name, expected) => {
    expect(adFileExtension(name)).toBe(expected);
  });

  it('warns about the format and the size as the client does', () => {
    expect(adFileWarnings({ name: 'a.png', size: 1000 })).toEqual([]);
    expect(adFileWarnings({ name: 'a.png', size: MAX_AD_FILE_BYTES })).toEqual([]);
    expect(adFileWarnings({ name: 'a.png', size: MAX_AD_FILE_BYTES + 1 })).toEqual(['fileSizeWarning']);
    expect(adFileWarnings({ name: 'a.gif', size: MAX_AD_FILE_BYTES + 1 })).toEqual([
      'fileFormatWarning',
      'fileSizeWarning',
    ]);
  });
});

describe('image size limit', () => {
  it.each([
    [300, 250, false],
    [3840, 2160, false],
    [1080, 1920, false],
    [4096, 4096, false],
    [8192, 2048, false],
    [4097, 4096, true],
    [16_000, 16_000, true],
    [50, 400_000, true],
  ])('%i x %i is over the limit: %s', (width, height, expected) => {
    expect(exceedsAdPixelLimit(width, height)).toBe(expected);
  });

  it('allows about 16.8 million pixels, and a few dozen uploads an hour', () => {
    expect(MAX_AD_IMAGE_PIXELS).toBe(16_777_216);
    expect(AD_UPLOAD_RATE).toEqual({ limit: 30, windowMs: HOUR });
  });
});

describe('format from dimensions', () => {
  it.each([
    [300, 600, AD_FORMAT.vertical],
    [160, 600, AD_FORMAT.vertical],
    [399, 500, AD_FORMAT.vertical],
    [400, 500, AD_FORMAT.square],
    [300, 300, AD_FORMAT.square],
    [300, 250, AD_FORMAT.square],
    [500, 400, AD_FORMAT.square],
    [501, 400, AD_FORMAT.horizontal],
    [640, 360, AD_FORMAT.horizontal],
    [1200, 628, AD_FORMAT.horizontal],
    [600, 200, AD_FORMAT.newsletter],
    [480, 120, AD_FORMAT.newsletter],
    [700, 150, AD_FORMAT.newsletter],
    [970, 250, AD_FORMAT.horizontalLarge],
    [728, 90, AD_FORMAT.horizontalLarge],
    [320, 100, AD_FORMAT.horizontalLarge],
  ])('%i x %i is format %i', (width, height, expected) => {
    expect(adFormatFromDimensions(width, height)).toBe(expected);
  });

  it('refuses dimensions that are not positive', () => {
    expect(() => adFormatFromDimensions(0, 10)).toThrow();
    expect(() => adFormatFromDimensions(10, Number.NaN)).toThrow();
  });

  it('vertical ads are not for mobile', () => {
    expect(isMobileCompatible(AD_FORMAT.vertical)).toBe(false);
    expect(isMobileCompatible(AD_FORMAT.square)).toBe(true);
  });
});

describe('advertiser transitions', () => {
  it('submits only a not-requested ad with a link (0 -> 3)', () => {
    expect(submitForValidation(0, 'https://a.example')).toEqual({ ok: true, state: 3 });
    expect(submitForValidation(0, null)).toEqual({ ok: false, reason: 'linkNeeded' });
    expect(submitForValidation(0, '  ')).toEqual({ ok: false, reason: 'linkNeeded' });
    for (const state of [1, 2, 3])
      expect(submitForValidation(state, 'https://a.example')).toEqual({ ok: false, reason: 'alreadySubmitted' });
  });

  it('edits the link only before submission and deletes anything not validated', () => {
    expect(advertiserAdRights(0, false)).toEqual({ canEditLink: true, canSubmit: false, canDelete: true });
    expect(advertiserAdRights(0, true)).toEqual({ canEditLink: true, canSubmit: true, canDelete: true });
    expect(advertiserAdRights(3, true)).toEqual({ canEditLink: false, canSubmit: false, canDelete: true });
    expect(advertiserAdRights(1, true)).toEqual({ canEditLink: false, canSubmit: false, canDelete: false });
    expect(advertiserAdRights(2, true)).toEqual({ canEditLink: false, canSubmit: false, canDelete: true });
  });
});

describe('admin transitions', () => {
  it('decides only on a pending ad (3 -> 1 or 2)', () => {
    expect(adminDecision(3, true)).toEqual({ ok: true, state: 1 });
    expect(adminDecision(3, false)).toEqual({ ok: true, state: 2 });
    for (const state of [0, 1, 2]) expect(adminDecision(state, true).ok).toBe(false);
  });

  const base = { adminState: 1, publisherState: 0, isPublisherInstalled: true, isMediaReady: true } as const;

  it('requests a publisher not yet asked (0 -> 3) and forces 1 or 2 from any state', () => {
    expect(adminPublisherAction({ ...base, acceptance: 3 })).toEqual({ ok: true, state: 3 });
    expect(adminPublisherAction({ ...base, publisherState: 3, acceptance: 3 })).toEqual({
      ok: false,
      reason: 'alreadyRequested',
    });
    for (const publisherState of [0, 1, 2, 3]) {
      expect(adminPublisherAction({ ...base, publisherState, acceptance: 1 })).toEqual({ ok: true, state: 1 });
      expect(adminPublisherAction({ ...base, publisherState, acceptance: 2 })).toEqual({ ok: true, state: 2 });
    }
  });

  it('acts on publishers only after approval, for installed publishers, with showable media', () => {
    for (const adminState of [0, 2, 3])
      expect(adminPublisherAction({ ...base, adminState, acceptance: 1 })).toEqual({
        ok: false,
        reason: 'adNotApprovedByAdmin',
      });
    expect(adminPublisherAction({ ...base, isMediaReady: false, acceptance: 3 }).ok).toBe(false);
    expect(adminPublisherAction({ ...base, isPublisherInstalled: false, acceptance: 3 }).ok).toBe(false);
  });
});

describe('publisher transitions', () => {
  const requestedAt = new Date('2026-10-01T10:00:00Z');
  const pending: PublisherValidationRow = {
    state: 3,
    requestedAt,
    expiresAt: new Date(requestedAt.getTime() + 24 * HOUR),
    decidedAt: null,
    decidedBy: null,
  };
  const at = (hours: number) => new Date(requestedAt.getTime() + hours * HOUR);

  it('answers an open request (3 -> 1 or 2)', () => {
    expect(publisherAnswer(pending, 1, at(1))).toEqual({ ok: true, state: 1 });
    expect(publisherAnswer(pending, 2, at(23.9))).toEqual({ ok: true, state: 2 });
    expect(publisherAnswer(pending, 1, at(24))).toEqual({ ok: false, reason: 'cannotValidate' });
  });

  it('changes its answer within 24 hours of it (1 <-> 2), not after', () => {
    const answered: PublisherValidationRow = { ...pending, state: 1, decidedAt: at(2), decidedBy: 'publisher' };
    expect(canPublisherChoose(answered, at(25.9))).toBe(true);
    expect(publisherAnswer(answered, 2, at(25.9))).toEqual({ ok: true, state: 2 });
    expect(canPublisherChoose(answered, at(26))).toBe(false);
  });

  it('cannot choose after a timeout, a forced decision, or without a request', () => {
    expect(canPublisherChoose({ ...pending, state: 1, decidedAt: at(24), decidedBy: 'timeout' }, at(25))).toBe(false);
    expect(canPublisherChoose({ ...pending, state: 2, decidedAt: at(1), decidedBy: 'admin' }, at(2))).toBe(false);
    expect(canPublisherChoose({ ...pending, state: 0, requestedAt: null }, at(1))).toBe(false);
  });

  it('a request not answered in 24 hours expires (3 -> 1 by the job)', () => {
    expect(isRequestExpired(pending, at(23.99))).toBe(false);
    expect(isRequestExpired(pending, at(24))).toBe(true);
    expect(isRequestExpired({ ...pending, state: 1 }, at(30))).toBe(false);
  });
});

describe('redirect links', () => {
  it.each([
    ['https://nordvik.example/offer?x=1', true],
    ['http://nordvik.example', true],
    ['  https://nordvik.example  ', true],
    ['javascript:alert(1)', false],
    ['data:text/html,hi', false],
    ['ftp://nordvik.example', false],
    ['nordvik.example', false],
    ['https://', false],
    ['', false],
    ['https://nordvik.example/\r\nSet-Cookie: x=1', false],
    ['https://nordvik.example/a\nb', false],
    ['https://nordvik.example/\u0000', false],
    ['https://bank.example@evil.example/', false],
    ['https://user:secret@nordvik.example/', false],
    ['HTTPS://nordvik.example/', true],
    // A link in the app's screens would stay inside the app: written without its //, it is refused.
    ['https:nordvik.example', false],
    ['https:/nordvik.example', false],
  ])('%j is accepted: %s', (value, expected) => {
    expect(isHttpLink(value)).toBe(expected);
  });
});
