import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageviews } from '@helium/db';
import {
  BloomFilter,
  CountMinSketch,
  DEFAULT_TRAFFIC_LIMITS,
  TrafficFilter,
  WindowVisitors,
  type AddressTrip,
  type TrafficLimits,
} from './traffic-filter.ts';
import { MailProxyRanges } from './mail-proxies.ts';
import { AddressTally } from './address-tally.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { campaignOfBrand, decide, onlyCampaign, publisherId } from '../../../test/serve-support.ts';
import { DAY_MS } from '@helium/domain';

const DAY = '2026-11-22';
const NOW = Date.parse('2026-11-22T12:00:00Z');
/** The one-IP share from 20 visitors, and rates (and visitors per IP a minute or an hour) that never get in the way. */
const LIMITS: TrafficLimits = {
  ...DEFAULT_TRAFFIC_LIMITS,
  oneIpMinVisitors: 20,
  pageviewsPerVisitorPerMinute: 1_000,
  requestsPerIpPerMinute: 100_000,
  visitorsPerIpPerMinute: 100_000,
  visitorsPerIpPerHour: 100_000,
};
const SMALL_FILTERS = 2 ** 20;

function pageview(
  filter: TrafficFilter,
  visitor: string,
  ip: string,
  options: { publisherId?: number; day?: string; nowMs?: number; evidenceFault?: 'noEvidence' | 'otherDomain' } = {},
) {
  return filter.pageview({
    publisherId: options.publisherId ?? 1,
    visitor,
    ipHash: ip,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36',
    day: options.day ?? DAY,
    nowMs: options.nowMs ?? NOW,
    evidenceFault: options.evidenceFault ?? null,
  });
}

describe('BloomFilter', () => {
  it('answers "seen" for what it holds, and rarely for what it does not', () => {
    const filter = new BloomFilter(2 ** 20);
    expect(filter.add(1, 'visitor-a')).toBe(false);
    expect(filter.add(1, 'visitor-a')).toBe(true);
    // The number is part of the item: the same visitor on another publisher is new there.
    expect(filter.add(2, 'visitor-a')).toBe(false);
    let falseSeen = 0;
    for (let index = 0; index < 20_000; index++) if (filter.add(7, `v${index}`)) falseSeen++;
    // 20,000 items in a million bits: about 0.01% expected; well under 1%.
    expect(falseSeen).toBeLessThan(200);
    filter.clear();
    expect(filter.add(1, 'visitor-a')).toBe(false);
  });

  it('needs a power of two of bits', () => {
    expect(() => new BloomFilter(1000)).toThrow(/power of two/);
  });
});

describe('CountMinSketch', () => {
  it('never counts an item under its true count, and seldom much over it', () => {
    const sketch = new CountMinSketch(2 ** 12);
    for (let index = 0; index < 5; index++) sketch.add(1, 'reader');
    expect(sketch.add(1, 'reader')).toBe(6);
    // The number is part of the item: the same visitor on another publisher starts at one.
    expect(sketch.add(2, 'reader')).toBe(1);
    // 20,000 other items in 4,096 cells a row: each counted at least once, the reader still at its count or
    // a little over.
    let under = 0;
    for (let index = 0; index < 20_000; index++) if (sketch.add(3, `v${index}`) < 1) under++;
    expect(under).toBe(0);
    expect(sketch.add(1, 'reader')).toBeGreaterThanOrEqual(7);
    sketch.clear();
    expect(sketch.add(1, 'reader')).toBe(1);
  });
});

describe('pageviews a day', () => {
  it("sets aside a visitor's pageviews on a publisher beyond the day's limit, paced under the minute's", () => {
    const filter = new TrafficFilter({ ...LIMITS, pageviewsPerVisitorPerDay: 5 }, SMALL_FILTERS);
    // One pageview every two minutes: never near the minute's limit.
    const verdicts = Array.from({ length: 7 }, (_, index) =>
      pageview(filter, 'program', 'ip-1', { nowMs: NOW + index * 120_000 }),
    );
    expect(verdicts).toEqual([null, null, null, null, null, 'rate', 'rate']);
    // Another visitor, and the same visitor on another publisher, are counted apart.
    expect(pageview(filter, 'reader', 'ip-2')).toBeNull();
    expect(pageview(filter, 'program', 'ip-1', { publisherId: 2 })).toBeNull();
    // The next day starts again.
    expect(pageview(filter, 'program', 'ip-1', { day: '2026-11-23', nowMs: NOW + DAY_MS })).toBeNull();
  });
});

