import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adClicks,
  adDecisions,
  adLeads,
  ads as adsTable,
  campaigns,
  invalidTraffic,
  installHeartbeats,
  publishers,
} from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import {
  BOT_UA,
  click,
  counts,
  decide,
  decisionIdOf,
  onlyCampaign,
  tokenFields,
  view,
  blogAndTwoCampaigns,
} from '../../../test/serve-support.ts';
import { DAY_MS } from '@helium/domain';

let t: TestApp;
let blog: number;
let bikes: number;
let ceramics: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ blog, bikes, ceramics } = await blogAndTwoCampaigns(t.db));
});
afterAll(async () => t.close());

/** Runs `check` with every ad of the campaign a video with its file (the engine may choose any of them), then restores them. */
async function withAdsShownAsVideos(campaignId: number, check: () => Promise<void>) {
  const originals = await t.db
    .select({ id: adsTable.id, type: adsTable.type, mp4: adsTable.mp4 })
    .from(adsTable)
    .where(eq(adsTable.campaignId, campaignId));
  await t.db.update(adsTable).set({ type: 'video', mp4: 'video.mp4' }).where(eq(adsTable.campaignId, campaignId));
  await t.app.delivery.refresh();
  try {
    await check();
  } finally {
    for (const original of originals) {
      await t.db.update(adsTable).set({ type: original.type, mp4: original.mp4 }).where(eq(adsTable.id, original.id));
    }
    await t.app.delivery.refresh();
  }
}

describe('decision', () => {
  it('answers an ad with a view token and a click link, open to any origin, and counts the pageview', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const before = await counts(t.db);
    const { response, ads } = await decide(t, blog, { ip: '10.1.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(ads).toHaveLength(1);
    expect(ads[0]?.click).toMatch(/\/c\/[\w-]+\.[\w-]+$/);
    expect((await counts(t.db)).daily.pageviews).toBe(before.daily.pageviews + 1);
    const [beat] = await t.db.select().from(installHeartbeats).where(eq(installHeartbeats.publisherId, blog));
    expect(beat?.host).toBe('localhost');
    const [publisher] = await t.db.select().from(publishers).where(eq(publishers.id, blog));
    expect(publisher?.isInstalled).toBe(true);
  });

  it("keeps the page's http or https address without its fragment, and no address of another kind", async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const pageOf = async (ip: string, address: string) => {
      const { response, ads } = await decide(t, blog, { ip }, address, 'http://localhost:8080');
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-helium-counted']).toBe('counted');
      const [decision] = await t.db
        .select()
        .from(adDecisions)
        .where(eq(adDecisions.id, decisionIdOf(ads[0]!)));
      return decision?.url;
    };
    expect(await pageOf('10.1.0.3', 'http://localhost:8080/article?x=1#comments')).toBe(
      'http://localhost:8080/article?x=1',
    );
    expect(await pageOf('10.1.0.4', 'javascript:alert(document.cookie)//')).toBe('');
    expect(await pageOf('10.1.0.5', 'data:text/html,<script>alert(1)</script>')).toBe('');
    expect(await pageOf('10.1.0.6', 'not an address')).toBe('');
  });

  it('answers nothing for an unknown publisher, without an error', async () => {
    const { response, ads } = await decide(t, 999_999, { ip: '10.1.0.2' });
    expect(response.statusCode).toBe(200);
    expect(ads).toEqual([]);
  });
});

