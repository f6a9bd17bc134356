import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, campaigns, invalidTraffic } from '@helium/db';
import { DEFAULT_TRAFFIC_LIMITS } from './traffic-filter.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  APPLE_PROXY,
  GMAIL_PROXY,
  GMAIL_UA,
  owlAppOptions,
  owlCalls,
  owlPublishers,
  YAHOO_UA,
} from '../../../test/owl-support.ts';
import { BROWSER_UA, type Visitor } from '../../../test/serve-support.ts';
import { toStartOfNextMinute } from '../../../test/trust-support.ts';

// Newsletter (owl) banner opens that user agents or floods cannot forge (setup: owl-support.ts).

let t: TestApp;
/** The random source of selection: low picks the first eligible advertiser, high the last. */
let draw = 0.001;
let newsletter: number;
let hash: string;

beforeAll(async () => {
  t = await buildTestApp(owlAppOptions(() => draw));
  ({ newsletter, hash } = await owlPublishers(t));
});
afterAll(async () => t.close());

const { owl, issueAd, impressionsOf } = owlCalls(() => ({ t, newsletter, hash }));

// Issue 32: 600 opens from one address with `User-Agent: Mozilla/5.0` in 13 s were all counted and billed.
describe('newsletter opens that cannot be forged', () => {
  /** A fresh issue whose ad's campaign has credits for every open of the test. */
  async function freshIssue(issue: string) {
    draw = 0.001;
    await owl(1, issue, 'image', { ip: '10.61.0.1' });
    const adId = (await issueAd(1, issue))!;
    const [ad] = await t.db.select({ campaignId: ads.campaignId }).from(ads).where(eq(ads.id, adId));
    await t.db.update(campaigns).set({ remainingImpressions: 1_000_000 }).where(eq(campaigns.id, ad!.campaignId));
    await t.app.delivery.refresh({ counters: true });
    return adId;
  }

  /** 600 opens in 13 seconds, as the attack sent them; the answers' counts. */
  async function attack(issue: string, visitor: Visitor) {
    const answers = new Map<string, number>();
    // From the start of a minute, so that the 13 seconds fall in one.
    toStartOfNextMinute(t);
    for (let open = 0; open < 600; open++) {
      if (open % 46 === 45) t.clock.advance(1000);
      const counted = String((await owl(1, issue, 'image', visitor)).headers['x-helium-counted']);
      answers.set(counted, (answers.get(counted) ?? 0) + 1);
    }
    await t.app.delivery.recorder.flush();
    return answers;
  }

  async function setAside(adId: number, reason: 'bot' | 'rate') {
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invalidTraffic)
      .where(and(eq(invalidTraffic.adId, adId), eq(invalidTraffic.reason, reason)));
    return row?.n ?? 0;
  }

  it.each([
    ["Apple Mail's bare user agent", 'Mozilla/5.0'],
    ["Gmail's proxy user agent", GMAIL_UA],
    ["Yahoo's proxy user agent", YAHOO_UA],
  ])('counts none of 600 opens with %s from an address that is no proxy: bots', async (_label, ua) => {
    const issue = `forged-${ua.length}`;
    const adId = await freshIssue(issue);
    const before = await impressionsOf(adId);
    const bots = await setAside(adId, 'bot');
    const answers = await attack(issue, { ip: '192.0.2.77', ua });
    expect(answers.get('invalid')).toBe(600);
    expect(await impressionsOf(adId)).toBe(before);
    expect(await setAside(adId, 'bot')).toBe(bots + 600);
  });

  it("holds a browser's 600 opens from one address to a reader's 30 a minute", async () => {
    const adId = await freshIssue('forged-browser');
    const before = await impressionsOf(adId);
    const answers = await attack('forged-browser', { ip: '192.0.2.78', ua: BROWSER_UA });
    expect(answers.get('counted')).toBe(30);
    expect(await impressionsOf(adId)).toBe(before + 30);
  });

  it("counts a real Gmail proxy address's opens beyond one reader's, up to its cap per issue (200), then sets them aside", async () => {
    const adId = await freshIssue('real-proxy');
    const before = await impressionsOf(adId);
    const rate = await setAside(adId, 'rate');
    const answers = await attack('real-proxy', GMAIL_PROXY);
    expect(answers.get('counted')).toBe(DEFAULT_TRAFFIC_LIMITS.mailProxyOpensPerReaderPerIssue);
    expect(answers.get('invalid')).toBe(600 - DEFAULT_TRAFFIC_LIMITS.mailProxyOpensPerReaderPerIssue);
    expect(await impressionsOf(adId)).toBe(before + DEFAULT_TRAFFIC_LIMITS.mailProxyOpensPerReaderPerIssue);
    expect(await setAside(adId, 'rate')).toBe(rate + 600 - DEFAULT_TRAFFIC_LIMITS.mailProxyOpensPerReaderPerIssue);
    // Apple's proxy, and another Gmail address, still count for the same issue: the cap is per proxy reader.
    expect((await owl(1, 'real-proxy', 'image', APPLE_PROXY)).headers['x-helium-counted']).toBe('counted');
    expect(
      (await owl(1, 'real-proxy', 'image', { ...GMAIL_PROXY, ip: '66.249.84.11' })).headers['x-helium-counted'],
    ).toBe('counted');
  });
});
