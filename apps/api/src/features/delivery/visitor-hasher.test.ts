import { describe, expect, it } from 'vitest';
import { deviceOf, VisitorHasher } from './visitor.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('VisitorHasher', () => {
  const hasher = new VisitorHasher(Buffer.from('k'.repeat(32)));
  const at = new Date('2026-11-23T12:00:00Z');

  it('takes an IPv6 /64 for one visitor and one address: its other addresses make no new visitor', () => {
    const home = hasher.visitor('2001:db8:1:2::10', UA, at);
    expect(hasher.visitor('2001:db8:1:2:ffff:ee:dd:1', UA, at)).toBe(home);
    expect(hasher.visitor('2001:db8:1:3::10', UA, at)).not.toBe(home);
    expect(hasher.ip('2001:db8:1:2::10', at)).toBe(hasher.ip('2001:db8:1:2:abcd::9', at));
    expect(hasher.ip('2001:db8:1:2::10', at)).not.toBe(hasher.ip('2001:db8:1:3::10', at));
  });

  it('keeps IPv4 addresses apart, and an IPv4-mapped address is the same visitor as the IPv4 one', () => {
    expect(hasher.visitor('203.0.113.7', UA, at)).not.toBe(hasher.visitor('203.0.113.8', UA, at));
    expect(hasher.visitor('::ffff:203.0.113.7', UA, at)).toBe(hasher.visitor('203.0.113.7', UA, at));
    expect(hasher.ip('::ffff:203.0.113.7', at)).toBe(hasher.ip('203.0.113.7', at));
  });

  it('is another visitor the next day (a new salt) and for another user agent', () => {
    const today = hasher.visitor('203.0.113.7', UA, at);
    expect(hasher.visitor('203.0.113.7', UA, new Date('2026-11-24T12:00:00Z'))).not.toBe(today);
    expect(hasher.visitor('203.0.113.7', `${UA} Edg/126`, at)).not.toBe(today);
  });
});

describe('deviceOf', () => {
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const ANDROID_PHONE =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
  const ANDROID_TABLET =
    'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

  it('a phone is mobile whatever width it reports: a page without a viewport tag (980 px), a phone turned sideways', () => {
    expect(deviceOf(IPHONE, 980)).toBe('mobile');
    expect(deviceOf(ANDROID_PHONE, 915)).toBe('mobile');
    expect(deviceOf(IPHONE, 390)).toBe('mobile');
  });

  it("otherwise the viewport's width decides: a tablet held wide is desktop, a narrow window mobile", () => {
    expect(deviceOf(ANDROID_TABLET, 1280)).toBe('desktop');
    const IPAD_CHROME =
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';
    expect(deviceOf(IPAD_CHROME, 1024)).toBe('desktop');
    expect(deviceOf(IPAD_CHROME, 744)).toBe('mobile');
    expect(deviceOf(ANDROID_TABLET, 700)).toBe('mobile');
    expect(deviceOf(UA, 1280)).toBe('desktop');
    expect(deviceOf(UA, 600)).toBe('mobile');
  });

  it('without a width, the user agent decides', () => {
    expect(deviceOf(IPHONE, null)).toBe('mobile');
    expect(deviceOf(ANDROID_TABLET, null)).toBe('mobile');
    expect(deviceOf(UA, null)).toBe('desktop');
  });
});