describe('validated impressions', () => {
  it('count once per slot per pageview, against the decision, and spend one credit', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const before = await counts(t.db);
    const visitor = { ip: '10.2.0.1' };
    const { ads } = await decide(t, blog, visitor);
    const token = ads[0]!.view;
    const first = await view(t, token, visitor);
    expect(first.statusCode).toBe(204);
    expect(first.headers['x-helium-counted']).toBe('counted');
    const again = await view(t, token, visitor);
    expect(again.statusCode).toBe(204);
    expect(again.headers['x-helium-counted']).toBe('ignored');
    const after = await counts(t.db);
    expect(after.impressions).toBe(before.impressions + 1);
    expect(after.daily.impressions).toBe(before.daily.impressions + 1);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    expect(campaign?.remainingImpressions).toBe(999);
  });

  it('a view beacon earlier than 1 s after its decision (2 s for a video) is set aside; the real one still counts', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const tooEarly = async () =>
      (
        await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(invalidTraffic)
          .where(eq(invalidTraffic.reason, 'tooEarly'))
      )[0]!.n;
    const before = await counts(t.db);
    const setAsideBefore = await tooEarly();
    const visitor = { ip: '10.2.0.5' };
    const { ads } = await decide(t, blog, visitor);
    expect(ads[0]?.kind).toBe('image');
    // A program replaying the token at once, then 0.9 s after the decision: not measured by the script.
    expect((await view(t, ads[0]!.view, visitor, 0)).headers['x-helium-counted']).toBe('invalid');
    expect((await view(t, ads[0]!.view, visitor, 900)).headers['x-helium-counted']).toBe('invalid');
    expect((await counts(t.db)).impressions).toBe(before.impressions);
    expect(await tooEarly()).toBe(setAsideBefore + 2);
    // The visitor's own beacon, once the ad has been in view for a second, counts.
    expect((await view(t, ads[0]!.view, visitor, 100)).headers['x-helium-counted']).toBe('counted');
    expect((await counts(t.db)).impressions).toBe(before.impressions + 1);

    // A video ad (shown as a video: it has its file) needs 2 s.
    await withAdsShownAsVideos(bikes, async () => {
      const watcher = { ip: '10.2.0.6' };
      const video = await decide(t, blog, watcher);
      expect(video.ads[0]?.kind).toBe('video');
      expect((await view(t, video.ads[0]!.view, watcher, 1_500)).headers['x-helium-counted']).toBe('invalid');
      expect((await view(t, video.ads[0]!.view, watcher, 500)).headers['x-helium-counted']).toBe('counted');
      expect((await counts(t.db)).impressions).toBe(before.impressions + 2);
    });
  });

  it('the earliest view follows how the ad was shown: a video file uploaded meanwhile does not delay it', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.2.0.7' };
    const { ads } = await decide(t, blog, visitor);
    expect(ads[0]?.kind).toBe('image');
    await withAdsShownAsVideos(bikes, async () => {
      // Shown as an image, so the script sent it after its second: it counts, though the ad is now a video.
      expect((await view(t, ads[0]!.view, visitor, 1_100)).headers['x-helium-counted']).toBe('counted');
    });
  });

  it('a view or click of a decision whose record a crash lost still counts, once, from what its token carries', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.1.7.1' };
    const { ads } = await decide(t, blog, visitor);
    const decisionId = decisionIdOf(ads[0]!);
    // What a SIGKILL between the answer and the commit of its batch leaves: no record, nothing in memory
    // (neither the decisions nor their reservations).
    const forget = () => {
      const { parts } = t.app.delivery;
      (parts.decisions as unknown as { decisions: Map<string, unknown> }).decisions.clear();
      (parts.billing.credits as unknown as { reserved: Map<number, number> }).reserved.clear();
    };
    await t.db.delete(adDecisions).where(eq(adDecisions.id, decisionId));
    forget();
    const before = await counts(t.db);
    const first = await view(t, ads[0]!.view, visitor);
    expect(first.headers['x-helium-counted']).toBe('counted');
    expect((await counts(t.db)).impressions).toBe(before.impressions + 1);
    // The decision record is written again with the impression, so the view stays counted once.
    const [again] = await t.db.select().from(adDecisions).where(eq(adDecisions.id, decisionId));
    expect(again?.adId).toBeGreaterThan(0);
    expect((await view(t, ads[0]!.view, visitor)).headers['x-helium-counted']).toBe('ignored');
    forget();
    expect((await view(t, ads[0]!.view, visitor)).headers['x-helium-counted']).toBe('ignored');
    expect((await counts(t.db)).impressions).toBe(before.impressions + 1);
    // A click of a lost decision still redirects to the ad and counts.
    const other = await decide(t, blog, { ip: '10.1.7.2' });
    const otherId = decisionIdOf(other.ads[0]!);
    await t.db.delete(adDecisions).where(eq(adDecisions.id, otherId));
    forget();
    const clicked = await click(t, other.ads[0]!.click, { ip: '10.1.7.2' });
    expect(clicked.statusCode).toBe(302);
    expect(clicked.headers['x-helium-counted']).toBe('unique');
  });

  it('a forged, tampered, wrong-kind or expired token counts nothing and is answered harmlessly', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.2.0.2' };
    const { ads } = await decide(t, blog, visitor);
    const genuine = ads[0]!.view;
    const before = await counts(t.db);
    const [payload, signature] = genuine.split('.');
    const forged = [
      'nonsense',
      `${payload}.${'A'.repeat(signature!.length)}`,
      `${Buffer.from('v|someone-else|9999999999').toString('base64url')}.${signature}`,
      new URL(ads[0]!.click).pathname.slice(3),
      '',
    ];
    for (const token of forged) {
      const response = await view(t, token, visitor);
      expect(response.statusCode).toBe(204);
      expect(response.headers['x-helium-counted']).toBe('ignored');
    }
    t.clock.advance(31 * 60_000);
    expect((await view(t, genuine, visitor)).headers['x-helium-counted']).toBe('ignored');
    expect((await counts(t.db)).impressions).toBe(before.impressions);
  });

  it('known bots get no ad, their pageview and views are set aside as invalid', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const before = await counts(t.db);
    const bot = { ip: '10.3.0.1', ua: BOT_UA };
    const { response, ads } = await decide(t, blog, bot);
    expect(response.headers['x-helium-counted']).toBe('invalid');
    expect(ads).toEqual([]);
    const human = { ip: '10.3.0.2' };
    const served = await decide(t, blog, human);
    const botView = await view(t, served.ads[0]!.view, bot);
    expect(botView.headers['x-helium-counted']).toBe('invalid');
    const after = await counts(t.db);
    expect(after.impressions).toBe(before.impressions);
    expect(after.daily.invalidPageviews).toBe(before.daily.invalidPageviews + 1);
    const reasons = await t.db
      .select({ kind: invalidTraffic.kind, reason: invalidTraffic.reason })
      .from(invalidTraffic);
    expect(reasons).toEqual(
      expect.arrayContaining([
        { kind: 'pageview', reason: 'bot' },
        { kind: 'impression', reason: 'bot' },
      ]),
    );
  });

  it('rate abuse from one visitor is set aside', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.4.0.1' };
    const outcomes: string[] = [];
    for (let index = 0; index < 35; index++) {
      outcomes.push(String((await decide(t, blog, visitor)).response.headers['x-helium-counted']));
    }
    expect(outcomes.filter((outcome) => outcome === 'counted')).toHaveLength(30);
    expect(outcomes.slice(30)).toEqual(Array(5).fill('invalid'));
  });
});

