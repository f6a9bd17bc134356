import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { adPublisherValidations, ads, advertisers, campaigns, publishers } from '../schema/index.ts';
import { HOUR_MS } from '@helium/domain';

/**
 * Where the seed puts the demo media: the API's media storage (DATA_DIR/media or the database's media table),
 * which answers the content-addressed key. Without one (tests) only the keys are computed, the same way.
 */
export interface SeedMediaSink {
  put(bytes: Uint8Array, extension: 'jpg' | 'png' | 'mp4'): Promise<string>;
}

const MEDIA_DIR = new URL('./media/', import.meta.url);

async function readSeedMedia(file: string) {
  const bytes = await readFile(new URL(file, MEDIA_DIR));
  const extension = file.endsWith('.png') ? 'png' : file.endsWith('.mp4') ? 'mp4' : 'jpg';
  return { bytes, extension } as const;
}

/**
 * Puts every committed demo media file into media storage. seedDemoData does it before its transaction: a
 * storage in the same database writes through its own connection (the embedded one would wait for the
 * transaction's end), and a medium stored by a seed that then failed is harmless (content-addressed).
 */
export async function storeSeedMedia(sink: SeedMediaSink): Promise<void> {
  for (const file of (await readdir(MEDIA_DIR)).sort()) {
    const { bytes, extension } = await readSeedMedia(file);
    await sink.put(bytes, extension);
  }
}

/** A committed demo media file's key (the one the storage computes) and size. */
export async function seedMediaKey(file: string) {
  const { bytes, extension } = await readSeedMedia(file);
  return { key: `${createHash('sha256').update(bytes).digest('hex')}.${extension}`, size: bytes.length };
}

/**
 * The ads step of the demo: Nordvik Outdoor's ads in every validation state (not submitted with and
 * without a link, pending, approved with publisher answers in every state, declined), one image of each
 * format and one short mp4 with its poster. The demo publishers are marked installed so that the admin
 * can request them.
 */
export async function seedDemoAds(db: Database): Promise<{ adIds: number[] }> {
  const [advertiser] = await db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor')).limit(1);
  if (!advertiser) return { adIds: [] };
  const [campaign] = await db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, advertiser.id))
    .orderBy(asc(campaigns.id))
    .limit(1);
  if (!campaign) return { adIds: [] };

  const installed = ['Demo Blog', 'La Lettre Tech', 'Cuisine Facile'];
  await db.update(publishers).set({ isInstalled: true }).where(inArray(publishers.brand, installed));
  const publisherRows = await db.select().from(publishers);
  const publisherId = (brand: string) => publisherRows.find((p) => p.brand === brand)?.id;

  const [vertical, square, horizontal, large, newsletter, declined, video, poster] = await Promise.all(
    [
      'nordvik-vertical.jpg',
      'nordvik-square.png',
      'nordvik-horizontal.jpg',
      'nordvik-horizontal-large.jpg',
      'nordvik-newsletter.png',
      'nordvik-declined.jpg',
      'nordvik-video.mp4',
      'nordvik-video-poster.jpg',
    ].map((file) => seedMediaKey(file)),
  );
  if (!vertical || !square || !horizontal || !large || !newsletter || !declined || !video || !poster) {
    throw new Error('Demo media missing');
  }

  const now = Date.now();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR_MS);
  const base = { advertiserId: advertiser.id, campaignId: campaign.id };
  const image = (media: { key: string; size: number }, width: number, height: number, formatId: number) => ({
    ...base,
    type: 'image' as const,
    image: media.key,
    filesize: media.size,
    width,
    height,
    formatId,
  });
  const link = 'https://nordvik-outdoor.example/';

  const inserted = await db
    .insert(ads)
    .values([
      // 0: not submitted, link set (ready to submit).
      { ...image(vertical, 300, 600, 1), link: `${link}trek`, createdAt: at(30 * 24) },
      // 0: not submitted, no link yet.
      { ...image(square, 300, 300, 3), createdAt: at(29 * 24) },
      // 3: pending the admin's decision.
      {
        ...image(horizontal, 640, 360, 4),
        link: `${link}summer`,
        adminValidation: 3,
        submittedAt: at(2),
        createdAt: at(3),
      },
      // 1: approved, publishers in several states.
      {
        ...image(large, 970, 250, 5),
        link: `${link}winter-sale`,
        adminValidation: 1,
        submittedAt: at(28 * 24),
        adminValidatedAt: at(27 * 24),
        isEmailedAsValidated: true,
        createdAt: at(28 * 24),
      },
      // 1: approved newsletter banner, not yet offered to the newsletter.
      {
        ...image(newsletter, 600, 200, 2),
        link: `${link}newsletter`,
        isOwlOnly: true,
        adminValidation: 1,
        submittedAt: at(26 * 24),
        adminValidatedAt: at(25 * 24),
        isEmailedAsValidated: true,
        createdAt: at(26 * 24),
      },
      // 2: declined.
      {
        ...image(declined, 640, 360, 4),
        link: `${link}old`,
        adminValidation: 2,
        submittedAt: at(20 * 24),
        adminValidatedAt: at(19 * 24),
        createdAt: at(20 * 24),
      },
      // 1: approved video with its poster, one publisher request open.
      {
        ...base,
        type: 'video' as const,
        mp4: video.key,
        poster: poster.key,
        isVideoThumbnailReady: true,
        filesize: video.size,
        width: 480,
        height: 270,
        formatId: 4,
        link: `${link}video`,
        adminValidation: 1,
        submittedAt: at(5 * 24),
        adminValidatedAt: at(4 * 24),
        isEmailedAsValidated: true,
        createdAt: at(5 * 24),
      },
    ])
    .returning({ id: ads.id });
  const ids = inserted.map((row) => row.id);
  const [, , , largeId, , , videoId] = ids;

  const demoBlog = publisherId('Demo Blog');
  const cuisine = publisherId('Cuisine Facile');
  const rando = publisherId('Rando Alpes');
  const validations: Array<typeof adPublisherValidations.$inferInsert> = [];
  if (largeId && demoBlog) {
    validations.push({
      adId: largeId,
      publisherId: demoBlog,
      state: 1,
      requestedAt: at(27 * 24),
      expiresAt: at(26 * 24),
      decidedAt: at(26.5 * 24),
      decidedBy: 'publisher',
    });
  }
  if (largeId && cuisine) {
    validations.push({
      adId: largeId,
      publisherId: cuisine,
      state: 2,
      requestedAt: at(27 * 24),
      expiresAt: at(26 * 24),
      decidedAt: at(26.8 * 24),
      decidedBy: 'publisher',
    });
  }
  if (largeId && rando) {
    validations.push({ adId: largeId, publisherId: rando, state: 1, decidedAt: at(26 * 24), decidedBy: 'admin' });
  }
  if (videoId && demoBlog) {
    validations.push({
      adId: videoId,
      publisherId: demoBlog,
      state: 3,
      requestedAt: at(1),
      expiresAt: new Date(now + 23 * HOUR_MS),
    });
  }
  if (validations.length > 0) await db.insert(adPublisherValidations).values(validations);

  return { adIds: ids };
}