describe('the one-IP share', () => {
  it("flags an IP holding more than 5% of a publisher's visitors of the day, once it has 20", () => {
    const filter = new TrafficFilter(LIMITS, SMALL_FILTERS);
    for (let index = 0; index < 25; index++) expect(pageview(filter, `solo${index}`, `ip${index}`)).toBeNull();
    expect(pageview(filter, 'office-a', 'office')).toBeNull();
    // 2 of 27 visitors (7.4%) from one IP: beyond the share, for either of them.
    expect(pageview(filter, 'office-b', 'office')).toBe('oneIp');
    expect(pageview(filter, 'office-a', 'office')).toBe('oneIp');
    // Other publishers keep their own counts.
    expect(pageview(filter, 'office-b', 'office', { publisherId: 2 })).toBeNull();
  });

  it('lets an IP under the share, or a publisher under 20 visitors, be', () => {
    const large = new TrafficFilter(LIMITS, SMALL_FILTERS);
    for (let index = 0; index < 100; index++) pageview(large, `solo${index}`, `ip${index}`);
    expect(pageview(large, 'home-a', 'home')).toBeNull();
    expect(pageview(large, 'home-b', 'home')).toBeNull(); // 2 of 102: 2%
    const small = new TrafficFilter(LIMITS, SMALL_FILTERS);
    for (let index = 0; index < 5; index++) pageview(small, `solo${index}`, `ip${index}`);
    for (const visitor of ['a', 'b', 'c']) expect(pageview(small, visitor, 'shared')).toBeNull();
  });

  it('starts each day afresh', () => {
    const filter = new TrafficFilter(LIMITS, SMALL_FILTERS);
    for (let index = 0; index < 25; index++) pageview(filter, `solo${index}`, `ip${index}`);
    pageview(filter, 'office-a', 'office');
    expect(pageview(filter, 'office-b', 'office')).toBe('oneIp');
    expect(pageview(filter, 'office-b', 'office', { day: '2026-11-23' })).toBeNull();
    expect(filter.sharedIps).toBe(0);
  });

  it('keeps memory for shared IPs only, bounded, forgetting those with the fewest visitors first', () => {
    const filter = new TrafficFilter(LIMITS, SMALL_FILTERS, 100);
    for (let index = 0; index < 10_000; index++) pageview(filter, `solo${index}`, `ip${index}`);
    expect(filter.sharedIps).toBe(0);
    // A busy shared IP, then many IPs of two visitors each.
    for (let index = 0; index < 600; index++) pageview(filter, `office${index}`, 'office');
    for (let index = 0; index < 300; index++) {
      pageview(filter, `pair${index}-a`, `pair${index}`);
      pageview(filter, `pair${index}-b`, `pair${index}`);
    }
    expect(filter.sharedIps).toBeLessThanOrEqual(100);
    // The busy IP was kept: 601 of 11,201 visitors (5.4%) is beyond the share.
    expect(pageview(filter, 'office-new', 'office')).toBe('oneIp');
  });
});

