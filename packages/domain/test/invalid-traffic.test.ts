import { describe, expect, it } from 'vitest';
import {
  decisionEvidenceFault,
  pageHost,
  tooManyVisitorsFromOneIp,
  viewEvidenceFault,
  VISITORS_PER_IP_PER_HOUR,
  VISITORS_PER_IP_PER_MINUTE,
} from '../src/delivery/invalid-traffic.ts';

const DOMAIN = 'blog.example';
const headers = (origin = '', referer = '') => ({ origin, referer });

describe('pageHost', () => {
  it('answers the host of an Origin, a Referer or a page address, lower case; nothing for anything else', () => {
    expect(pageHost('https://Blog.Example')).toBe('blog.example');
    expect(pageHost('https://news.blog.example:8443/a?b#c')).toBe('news.blog.example');
    expect(pageHost('null')).toBe('');
    expect(pageHost('')).toBe('');
    expect(pageHost(undefined)).toBe('');
    expect(pageHost('not an address')).toBe('');
    expect(pageHost('javascript:alert(1)')).toBe('');
  });
});

describe("decisionEvidenceFault: a browser's evidence of a page of the registered domain", () => {
  it.each<[string, { origin: string; referer: string }, string, string | null]>([
    ['the Origin of a cross-origin fetch', headers('https://blog.example'), 'https://blog.example/a', null],
    ['a subdomain, www ignored', headers('https://www.news.blog.example'), 'https://news.blog.example/a', null],
    ['the Referer of a same-origin fetch', headers('', 'https://blog.example/a'), 'https://blog.example/a', null],
    ['Origin null (opaque), the Referer decides', headers('null', 'https://blog.example/'), '', null],
    ['no page address reported', headers('https://blog.example'), '', null],
    ['no Origin nor Referer (a program)', headers(), 'https://blog.example/a', 'noEvidence'],
    ['Origin null and no Referer', headers('null'), 'https://blog.example/a', 'noEvidence'],
    [
      'a copy of the line on another site',
      headers('https://copycat.example'),
      'https://copycat.example/a',
      'otherDomain',
    ],
    ['a look-alike domain', headers('https://evilblog.example'), 'https://evilblog.example/a', 'otherDomain'],
    ['the page address on another site', headers('https://blog.example'), 'https://copycat.example/a', 'otherDomain'],
    ['the Referer on another site', headers('', 'https://copycat.example/a'), 'https://blog.example/a', 'otherDomain'],
  ])('%s', (_, given, page, fault) => {
    const hosts = { origin: pageHost(given.origin), referer: pageHost(given.referer), page: pageHost(page) };
    expect(decisionEvidenceFault(hosts, DOMAIN)).toBe(fault);
  });

  it('finds nothing on the domain of a publisher that registered none', () => {
    expect(decisionEvidenceFault({ origin: 'blog.example', referer: '', page: '' }, null)).toBe('otherDomain');
  });
});

describe("viewEvidenceFault: a beacon's evidence of the page", () => {
  it.each<[string, { origin: string; referer: string }, string | null]>([
    ["sendBeacon's Origin and Referer", headers('https://blog.example', 'https://blog.example/'), null],
    ['the Referer alone', headers('', 'https://www.blog.example/'), null],
    ['Origin null, as a page with a no-referrer policy sends it', headers('null'), null],
    ['no Origin nor Referer (a program)', headers(), 'noEvidence'],
    ['another site', headers('https://copycat.example'), 'otherDomain'],
    ['Origin null but a Referer elsewhere', headers('null', 'https://copycat.example/'), 'otherDomain'],
  ])('%s', (_, given, fault) => {
    expect(viewEvidenceFault(given, DOMAIN)).toBe(fault);
  });
});

describe('tooManyVisitorsFromOneIp', () => {
  it('holds an address to 20 distinct visitors a minute and 100 an hour on one publisher', () => {
    expect(VISITORS_PER_IP_PER_MINUTE).toBe(20);
    expect(VISITORS_PER_IP_PER_HOUR).toBe(100);
    expect(tooManyVisitorsFromOneIp({ minute: 20, hour: 20 })).toBe(false);
    expect(tooManyVisitorsFromOneIp({ minute: 21, hour: 21 })).toBe(true);
    expect(tooManyVisitorsFromOneIp({ minute: 5, hour: 100 })).toBe(false);
    expect(tooManyVisitorsFromOneIp({ minute: 5, hour: 101 })).toBe(true);
    expect(tooManyVisitorsFromOneIp({ minute: 3, hour: 3 }, { perMinute: 2, perHour: 10 })).toBe(true);
  });
});
