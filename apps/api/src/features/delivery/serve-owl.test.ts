import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWSLETTER_ISSUE_PLACEHOLDER } from '@helium/contracts';
import { adClicks, adLeads, adImpressions, ads, dailyAdStats, invalidTraffic, owlIssueAds } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  APPLE_PROXY,
  GMAIL_PROXY,
  owlAppOptions,
  owlCalls,
  owlPublishers,
  READER,
  YAHOO_UA,
} from '../../../test/owl-support.ts';
import { BOT_UA, BROWSER_UA } from '../../../test/serve-support.ts';

/*
 * Newsletter (owl) banners (docs/decisions.md section 4): the image link chooses the issue's ad at its first open and
 * keeps it for that issue, counts an impression per open (bots excluded), and the click link redirects to that
 * ad's link and counts a click.
 */

let t: TestApp;
/** The random source of selection: low picks the first eligible advertiser, high the last. */
let draw = 0.001;
/** When set, each draw picks the other end than the one before (so that two choices would differ). */
let alternate = false;
let lastLow = false;
let newsletter: number;
let blog: number;
let hash: string;

beforeAll(async () => {
  const random = () => {
    if (!alternate) return draw;
    lastLow = !lastLow;
    return lastLow ? 0.001 : 0.999;
  };
  t = await buildTestApp(owlAppOptions(random));
  ({ newsletter, blog, hash } = await owlPublishers(t));
});
afterAll(async () => t.close());

const { owl, issueAd, impressionsOf } = owlCalls(() => ({ t, newsletter, hash }));

/** The ad's served count in the newsletter's daily summary. */
async function servedOf(adId: number) {
  const [row] = await t.db
    .select({ n: sql<number>`coalesce(sum(${dailyAdStats.served}), 0)::int` })
    .from(dailyAdStats)
    .where(and(eq(dailyAdStats.adId, adId), eq(dailyAdStats.publisherId, newsletter)));
  return row?.n ?? 0;
}