describe('distinct visitors of one IP on a publisher, a minute and an hour (user-agent rotation)', () => {
  /** The default limits (20 a minute, 100 an hour), no other rule in the way (nor the one-IP share). */
  const ROTATION: TrafficLimits = {
    ...LIMITS,
    oneIpMinVisitors: 1e9,
    visitorsPerIpPerMinute: 20,
    visitorsPerIpPerHour: 100,
  };
  const filterWithTrips = () => {
    const filter = new TrafficFilter(ROTATION, SMALL_FILTERS);
    const trips: AddressTrip[] = [];
    filter.onTrip = (trip) => trips.push(trip);
    return { filter, trips };
  };

  it('sets an IP aside once its 21st user agent of a minute comes, for the rest of the day, telling the engine once', () => {
    const { filter, trips } = filterWithTrips();
    const verdicts = Array.from({ length: 21 }, (_, index) => pageview(filter, `agent-${index}`, 'rotating'));
    expect(verdicts.slice(0, 20)).toEqual(Array(20).fill(null));
    expect(verdicts[20]).toBe('ipVisitors');
    expect(trips).toEqual([{ publisherId: 1, ipHash: 'rotating', day: DAY, reason: 'ipVisitors' }]);
    // From now on, whoever comes from it: a visitor seen before, a new one, hours later the same day.
    expect(pageview(filter, 'agent-0', 'rotating')).toBe('ipVisitors');
    expect(pageview(filter, 'someone', 'rotating', { nowMs: NOW + 5 * 3_600_000 })).toBe('ipVisitors');
    expect(filter.flagOf(1, 'rotating', DAY)).toBe('ipVisitors');
    expect(trips).toHaveLength(1);
    // Another publisher, another IP, and the next day are judged apart.
    expect(pageview(filter, 'agent-0', 'rotating', { publisherId: 2 })).toBeNull();
    expect(pageview(filter, 'agent-0', 'other-ip')).toBeNull();
    expect(filter.flagOf(1, 'rotating', '2026-11-23')).toBeNull();
    expect(pageview(filter, 'agent-0', 'rotating', { day: '2026-11-23', nowMs: NOW + DAY_MS })).toBeNull();
  });

  it("counts a visitor once per window: an office's few browsers reloading pages are not many visitors", () => {
    const { filter, trips } = filterWithTrips();
    for (let round = 0; round < 30; round++) {
      for (let index = 0; index < 8; index++) {
        expect(pageview(filter, `colleague-${index}`, 'office', { nowMs: NOW + round * 1_000 })).toBeNull();
      }
    }
    expect(trips).toEqual([]);
  });

  it('holds an IP to 100 visitors an hour, however slowly they come', () => {
    const { filter, trips } = filterWithTrips();
    // 12 new user agents each minute (under 20): the 101st of the UTC hour trips the hour's rule.
    const hourStart = Math.floor(NOW / 3_600_000) * 3_600_000;
    const verdicts = Array.from({ length: 101 }, (_, index) =>
      pageview(filter, `slow-${index}`, 'paced', { nowMs: hourStart + Math.floor(index / 12) * 60_000 }),
    );
    expect(verdicts.slice(0, 100).every((verdict) => verdict === null)).toBe(true);
    expect(verdicts[100]).toBe('ipVisitors');
    expect(trips.map((trip) => trip.reason)).toEqual(['ipVisitors']);
  });

  it('starts each minute afresh (fixed UTC minutes)', () => {
    const { filter } = filterWithTrips();
    const minuteStart = Math.floor(NOW / 60_000) * 60_000;
    for (let index = 0; index < 20; index++) pageview(filter, `a-${index}`, 'ip', { nowMs: minuteStart + 59_000 });
    for (let index = 0; index < 20; index++) {
      expect(pageview(filter, `b-${index}`, 'ip', { nowMs: minuteStart + 60_000 })).toBeNull();
    }
  });

  it("counts pageviews without a browser's evidence towards their IP, answering their fault, not towards the publisher's visitors", () => {
    const { filter, trips } = filterWithTrips();
    const verdicts = Array.from({ length: 21 }, (_, index) =>
      pageview(filter, `program-${index}`, 'program', { evidenceFault: 'noEvidence' }),
    );
    expect(verdicts.slice(0, 20)).toEqual(Array(20).fill('noEvidence'));
    expect(verdicts[20]).toBe('ipVisitors');
    expect(trips).toHaveLength(1);
    expect(filter.visitorsOfIp(1, 'program')).toBe(1);
  });

  it('keeps the one-IP share of the day set aside too, once it trips, and tells the engine', () => {
    const filter = new TrafficFilter(LIMITS, SMALL_FILTERS);
    const trips: AddressTrip[] = [];
    filter.onTrip = (trip) => trips.push(trip);
    for (let index = 0; index < 25; index++) pageview(filter, `solo${index}`, `ip${index}`);
    expect(pageview(filter, 'office-a', 'office')).toBeNull();
    expect(pageview(filter, 'office-b', 'office')).toBe('oneIp');
    // Many more visitors elsewhere would bring its share under 5%: it stays set aside for the day.
    for (let index = 25; index < 200; index++) pageview(filter, `solo${index}`, `ip${index}`);
    expect(pageview(filter, 'office-a', 'office')).toBe('oneIp');
    expect(trips).toEqual([{ publisherId: 1, ipHash: 'office', day: DAY, reason: 'oneIp' }]);
  });
});