describe('clicks', () => {
  it('redirect only to the ad link with a click id; a billed click once per hour per visitor and ad', async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const visitor = { ip: '10.5.0.1' };
    const { ads } = await decide(t, blog, visitor);
    const before = await counts(t.db);
    const first = await click(t, ads[0]!.click, visitor);
    expect(first.statusCode).toBe(302);
    const location = new URL(String(first.headers.location));
    expect(location.hostname).toBe('atelier-ceramique.example');
    const clickId = location.searchParams.get('hclid');
    expect(clickId).toMatch(/^[\w-]{16}$/);
    expect(first.headers['x-helium-counted']).toBe('unique');

    const second = await click(t, ads[0]!.click, visitor);
    expect(second.statusCode).toBe(302);
    expect(second.headers['x-helium-counted']).toBe('repeat');
    let after = await counts(t.db);
    expect(after.uniqueClicks).toBe(before.uniqueClicks + 1);
    expect(after.allClicks).toBe(before.allClicks + 2);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, ceramics));
    expect(campaign?.remainingClicks).toBe(9);

    // An hour later the visitor's click on a new page bills again; the first page's link, fetched again, does not
    // (a decision bills one click in its token's life, whoever fetches it).
    t.clock.advance(61 * 60_000);
    expect((await click(t, ads[0]!.click, visitor)).headers['x-helium-counted']).toBe('repeat');
    const { ads: later } = await decide(t, blog, visitor);
    expect((await click(t, later[0]!.click, visitor)).headers['x-helium-counted']).toBe('unique');
    after = await counts(t.db);
    expect(after.uniqueClicks).toBe(before.uniqueClicks + 2);

    // the lead pixel counts the conversion once
    const pixel = () => t.app.inject({ method: 'GET', url: `/serve/l?hclid=${clickId}`, remoteAddress: '127.0.0.1' });
    expect((await pixel()).headers['x-helium-counted']).toBe('counted');
    expect((await pixel()).headers['x-helium-counted']).toBe('ignored');
    const postback = await t.app.inject({ method: 'POST', url: '/serve/lead', payload: { hclid: clickId } });
    expect(postback.json()).toEqual({ status: 'ignored' });
    expect(await t.db.select().from(adLeads).where(eq(adLeads.clickId, clickId!))).toHaveLength(1);
  });

  it("one page's click link shared among user agents bills one click an hour, not one per user agent", async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const { ads } = await decide(t, blog, { ip: '10.5.1.1' });
    const before = await counts(t.db);
    const outcomes = [];
    for (let agent = 1; agent <= 3; agent++) {
      const ua = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/12${agent}.0 Safari/537.36`;
      outcomes.push((await click(t, ads[0]!.click, { ip: '10.5.1.1', ua })).headers['x-helium-counted']);
    }
    expect(outcomes).toEqual(['unique', 'repeat', 'repeat']);
    expect((await counts(t.db)).uniqueClicks).toBe(before.uniqueClicks + 1);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, ceramics));
    expect(campaign?.remainingClicks).toBe(9);
  });

  it("one page's click link fetched again each hour, from new addresses and user agents, bills once in its life", async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const { ads } = await decide(t, blog, { ip: '10.5.2.1' });
    const before = await counts(t.db);
    const outcomes = [];
    for (let hour = 0; hour < 5; hour++) {
      const ua = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/13${hour}.0 Safari/537.36`;
      outcomes.push((await click(t, ads[0]!.click, { ip: `10.5.2.${10 + hour}`, ua })).headers['x-helium-counted']);
      t.clock.advance(61 * 60_000);
    }
    expect(outcomes).toEqual(['unique', 'repeat', 'repeat', 'repeat', 'repeat']);
    expect((await counts(t.db)).uniqueClicks).toBe(before.uniqueClicks + 1);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, ceramics));
    expect(campaign?.remainingClicks).toBe(9);
    // After a restart too: the memory of clicks emptied, the clicks of the last day read again from the database.
    (t.app.delivery.parts.uniqueClicks as unknown as { lastUniqueClick: Map<string, number> }).lastUniqueClick.clear();
    await t.app.delivery.refresh({ counters: true });
    t.clock.advance(61 * 60_000);
    expect((await click(t, ads[0]!.click, { ip: '10.5.2.99' })).headers['x-helium-counted']).toBe('repeat');
  });

  it("takes the server-to-server postback as a form too, as the advertiser's server may post it", async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const visitor = { ip: '10.5.3.1' };
    const { ads } = await decide(t, blog, visitor);
    const clicked = await click(t, ads[0]!.click, visitor);
    const clickId = new URL(String(clicked.headers.location)).searchParams.get('hclid')!;
    const postback = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/serve/lead',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const first = await postback(`hclid=${encodeURIComponent(clickId)}&order=123`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'ok' });
    expect((await postback(`hclid=${encodeURIComponent(clickId)}`)).json()).toEqual({ status: 'ignored' });
    expect((await postback('hclid=not-a-click')).json()).toEqual({ status: 'ignored' });
    expect(await t.db.select().from(adLeads).where(eq(adLeads.clickId, clickId))).toHaveLength(1);
  });

  it("a lead reported for a repeat click counts once, for the visitor's unique click", async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const visitor = { ip: '10.5.9.1' };
    const { ads } = await decide(t, blog, visitor);
    const clickIdOf = (response: { headers: Record<string, unknown> }) =>
      new URL(String(response.headers.location)).searchParams.get('hclid')!;
    const unique = await click(t, ads[0]!.click, visitor);
    expect(unique.headers['x-helium-counted']).toBe('unique');
    const repeat = await click(t, ads[0]!.click, visitor);
    expect(repeat.headers['x-helium-counted']).toBe('repeat');
    const pixel = (clickId: string) =>
      t.app.inject({ method: 'GET', url: `/serve/l?hclid=${clickId}`, remoteAddress: '127.0.0.1' });
    // The conversion page reports the click id it was reached with: the repeat click's.
    expect((await pixel(clickIdOf(repeat))).headers['x-helium-counted']).toBe('counted');
    expect((await pixel(clickIdOf(unique))).headers['x-helium-counted']).toBe('ignored');
    const leads = await t.db
      .select()
      .from(adLeads)
      .where(eq(adLeads.clickId, clickIdOf(unique)));
    expect(leads).toHaveLength(1);
    expect(
      await t.db
        .select()
        .from(adLeads)
        .where(eq(adLeads.clickId, clickIdOf(repeat))),
    ).toHaveLength(0);
  });

  it('a forged click link redirects nowhere and counts nothing', async () => {
    const before = await counts(t.db);
    const response = await t.app.inject({ method: 'GET', url: '/c/forged.token', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(404);
    expect((await counts(t.db)).allClicks).toBe(before.allClicks);
  });

  it('a bot click redirects but is set aside', async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const { ads } = await decide(t, blog, { ip: '10.6.0.1' });
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(adClicks);
    const response = await click(t, ads[0]!.click, { ip: '10.6.0.2', ua: BOT_UA });
    expect(response.statusCode).toBe(302);
    expect(response.headers['x-helium-counted']).toBe('invalid');
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(adClicks);
    expect(after[0]?.n).toBe(before[0]?.n);
  });
});