describe('newsletter banner image', () => {
  it('chooses the ad at the first open of an issue and keeps it for that issue', async () => {
    draw = 0.001;
    const first = await owl(1, 'issue-101', 'image');
    expect(first.statusCode).toBe(302);
    expect(first.headers['cache-control']).toBe('no-store');
    const chosen = await issueAd(1, 'issue-101');
    expect(chosen).not.toBeNull();
    // The ad's stored image (the demo seed gives them real ones), else its placeholder creative.
    const mediaOf = (adId: number | null | undefined) => t.app.delivery.mediaUrl(t.app.delivery.adById(adId!)!).src;
    expect(first.headers.location).toBe(mediaOf(chosen));

    // With the other draw, a new issue gets the other advertiser's ad...
    draw = 0.999;
    const other = await owl(1, 'issue-102', 'image');
    expect(other.statusCode).toBe(302);
    const otherAd = await issueAd(1, 'issue-102');
    expect(otherAd).not.toBe(chosen);
    expect(other.headers.location).toBe(mediaOf(otherAd));

    // ...while the first issue keeps its ad on every later open, after a restart of the index too.
    await t.app.delivery.refresh();
    for (const ip of ['10.60.1.1', '10.60.1.2']) {
      const again = await owl(1, 'issue-101', 'image', { ip });
      expect(again.headers.location).toBe(first.headers.location);
    }
    expect(await issueAd(1, 'issue-101')).toBe(chosen);
  });

  it("gives every reader of an issue the same ad when its first opens come at once (a mail service's fetch)", async () => {
    const byAd = async () =>
      new Map(
        (
          await t.db
            .select({ adId: adImpressions.adId, n: sql<number>`count(*)::int` })
            .from(adImpressions)
            .where(eq(adImpressions.publisherId, newsletter))
            .groupBy(adImpressions.adId)
        ).map((row) => [row.adId, row.n]),
      );
    const before = await byAd();
    alternate = true;
    try {
      const opens = await Promise.all(
        Array.from({ length: 6 }, (_, index) => owl(1, 'issue-rush', 'image', { ip: `10.60.2.${index + 1}` })),
      );
      await t.app.delivery.recorder.flush();
      expect(new Set(opens.map((open) => open.headers.location)).size).toBe(1);
      const chosen = await issueAd(1, 'issue-rush');
      expect(chosen).not.toBeNull();
      expect(opens[0]!.headers.location).toBe(t.app.delivery.mediaUrl(t.app.delivery.adById(chosen!)!).src);
      // Every open is billed to the issue's ad, and to no other.
      const after = await byAd();
      for (const [adId, n] of after) {
        expect(n - (before.get(adId) ?? 0), `ad ${adId}`).toBe(adId === chosen ? 6 : 0);
      }
    } finally {
      alternate = false;
    }
  });

  it('keeps each banner of an issue apart', async () => {
    draw = 0.001;
    await owl(1, 'issue-103', 'image');
    draw = 0.999;
    await owl(2, 'issue-103', 'image');
    const top = await issueAd(1, 'issue-103');
    const bottom = await issueAd(2, 'issue-103');
    expect(top).not.toBeNull();
    expect(bottom).not.toBeNull();
    expect(bottom).not.toBe(top);
  });

  it('counts an impression per open, in the daily summary as newsletter traffic', async () => {
    draw = 0.001;
    await owl(1, 'issue-104', 'image');
    const adId = (await issueAd(1, 'issue-104'))!;
    const daily = async () =>
      t.db
        .select({ impressions: sql<number>`sum(${dailyAdStats.impressions})::int`, channel: dailyAdStats.channel })
        .from(dailyAdStats)
        .where(and(eq(dailyAdStats.adId, adId), eq(dailyAdStats.publisherId, newsletter)))
        .groupBy(dailyAdStats.channel);
    const before = await impressionsOf(adId);
    const [dailyBefore] = await daily();
    for (let open = 0; open < 3; open += 1) {
      const response = await owl(1, 'issue-104', 'image', { ip: `10.60.2.${open + 1}` });
      expect(response.statusCode).toBe(302);
      expect(response.headers['x-helium-counted']).toBe('counted');
    }
    expect(await impressionsOf(adId)).toBe(before + 3);
    // The seeded history may already hold newsletter impressions of this ad: the opens add to them.
    expect(await daily()).toEqual([{ impressions: (dailyBefore?.impressions ?? 0) + 3, channel: 'owl' }]);
  });

  it('sets aside a reader opening an issue more than 30 times a minute', async () => {
    draw = 0.001;
    await owl(1, 'issue-110', 'image');
    const adId = (await issueAd(1, 'issue-110'))!;
    const before = await impressionsOf(adId);
    const reader = { ip: '10.60.9.1' };
    const answers: string[] = [];
    for (let open = 0; open < 31; open += 1) {
      answers.push(String((await owl(1, 'issue-110', 'image', reader)).headers['x-helium-counted']));
    }
    expect(answers.slice(0, 30).every((answer) => answer === 'counted')).toBe(true);
    expect(answers[30]).toBe('invalid');
    expect(await impressionsOf(adId)).toBe(before + 30);
    const [aside] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invalidTraffic)
      .where(and(eq(invalidTraffic.adId, adId), eq(invalidTraffic.reason, 'rate')));
    expect(aside?.n).toBe(1);
    // The next minute, the reader counts again.
    t.clock.advance(60_000);
    expect((await owl(1, 'issue-110', 'image', reader)).headers['x-helium-counted']).toBe('counted');
  });

  it('shows the issue its banner and leads to its page, but bills no open or click once the ad is ejected', async () => {
    draw = 0.001;
    await owl(2, 'issue-111', 'image');
    const adId = (await issueAd(2, 'issue-111'))!;
    await t.db.update(ads).set({ isEjected: true }).where(eq(ads.id, adId));
    await t.app.delivery.refresh();
    try {
      const before = await impressionsOf(adId);
      const open = await owl(2, 'issue-111', 'image', { ip: '10.60.9.2' });
      expect(open.statusCode).toBe(302);
      expect(open.headers['x-helium-counted']).toBe('ignored');
      expect(await impressionsOf(adId)).toBe(before);
      // Its link still leads to the ad's page, billing no click either (as the image bills no open).
      const clicksBefore = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(adClicks)
        .where(eq(adClicks.adId, adId));
      const clicked = await owl(2, 'issue-111', 'click', { ip: '10.60.9.3' });
      expect(clicked.statusCode).toBe(302);
      expect(clicked.headers['x-helium-counted']).toBe('ignored');
      const [ad] = await t.db.select({ link: ads.link }).from(ads).where(eq(ads.id, adId));
      expect(String(clicked.headers.location).startsWith(ad!.link!)).toBe(true);
      const clicksAfter = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(adClicks)
        .where(eq(adClicks.adId, adId));
      expect(clicksAfter[0]!.n).toBe(clicksBefore[0]!.n);
    } finally {
      await t.db.update(ads).set({ isEjected: false }).where(eq(ads.id, adId));
      await t.app.delivery.refresh();
    }
  });

  it('chooses only newsletter-format ads for an issue', async () => {
    for (const [index, value] of [0.001, 0.5, 0.999].entries()) {
      draw = value;
      await owl(1, `issue-12${index}`, 'image', { ip: `10.60.9.${10 + index}` });
      const adId = await issueAd(1, `issue-12${index}`);
      const [ad] = await t.db.select({ formatId: ads.formatId }).from(ads).where(eq(ads.id, adId!));
      expect(ad?.formatId).toBe(2);
    }
  });

  it('never chooses a video for an issue: e-mail clients show the banner as an image', async () => {
    draw = 0.999;
    await owl(1, 'issue-130', 'image', { ip: '10.60.9.20' });
    const kept = (await issueAd(1, 'issue-130'))!;
    const others = await t.db
      .select({ id: ads.id, type: ads.type, mp4: ads.mp4 })
      .from(ads)
      .where(and(eq(ads.formatId, 2), sql`${ads.id} <> ${kept}`));
    expect(others.length).toBeGreaterThan(0);
    // Every other newsletter ad a video with its file: each new issue gets the image left.
    for (const ad of others) await t.db.update(ads).set({ type: 'video', mp4: 'banner.mp4' }).where(eq(ads.id, ad.id));
    await t.app.delivery.refresh();
    try {
      for (const [index, value] of [0.001, 0.5, 0.999].entries()) {
        draw = value;
        const response = await owl(1, `issue-13${index + 1}`, 'image', { ip: `10.60.9.${21 + index}` });
        expect(response.statusCode).toBe(302);
        expect(String(response.headers.location)).not.toMatch(/\.mp4$/);
        expect(await issueAd(1, `issue-13${index + 1}`)).toBe(kept);
      }
    } finally {
      for (const ad of others) await t.db.update(ads).set({ type: ad.type, mp4: ad.mp4 }).where(eq(ads.id, ad.id));
      await t.app.delivery.refresh();
    }
  });

  it("counts its opens toward the newsletter's own mode, not toward the publisher's desktop pages", async () => {
    draw = 0.001;
    const webDesktop = () => t.app.delivery.displayPlan(newsletter, 'desktop').today;
    const newsletterDisplay = () => t.app.delivery.state().displayToday.get(`${newsletter}:owl`) ?? 0;
    const [desktopBefore, newsletterBefore] = [webDesktop(), newsletterDisplay()];
    for (const ip of ['10.60.9.30', '10.60.9.31']) {
      expect((await owl(1, 'issue-130', 'image', { ip })).headers['x-helium-counted']).toBe('counted');
    }
    expect(webDesktop()).toBe(desktopBefore);
    expect(newsletterDisplay()).toBe(newsletterBefore + 2);
    // After a restart of the counters (as at start), the same split from the database.
    await t.app.delivery.refresh({ counters: true });
    expect(webDesktop()).toBe(desktopBefore);
    expect(newsletterDisplay()).toBe(newsletterBefore + 2);
  });

  it('counts no impression for a bot, which is set aside and was not served', async () => {
    draw = 0.001;
    await owl(1, 'issue-105', 'image');
    const adId = (await issueAd(1, 'issue-105'))!;
    const before = await impressionsOf(adId);
    const servedBefore = await servedOf(adId);
    const [invalidBefore] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invalidTraffic)
      .where(and(eq(invalidTraffic.adId, adId), eq(invalidTraffic.reason, 'bot')));
    const response = await owl(1, 'issue-105', 'image', { ip: '10.60.3.1', ua: BOT_UA });
    expect(response.statusCode).toBe(302);
    expect(response.headers['x-helium-counted']).toBe('invalid');
    expect(await impressionsOf(adId)).toBe(before);
    const [invalidAfter] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invalidTraffic)
      .where(and(eq(invalidTraffic.adId, adId), eq(invalidTraffic.reason, 'bot')));
    expect(invalidAfter!.n).toBe(invalidBefore!.n + 1);
    // No decision for it: served counts only what could be billed.
    expect(await servedOf(adId)).toBe(servedBefore);
  });

  it('sets aside an open from a data centre, whatever its user agent', async () => {
    draw = 0.001;
    await owl(1, 'issue-111', 'image');
    const adId = (await issueAd(1, 'issue-111'))!;
    const before = await impressionsOf(adId);
    for (const ua of [
      BROWSER_UA,
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    ]) {
      const response = await owl(1, 'issue-111', 'image', { ip: '203.0.113.9', ua });
      expect(response.headers['x-helium-counted']).toBe('invalid');
    }
    expect(await impressionsOf(adId)).toBe(before);
    const [aside] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invalidTraffic)
      .where(and(eq(invalidTraffic.adId, adId), eq(invalidTraffic.reason, 'dataCentre')));
    expect(aside?.n).toBe(2);
  });

  it("does not let a user agent that only names a mail proxy through a reader's 30 opens a minute", async () => {
    draw = 0.001;
    await owl(1, 'issue-112', 'image');
    const adId = (await issueAd(1, 'issue-112'))!;
    const before = await impressionsOf(adId);
    // A browser's user agent with the proxy's name added: a script posing as Gmail's proxy.
    const forger = { ip: '10.60.10.1', ua: `${BROWSER_UA} GoogleImageProxy` };
    const answers: string[] = [];
    for (let open = 0; open < 35; open += 1) {
      answers.push(String((await owl(1, 'issue-112', 'image', forger)).headers['x-helium-counted']));
    }
    const counted = answers.filter((answer) => answer === 'counted').length;
    expect(counted).toBeLessThanOrEqual(30);
    expect(answers.slice(30).every((answer) => answer === 'invalid')).toBe(true);
    expect(await impressionsOf(adId)).toBe(before + counted);
  });

  it("counts the opens that mail services' image proxies load from their providers' addresses (Gmail, Apple Mail)", async () => {
    draw = 0.001;
    await owl(1, 'issue-107', 'image');
    const adId = (await issueAd(1, 'issue-107'))!;
    const before = await impressionsOf(adId);
    // Addresses of the published ranges (mail-proxy-ranges.txt): Google's own, and iCloud Private Relay's egress.
    for (const proxy of [GMAIL_PROXY, APPLE_PROXY, { ip: '2a02:26f7:b3c0:4000::1', ua: 'Mozilla/5.0' }]) {
      const response = await owl(1, 'issue-107', 'image', proxy);
      expect(response.headers['x-helium-counted']).toBe('counted');
    }
    // Yahoo publishes no ranges: its proxy's user agent is anybody's, and isbot calls it a bot.
    expect((await owl(1, 'issue-107', 'image', { ip: '10.60.8.1', ua: YAHOO_UA })).headers['x-helium-counted']).toBe(
      'invalid',
    );
    // One proxy address and user agent loads the image for many readers: more than one reader's 30 a minute.
    for (let open = 0; open < 40; open++) {
      const response = await owl(1, 'issue-107', 'image', GMAIL_PROXY);
      expect(response.headers['x-helium-counted']).toBe('counted');
    }
    expect(await impressionsOf(adId)).toBe(before + 43);
  });

  it('keeps a bounded number of issues in memory; an issue forgotten there keeps its ad from the database', async () => {
    const issues = t.app.delivery.parts.issues as unknown as { issues: Map<string, number>; maxInMemory: number };
    Object.assign(issues, { maxInMemory: 3 });
    try {
      draw = 0.001;
      await owl(1, 'bounded-0', 'image');
      const first = await issueAd(1, 'bounded-0');
      expect(first).not.toBeNull();
      for (let issue = 1; issue <= 4; issue++) await owl(1, `bounded-${issue}`, 'image');
      expect(issues.issues.size).toBeLessThanOrEqual(3);
      expect([...issues.issues.keys()].some((key) => key.endsWith('|bounded-0'))).toBe(false);
      // Chosen otherwise now, the issue still shows the ad it was sent with.
      draw = 0.999;
      const again = await owl(1, 'bounded-0', 'image');
      expect(again.statusCode).toBe(302);
      expect(await issueAd(1, 'bounded-0')).toBe(first);
      const [ad] = await t.db.select({ image: ads.image }).from(ads).where(eq(ads.id, first!));
      expect(String(again.headers.location)).toContain(ad!.image ?? `/serve/creative/${first}.svg`);
    } finally {
      Object.assign(issues, { maxInMemory: 10_000 });
    }
  });

  it('answers a blank banner to a forged publisher, a wrong banner index or a web-only publisher', async () => {
    for (const [publisher, banner] of [
      ['not-a-hash', 1],
      [String(newsletter), 1],
      [hash, 3],
      [t.app.ctx.hashIds.encodePublisher(blog), 1],
    ] as const) {
      const response = await owl(banner, 'issue-106', 'image', READER, publisher);
      expect(response.statusCode, `${publisher}/${banner}`).toBe(200);
      expect(response.headers['content-type']).toBe('image/gif');
      expect(response.headers['x-helium-counted']).toBe('ignored');
      // 600 x 1 (GIF's logical screen size, little-endian): the snippet's 600-wide image stays a line, not a
      // 600 x 600 blank square as a 1 x 1 pixel would.
      const gif = response.rawPayload;
      expect(gif.subarray(0, 6).toString()).toBe('GIF89a');
      expect([gif.readUInt16LE(6), gif.readUInt16LE(8)]).toEqual([600, 1]);
    }
    const [stored] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(owlIssueAds)
      .where(eq(owlIssueAds.issue, 'issue-106'));
    expect(stored!.n).toBe(0);
  });

  it("accepts the snippet's unfilled placeholder as an issue", async () => {
    const response = await owl(1, NEWSLETTER_ISSUE_PLACEHOLDER, 'image');
    expect(response.statusCode).toBe(302);
  });
});

