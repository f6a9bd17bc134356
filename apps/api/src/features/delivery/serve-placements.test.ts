import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adDecisions, ads, publisherPlacements } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { BROWSER_UA, decisionIdOf, publisherId, siteOrigin } from '../../../test/serve-support.ts';

const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface PlacedAd {
  selector: string | null;
  position: string;
  view: string;
  width: number;
  height: number;
}

let t: TestApp;
let blog: number;
let rando: number;
let cuisine: number;
let visitors = 0;

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  rando = await publisherId(t.db, 'Rando Alpes');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
});
afterAll(async () => t.close());

/**
 * One pageview of the script on a desktop (1280 px) or a phone (375 px), each from a new visitor, on a page of the
 * publisher's registered domain.
 */
async function pageview(publisher: number, device: 'desktop' | 'mobile') {
  visitors++;
  const origin = siteOrigin(t, publisher);
  const response = await t.app.inject({
    method: 'GET',
    url: `/serve/d?p=${publisher}&w=${device === 'mobile' ? 375 : 1280}&u=${encodeURIComponent(`${origin}/x`)}`,
    remoteAddress: '127.0.0.1',
    headers: {
      'user-agent': device === 'mobile' ? MOBILE_UA : BROWSER_UA,
      'x-forwarded-for': `10.40.${Math.floor(visitors / 250)}.${visitors % 250}`,
      origin,
    },
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { ads: PlacedAd[] }).ads;
}

/** The format of the ad behind each answered view token (read from the decision records). */
async function formatsOf(answered: PlacedAd[]): Promise<number[]> {
  // Decisions are answered before their records are durable: wait for them.
  await t.app.delivery.recorder.flush();
  const ids = answered.map(decisionIdOf);
  const rows = await t.db
    .select({ id: adDecisions.id, formatId: ads.formatId })
    .from(adDecisions)
    .innerJoin(ads, eq(ads.id, adDecisions.adId))
    .where(inArray(adDecisions.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row.formatId]));
  return ids.map((id) => byId.get(id) ?? -1);
}

async function setPlacements(publisher: number, rows: Array<Partial<typeof publisherPlacements.$inferInsert>>) {
  await t.db.delete(publisherPlacements).where(eq(publisherPlacements.publisherId, publisher));
  if (rows.length > 0) {
    await t.db.insert(publisherPlacements).values(rows.map((row) => ({ ...row, publisherId: publisher })));
  }
  await t.app.delivery.refresh();
}

describe('decision per placement', () => {
  it('a publisher without placements gets the default placement alone', async () => {
    const answered = await pageview(blog, 'desktop');
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ selector: null, position: 'inside' });
  });

  it("answers one ad per placement that applies to the device, each of the placement's formats", async () => {
    await setPlacements(rando, [
      { selector: '#top', position: 'before', formatIds: [4], device: 'desktop' },
      { selector: '.sidebar', position: 'inside', formatIds: [3], device: 'all' },
      { selector: '.rail', position: 'after', formatIds: [1], device: 'all' },
      { selector: '#phone', position: 'inside', formatIds: [3], device: 'mobile' },
    ]);
    for (let round = 0; round < 5; round++) {
      const desktop = await pageview(rando, 'desktop');
      expect(desktop.map((ad) => [ad.selector, ad.position])).toEqual([
        ['#top', 'before'],
        ['.sidebar', 'inside'],
        ['.rail', 'after'],
      ]);
      expect(await formatsOf(desktop)).toEqual([4, 3, 1]);
      // The box is sized from the ad (the script reserves it before the media loads).
      expect(desktop[0]).toMatchObject({ width: 728, height: 90 });

      // On a phone: no desktop-only placement, no vertical-only one, the mobile one.
      const mobile = await pageview(rando, 'mobile');
      expect(mobile.map((ad) => ad.selector)).toEqual(['.sidebar', '#phone']);
      expect(await formatsOf(mobile)).toEqual([3, 3]);
    }
  });

  it('a placement open to any format never gets a vertical ad on mobile', async () => {
    await setPlacements(rando, [{ selector: '.any', formatIds: [], device: 'all' }]);
    const formats = new Set<number>();
    for (let round = 0; round < 30; round++) {
      const answered = await pageview(rando, 'mobile');
      expect(answered).toHaveLength(1);
      for (const format of await formatsOf(answered)) formats.add(format);
    }
    expect(formats.has(1)).toBe(false);
    expect(formats.has(2)).toBe(false);
  });

  it('a stored default placement sits beside selector placements; placements only for the other device give none', async () => {
    await setPlacements(rando, [
      { selector: null, formatIds: [3], device: 'all' },
      { selector: '.sidebar', formatIds: [4], device: 'desktop' },
    ]);
    const desktop = await pageview(rando, 'desktop');
    expect(desktop.map((ad) => ad.selector)).toEqual([null, '.sidebar']);
    expect(await formatsOf(desktop)).toEqual([3, 4]);

    await setPlacements(rando, [{ selector: '.sidebar', formatIds: [4], device: 'desktop' }]);
    expect(await pageview(rando, 'mobile')).toEqual([]);
  });

  it('the demo seed gives Cuisine Facile one selector placement of medium rectangles, and no default', async () => {
    for (let round = 0; round < 5; round++) {
      const answered = await pageview(cuisine, 'desktop');
      expect(answered.map((ad) => [ad.selector, ad.position])).toEqual([['.recipe-sidebar', 'inside']]);
      expect(await formatsOf(answered)).toEqual([3]);
    }
  });
});

describe('what the script is told to show', () => {
  it('a video ad as a video with its file; without its file, as its placeholder picture (which can count)', async () => {
    const [video] = await t.db.select({ id: ads.id }).from(ads).where(eq(ads.type, 'video')).limit(1);
    await t.app.delivery.refresh();
    const indexed = t.app.delivery.adById(video!.id);
    expect(indexed?.mp4).toBeTruthy();
    expect(t.app.delivery.mediaUrl(indexed!)).toMatchObject({
      kind: 'video',
      src: `${t.app.ctx.config.appUrl}/media/${indexed!.mp4}`,
    });
    // The script counts a video's view only while it plays: an SVG placeholder never would.
    expect(t.app.delivery.mediaUrl({ ...indexed!, mp4: null })).toMatchObject({
      kind: 'image',
      src: `${t.app.ctx.config.appUrl}/serve/creative/${indexed!.id}.svg`,
    });
  });
});