describe('WindowVisitors', () => {
  it('counts distinct visitors per (publisher, IP) in fixed windows, in bounded memory', () => {
    const window = new WindowVisitors(60_000, 2 ** 16, 10);
    expect(window.add(1, 'ip', 'a', NOW)).toBe(1);
    expect(window.add(1, 'ip', 'a', NOW)).toBe(1);
    expect(window.add(1, 'ip', 'b', NOW)).toBe(2);
    expect(window.add(2, 'ip', 'c', NOW)).toBe(1);
    // An earlier instant (a request that read the clock before an await) stays in the current window.
    expect(window.add(1, 'ip', 'c', NOW - 120_000)).toBe(3);
    expect(window.add(1, 'ip', 'd', NOW + 60_000)).toBe(1);
    // Beyond 10 shared IPs, those with the fewest visitors are forgotten: the busiest stays.
    for (let index = 0; index < 30; index++) window.add(1, 'busy', `v${index}`, NOW + 60_000);
    for (let index = 0; index < 40; index++) {
      window.add(1, `pair${index}`, 'x', NOW + 60_000);
      window.add(1, `pair${index}`, 'y', NOW + 60_000);
    }
    expect(window.add(1, 'busy', 'v-new', NOW + 60_000)).toBe(31);
  });
});

describe('AddressTally', () => {
  it("keeps each address's counted events of the day until taken, once", () => {
    const tally = new AddressTally(() => 1);
    tally.add(DAY, 1, 'ip', 'impression', 'd1');
    tally.add(DAY, 1, 'ip', 'click', 'c1');
    tally.add(DAY, 1, 'ip', 'impression', 'd2');
    tally.add(DAY, 2, 'ip', 'impression', 'd3');
    expect(tally.take(DAY, 1, 'ip')).toEqual({ impressions: ['d1', 'd2'], clicks: ['c1'] });
    expect(tally.take(DAY, 1, 'ip')).toBeNull();
    expect(tally.events).toBe(1);
    // A new day starts empty; an event of the day before, tallied late, is not kept.
    tally.add('2026-11-23', 1, 'ip', 'impression', 'd4');
    tally.add(DAY, 1, 'ip', 'impression', 'late');
    expect(tally.take(DAY, 2, 'ip')).toBeNull();
    expect(tally.take('2026-11-23', 1, 'ip')).toEqual({ impressions: ['d4'], clicks: [] });
  });

  it('stays bounded, forgetting the addresses with the fewest visitors first', () => {
    const visitors = new Map([['busy', 15]]);
    const tally = new AddressTally((_, ip) => visitors.get(ip) ?? 1, 100);
    for (let index = 0; index < 20; index++) tally.add(DAY, 1, 'busy', 'impression', `busy-${index}`);
    for (let index = 0; index < 200; index++) tally.add(DAY, 1, `home-${index}`, 'impression', `home-${index}`);
    expect(tally.events).toBeLessThanOrEqual(100);
    expect(tally.take(DAY, 1, 'busy')?.impressions).toHaveLength(20);
  });
});

describe('clicks and newsletter opens', () => {
  const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36';
  it('sets aside the clicks of one IP beyond 30 a minute, whatever user agents it shows', () => {
    const filter = new TrafficFilter(DEFAULT_TRAFFIC_LIMITS, SMALL_FILTERS);
    const verdicts = Array.from({ length: 31 }, (_, index) =>
      // A new user agent is a new visitor: only the IP's count stops it.
      filter.click({ visitor: `visitor-${index}`, ipHash: 'ip-1', userAgent, nowMs: NOW }),
    );
    expect(verdicts.slice(0, 30).every((verdict) => verdict === null)).toBe(true);
    expect(verdicts[30]).toBe('rate');
    expect(filter.click({ visitor: 'visitor-x', ipHash: 'ip-2', userAgent, nowMs: NOW })).toBeNull();
    expect(filter.click({ visitor: 'visitor-y', ipHash: 'ip-1', userAgent, nowMs: NOW + 60_000 })).toBeNull();
  });

  it('sets aside a visitor opening newsletters more than 30 times a minute, and bots', () => {
    const filter = new TrafficFilter(DEFAULT_TRAFFIC_LIMITS, SMALL_FILTERS);
    const open = (visitor: string, agent = userAgent) =>
      filter.open({
        publisherId: 7,
        visitor,
        ipHash: 'mail-proxy',
        ip: '198.51.100.1',
        issue: 'issue-1',
        userAgent: agent,
        day: DAY,
        nowMs: NOW,
      });
    const verdicts = Array.from({ length: 31 }, () => open('reader'));
    expect(verdicts.slice(0, 30).every((verdict) => verdict === null)).toBe(true);
    expect(verdicts[30]).toBe('rate');
    // Other readers behind the same mail service's address are not held against each other.
    expect(open('another reader')).toBeNull();
    expect(open('a crawler', 'Googlebot/2.1 (+http://www.google.com/bot.html)')).toBe('bot');
  });
});