describe('credits', () => {
  it('a campaign with 100 impressions left under heavy traffic ends at 0, never below', async () => {
    await onlyCampaign(t, bikes, { impressions: 100 });
    const before = await counts(t.db);
    const decisions = await Promise.all(
      Array.from({ length: 300 }, (_, index) => decide(t, blog, { ip: `10.7.${index >> 8}.${index & 255}` })),
    );
    const served = decisions.flatMap((decision, index) =>
      decision.ads.map((ad) => ({ token: ad.view, visitor: { ip: `10.7.${index >> 8}.${index & 255}` } })),
    );
    expect(served.length).toBe(100);
    const outcomes = await Promise.all(served.map((one) => view(t, one.token, one.visitor)));
    expect(outcomes.every((response) => response.statusCode === 204)).toBe(true);
    // Reservations released, more traffic: still nothing beyond the credits.
    t.clock.advance(3 * 60_000);
    t.app.delivery.sweep();
    const more = await Promise.all(
      Array.from({ length: 50 }, (_, index) => decide(t, blog, { ip: `10.8.0.${index}` })),
    );
    expect(more.every((decision) => decision.ads.length === 0)).toBe(true);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    expect(campaign?.remainingImpressions).toBe(0);
    expect((await counts(t.db)).impressions).toBe(before.impressions + 100);
  });

  it('late views beyond the credits are set aside, not counted', async () => {
    await onlyCampaign(t, bikes, { impressions: 5 });
    const visitors = Array.from({ length: 5 }, (_, index) => ({ ip: `10.9.0.${index}` }));
    const first = await Promise.all(visitors.map((visitor) => decide(t, blog, visitor)));
    // reservations expire unviewed; five more pageviews get the same credits
    t.clock.advance(3 * 60_000);
    t.app.delivery.sweep();
    const second = await Promise.all(visitors.map((visitor) => decide(t, blog, { ip: `${visitor.ip}9` })));
    const tokens = [...first, ...second].flatMap((decision) => decision.ads.map((ad) => ad.view));
    expect(tokens).toHaveLength(10);
    const outcomes = await Promise.all(tokens.map((token, index) => view(t, token, { ip: `10.9.1.${index}` })));
    const counted = outcomes.filter((response) => response.headers['x-helium-counted'] === 'counted');
    expect(counted).toHaveLength(5);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    expect(campaign?.remainingImpressions).toBe(0);
  });
});