describe('newsletter banner click', () => {
  it("redirects to the issue's ad link with a click id and counts one billed click per hour per reader", async () => {
    draw = 0.999;
    const image = await owl(2, 'issue-201', 'image');
    expect(image.statusCode).toBe(302);
    const adId = (await issueAd(2, 'issue-201'))!;
    const [ad] = await t.db.select({ link: ads.link }).from(ads).where(eq(ads.id, adId));
    draw = 0.001;
    const clicked = await owl(2, 'issue-201', 'click', { ip: '10.60.4.1' });
    expect(clicked.statusCode).toBe(302);
    expect(clicked.headers['x-helium-counted']).toBe('unique');
    const location = new URL(clicked.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(ad!.link);
    const clickId = location.searchParams.get('hclid');
    expect(clickId).toBeTruthy();
    const [row] = await t.db.select().from(adClicks).where(eq(adClicks.id, clickId!));
    expect(row).toMatchObject({ adId, publisherId: newsletter, isUnique: true });

    const repeat = await owl(2, 'issue-201', 'click', { ip: '10.60.4.1' });
    expect(repeat.statusCode).toBe(302);
    expect(repeat.headers['x-helium-counted']).toBe('repeat');
    // Every reader of the issue has the same link: another reader's click in the same hour bills too, and a
    // lead reported with its click id counts for that reader's click.
    const other = await owl(2, 'issue-201', 'click', { ip: '10.60.4.2' });
    expect(other.headers['x-helium-counted']).toBe('unique');
    const otherAgain = await owl(2, 'issue-201', 'click', { ip: '10.60.4.2' });
    expect(otherAgain.headers['x-helium-counted']).toBe('repeat');
    const otherClickId = new URL(other.headers.location as string).searchParams.get('hclid')!;
    const againClickId = new URL(otherAgain.headers.location as string).searchParams.get('hclid')!;
    const pixel = await t.app.inject({
      method: 'GET',
      url: `/serve/l?hclid=${againClickId}`,
      remoteAddress: '127.0.0.1',
    });
    expect(pixel.headers['x-helium-counted']).toBe('counted');
    await t.app.delivery.recorder.flush();
    expect(await t.db.select().from(adLeads).where(eq(adLeads.clickId, otherClickId))).toHaveLength(1);
    t.clock.advance(61 * 60_000);
    const later = await owl(2, 'issue-201', 'click', { ip: '10.60.4.1' });
    expect(later.headers['x-helium-counted']).toBe('unique');
  });

  it('counts no click for a bot', async () => {
    draw = 0.001;
    await owl(1, 'issue-202', 'image');
    const response = await owl(1, 'issue-202', 'click', { ip: '10.60.5.1', ua: BOT_UA });
    expect(response.statusCode).toBe(302);
    expect(response.headers['x-helium-counted']).not.toBe('unique');
  });

  it('answers nothing for a forged publisher or a web-only publisher, and stores no issue', async () => {
    for (const publisher of ['not-a-hash', t.app.ctx.hashIds.encodePublisher(blog)]) {
      const response = await owl(1, 'issue-203', 'click', READER, publisher);
      expect(response.statusCode, publisher).toBe(204);
    }
    const [stored] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(owlIssueAds)
      .where(eq(owlIssueAds.issue, 'issue-203'));
    expect(stored!.n).toBe(0);
  });
});
