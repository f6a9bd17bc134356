import { describe, expect, it } from 'vitest';
import { initialByPublisher, isRefreshPaused, liveLink, rangeToSend } from './logic.ts';

const idle = {
  modalOpen: false,
  menuOpen: false,
  datePickerOpen: false,
  activationPending: false,
  hasDateRange: false,
};

describe('advertiser activity logic', () => {
  it('pauses auto-refresh while anything is open or a date range is set', () => {
    expect(isRefreshPaused(idle)).toBe(false);
    for (const key of Object.keys(idle)) expect(isRefreshPaused({ ...idle, [key]: true }), key).toBe(true);
  });

  it('starts in by-publisher mode for trial campaigns only', () => {
    expect(initialByPublisher({ isTrial: true })).toBe(true);
    expect(initialByPublisher({ isTrial: false })).toBe(false);
  });

  it('adds hcid and haid to the live link', () => {
    expect(liveLink('https://blog.example/page?x=1', 'CAMP', 'AD')).toBe(
      'https://blog.example/page?x=1&hcid=CAMP&haid=AD',
    );
  });

  it('sends a range as null, one day or two days', () => {
    expect(rangeToSend([null, null])).toBeNull();
    expect(rangeToSend(['2026-09-01', null])).toBe('2026-09-01');
    expect(rangeToSend(['2026-09-01', '2026-09-01'])).toBe('2026-09-01');
    expect(rangeToSend(['2026-09-01', '2026-09-07'])).toEqual(['2026-09-01', '2026-09-07']);
  });
});