describe('around UTC midnight', () => {
  // Last in this file: it moves the clock to the next day.
  it("the same person's clicks on an ad at 23:50 and 00:10 bill once, though the visitor hash's salt changed", async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    // The next 23:50 UTC, never in the past (the tests before moved the clock on by hours, from any time of day).
    const now = t.clock.now().getTime();
    t.clock.advance(Math.ceil((now + 10 * 60_000) / DAY_MS) * DAY_MS - 10 * 60_000 - now);
    // Someone who clicked nothing before (the lead test's visitor did, maybe within the hour before 23:50).
    const person = { ip: '10.5.9.77' };
    const adOf = (clickUrl: string) => tokenFields(new URL(clickUrl).pathname.split('/').pop()!)[4];
    /** A new page of the person's showing the same ad (the campaign has several). */
    const pageWith = async (adId: string | undefined) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const { ads } = await decide(t, blog, person);
        if (ads[0] && (adId === undefined || adOf(ads[0].click) === adId)) return ads[0].click;
      }
      throw new Error(`no page with ad ${adId}`);
    };
    const evening = await pageWith(undefined);
    expect((await click(t, evening, person)).headers['x-helium-counted']).toBe('unique');
    t.clock.advance(20 * 60_000);
    const night = await pageWith(adOf(evening));
    expect((await click(t, night, person)).headers['x-helium-counted']).toBe('repeat');
    t.clock.advance(45 * 60_000);
    const later = await pageWith(adOf(evening));
    expect((await click(t, later, person)).headers['x-helium-counted']).toBe('unique');
  });
});