describe("a newsletter's opens in a day", () => {
  const reader = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Microsoft Outlook 16.0.17928; Pro)';
  const at = (minute: number) => NOW + minute * 60_000;

  it("holds a reader's own mail program to 50 opens a day of one newsletter, and one IP to 1,000", () => {
    const filter = new TrafficFilter(DEFAULT_TRAFFIC_LIMITS, SMALL_FILTERS);
    const open = (visitor: string, minute: number, publisherId = 7, ipHash = 'home', day = DAY) =>
      filter.open({
        publisherId,
        visitor,
        ipHash,
        ip: '198.51.100.2',
        issue: 'a',
        userAgent: reader,
        day,
        nowMs: at(minute),
      });
    // One open a minute: under the minute's limit, over the day's after 50.
    const verdicts = Array.from({ length: 51 }, (_, minute) => open('reader', minute));
    expect(verdicts.slice(0, 50).every((verdict) => verdict === null)).toBe(true);
    expect(verdicts[50]).toBe('rate');
    // Another newsletter, and the next day, start again.
    expect(open('reader', 60, 8)).toBeNull();
    expect(open('reader', 61, 7, 'home', '2026-11-23')).toBeNull();
    // A new user agent at each open is a new reader: the IP's count of the day stops it.
    const fromOneIp = Array.from({ length: 1001 }, (_, index) => open(`agent-${index}`, 100 + index, 9, 'one-ip'));
    expect(fromOneIp.slice(0, 1000).every((verdict) => verdict === null)).toBe(true);
    expect(fromOneIp[1000]).toBe('rate');
  });
});

