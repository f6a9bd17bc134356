import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ads } from '@helium/db';
import type { TCampaignEx } from '@helium/contracts';
import { decodeImage, imageDimensions, PREVIEW_BOX } from '../../infra/media-probe.ts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { fixture, signedIn, upload } from '../../../test/ads-support.ts';
import { AD_PREVIEWS_JOB } from './previews.ts';

let t: TestApp;
let advertiser: TestClient;

beforeAll(async () => {
  t = await buildTestApp();
  advertiser = await signedIn(t, 'advertiser@demo.test');
});
afterAll(async () => {
  await t?.close();
});

async function adById(id: number) {
  const [row] = await t.db.select().from(ads).where(eq(ads.id, id));
  if (!row) throw new Error(`no ad ${id}`);
  return row;
}

/** The stored preview of an ad: served as a JPEG whose whole image decodes; answers its bytes. */
async function servedPreview(key: string | null) {
  const served = await t.app.inject({ method: 'GET', url: `/media/${key}` });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('image/jpeg');
  expect(await decodeImage(served.rawPayload, 'jpg')).toBe('ok');
  return served.rawPayload;
}

async function uploaded(name: string) {
  const response = await upload(t, advertiser, { name, bytes: fixture(name) });
  expect(response.statusCode).toBe(200);
  return adById(response.json().adId);
}

// First, while the storage holds no file of the seeded ads (the uploads below store some of the same files).
describe('previews of ads stored before', () => {
  it('are made by the background job; the Activity answer carries them, and the full media while there is none', async () => {
    const activity = async () => {
      const response = await advertiser.post('/api/advertiser/get-campaignex', { doByPublisher: false });
      expect(response.statusCode).toBe(200);
      return (response.json() as TCampaignEx).ads;
    };
    // The seeded ads of the tests have no preview (nor files in storage): the screens get the full media.
    const before = await activity();
    const video = before.find((ad) => ad.type === 'video');
    expect(video).toMatchObject({ preview: null, poster: expect.stringMatching(/^\/media\/[a-f0-9]{64}\.jpg$/) });
    for (const ad of before.filter((one) => one.type === 'image')) {
      expect(ad.preview).toBeNull();
      expect(ad.image).toMatch(/^\/media\//);
    }

    // The demo poster in storage, as the seed puts it at first start; the job makes its preview.
    const posterKey = await t.app.ctx.media.put(fixture('nordvik-video-poster.jpg'), 'jpg');
    expect(`/media/${posterKey}`).toBe(video?.poster);
    expect(await t.app.ctx.scheduler.runNow(AD_PREVIEWS_JOB)).toBe(1);

    const after = await activity();
    const preview = after.find((ad) => ad.id === video?.id)?.preview;
    expect(preview).toMatch(/^\/media\/[a-f0-9]{64}\.jpg$/);
    expect(preview).not.toBe(video?.poster);
    expect(imageDimensions(await servedPreview(preview!.slice('/media/'.length)))).toEqual({
      width: 284,
      height: PREVIEW_BOX.height,
    });
    // Done once: the next run finds nothing to make (the other seeded ads' files are not in this storage).
    expect(await t.app.ctx.scheduler.runNow(AD_PREVIEWS_JOB)).toBe(0);
  });
});

describe('previews made at upload', () => {
  it('makes a lighter JPEG of an image, at most 160 pixels high, with its ratio', async () => {
    const ad = await uploaded('nordvik-vertical.jpg');
    expect(ad.preview).toMatch(/^[a-f0-9]{64}\.jpg$/);
    expect(ad.preview).not.toBe(ad.image);
    const preview = await servedPreview(ad.preview);
    expect(imageDimensions(preview)).toEqual({ width: 80, height: PREVIEW_BOX.height });
    expect(preview.length).toBeLessThan(fixture('nordvik-vertical.jpg').length);
  });

  it('fits a wide banner into the preview box by its width', async () => {
    const ad = await uploaded('nordvik-horizontal-large.jpg');
    expect(imageDimensions(await servedPreview(ad.preview))).toEqual({ width: PREVIEW_BOX.width, height: 113 });
  });

  it("makes one of a video's poster", async () => {
    const ad = await uploaded('nordvik-video.mp4');
    expect(ad.poster).toMatch(/\.jpg$/);
    expect(ad.preview).not.toBe(ad.poster);
    expect(imageDimensions(await servedPreview(ad.preview))).toEqual({ width: 284, height: PREVIEW_BOX.height });
  });

  it('keeps an image that is lighter than its JPEG rendition as its own preview', async () => {
    const ad = await uploaded('nordvik-newsletter.png');
    expect(ad.preview).toBe(ad.image);
  });
});