// Issue 32: 600 opens from one address with `User-Agent: Mozilla/5.0` in 13 s were all counted and billed.
describe("mail services' image proxies", () => {
  const GMAIL = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
  const YAHOO = 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html';
  const APPLE = 'Mozilla/5.0';
  // Documentation addresses standing for each provider's published ranges.
  const RANGES = MailProxyRanges.parse('[google]\n192.0.2.0/24\n[apple]\n198.51.100.0/24\n2001:db8::/32\n');
  const LIMITS = { ...DEFAULT_TRAFFIC_LIMITS, mailProxyOpensPerReaderPerIssue: 40, mailProxyOpensPerIssuePerDay: 100 };
  const filterOf = () => new TrafficFilter(LIMITS, SMALL_FILTERS, undefined, undefined, RANGES);
  const opener =
    (filter: TrafficFilter) =>
    (ip: string, userAgent: string, issue = 'issue-1', second = 0, visitor = `${ip}|${userAgent}`) =>
      filter.open({
        publisherId: 7,
        visitor,
        ipHash: `hash-${ip}`,
        ip,
        issue,
        userAgent,
        day: DAY,
        nowMs: NOW + second * 1000,
      });

  it.each([
    ['Apple Mail', APPLE],
    ['Gmail', GMAIL],
    ['Yahoo', YAHOO],
  ])("judges %s's proxy user agent from any other address as anybody's: a bot, as isbot says", (_name, agent) => {
    const open = opener(filterOf());
    const verdicts = Array.from({ length: 600 }, (_, index) => open('203.0.113.50', agent, 'issue-1', index / 46));
    expect(verdicts.every((verdict) => verdict === 'bot')).toBe(true);
  });

  it("holds a browser from a provider's addresses to a reader's limits: the address alone is no proxy", () => {
    const open = opener(filterOf());
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36';
    const verdicts = Array.from({ length: 600 }, (_, index) => open('192.0.2.9', browser, 'issue-1', index / 46));
    expect(verdicts.filter((verdict) => verdict === null)).toHaveLength(30);
  });

  it("trusts a provider's user agent only from that provider's ranges, not another's", () => {
    const open = opener(filterOf());
    expect(open('198.51.100.7', GMAIL)).toBe('bot');
    expect(open('192.0.2.7', APPLE)).toBe('bot');
    expect(open('192.0.2.7', GMAIL)).toBeNull();
    expect(open('198.51.100.7', APPLE)).toBeNull();
    expect(open('2001:db8::7', APPLE)).toBeNull();
    expect(open('::ffff:198.51.100.8', APPLE)).toBeNull();
  });

  it('counts a real proxy address beyond one reader, up to its cap per issue, then sets the rest aside', () => {
    const open = opener(filterOf());
    const verdicts = Array.from({ length: 600 }, (_, index) => open('192.0.2.1', GMAIL, 'issue-1', index / 46));
    expect(verdicts.slice(0, 40).every((verdict) => verdict === null)).toBe(true);
    expect(verdicts.slice(40).every((verdict) => verdict === 'rate')).toBe(true);
    // The same address for another issue, and another proxy address for this one, have their own caps.
    expect(open('192.0.2.1', GMAIL, 'issue-2')).toBeNull();
    expect(open('192.0.2.2', GMAIL, 'issue-1')).toBeNull();
  });

  it("caps an issue's proxy opens, all proxies together, without counting what a proxy's cap set aside", () => {
    const open = opener(filterOf());
    // 3 addresses x 40 = 120 allowed by the proxies' caps; the issue holds 100 of them (the first address's 60
    // opens beyond its cap spend none of the issue's).
    const verdicts = [1, 2, 3].flatMap((host) =>
      Array.from({ length: host === 1 ? 100 : 40 }, (_, index) => open(`192.0.2.${host}`, GMAIL, 'big', index / 46)),
    );
    expect(verdicts.filter((verdict) => verdict === null)).toHaveLength(100);
    expect(open('198.51.100.1', APPLE, 'big')).toBe('rate');
    expect(open('198.51.100.1', APPLE, 'another')).toBeNull();
  });

  it('holds proxies to the per-address limit a minute, as everyone', () => {
    const filter = new TrafficFilter(
      { ...LIMITS, requestsPerIpPerMinute: 10, mailProxyOpensPerReaderPerIssue: 1000 },
      SMALL_FILTERS,
      undefined,
      undefined,
      RANGES,
    );
    const open = opener(filter);
    const verdicts = Array.from({ length: 11 }, () => open('192.0.2.1', GMAIL));
    expect(verdicts.slice(0, 10).every((verdict) => verdict === null)).toBe(true);
    expect(verdicts[10]).toBe('rate');
  });
});

describe('the one-IP share at the decision endpoint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ delivery: { limits: LIMITS } });
  });
  afterAll(async () => t.close());

  it('sets aside the pageviews of visitors sharing one IP beyond its share, kept with their reason', async () => {
    const blog = await publisherId(t.db, 'Demo Blog');
    await onlyCampaign(t, await campaignOfBrand(t.db, 'velo-urbain.example'), { impressions: 1000 });
    for (let index = 0; index < 25; index++) {
      const { response } = await decide(t, blog, { ip: `10.20.0.${index + 1}` });
      expect(response.headers['x-helium-counted']).toBe('counted');
    }
    const office = { ip: '203.0.113.7' };
    const first = await decide(t, blog, { ...office, ua: 'Mozilla/5.0 (Windows NT 10.0) Firefox/130.0' });
    expect(first.response.headers['x-helium-counted']).toBe('counted');
    const page = 'http://localhost:8080/shared-ip';
    const second = await decide(t, blog, { ...office, ua: 'Mozilla/5.0 (Macintosh) Safari/605.1.15' }, page);
    expect(second.response.headers['x-helium-counted']).toBe('invalid');
    expect(second.ads).toEqual([]);
    const [row] = await t.db.select().from(pageviews).where(eq(pageviews.url, page));
    expect(row?.invalidReason).toBe('oneIp');
  });
});
