import { eq } from 'drizzle-orm';
import type { Database } from '../client.ts';
import {
  adPublisherValidations,
  ads,
  advertisers,
  campaigns,
  publisherPlacements,
  publishers,
} from '../schema/index.ts';
import { seedMediaKey } from './ads.ts';

/**
 * Ad delivery's demo step: validated ads (admin and publisher validation 1) of two demo advertisers, so the
 * publisher script shows ads on a fresh install. Demo Blog keeps the default placement (no stored row: the
 * one line alone shows an ad); Cuisine Facile has one selector placement (`DEMO_RECIPE_PLACEMENT`) and no
 * default, so its pages without that element show no ad. These ads belong to this step: their links are on
 * `*.example` hosts under `/helium-demo/`; the ads step of the upload and validation feature seeds the
 * Nordvik Outdoor ads in every state.
 */
export const DELIVERY_DEMO_LINK_PREFIX = '/helium-demo/';

const DECIDED_AT = new Date('2026-09-02T09:00:00Z');

/** Cuisine Facile's placement: a medium rectangle (format 3) inside its recipe pages' sidebar. */
export const DEMO_RECIPE_PLACEMENT = {
  selector: '.recipe-sidebar',
  position: 'inside',
  formatIds: [3],
  device: 'all',
} as const;

interface DemoAd {
  /** A committed image under seed/media/. */
  file: string;
  formatId: number;
  width: number;
  height: number;
  link: string;
  isOwlOnly?: boolean;
  isWebOnly?: boolean;
}

export async function seedDeliveryDemo(db: Database): Promise<{ adIds: number[] }> {
  const byBrand = new Map((await db.select().from(advertisers)).map((row) => [row.brand, row]));
  const ceramics = byBrand.get('Atelier Céramique');
  const bikes = byBrand.get('Vélo Urbain');
  if (!ceramics || !bikes) return { adIds: [] };

  const [ceramicsCampaign, bikesCampaign] = await db
    .insert(campaigns)
    .values([
      { advertiserId: ceramics.id, isCpc: true, cpc: 300_000, remainingClicks: 2_000, isAutoPilot: true },
      { advertiserId: bikes.id, isCpc: false, cpm: 3_000_000, remainingImpressions: 60_000, isAutoPilot: true },
    ])
    .returning();
  if (!ceramicsCampaign || !bikesCampaign) throw new Error('Delivery demo campaigns missing');

  const plan: Array<[typeof ceramics, number, DemoAd[]]> = [
    [
      ceramics,
      ceramicsCampaign.id,
      [
        {
          file: 'ceramique-square.jpg',
          formatId: 3,
          width: 300,
          height: 250,
          link: 'https://atelier-ceramique.example/helium-demo/bols',
        },
        {
          file: 'ceramique-horizontal.jpg',
          formatId: 4,
          width: 728,
          height: 90,
          link: 'https://atelier-ceramique.example/helium-demo/ateliers',
        },
      ],
    ],
    [
      bikes,
      bikesCampaign.id,
      [
        {
          file: 'velo-square.jpg',
          formatId: 3,
          width: 300,
          height: 250,
          link: 'https://velo-urbain.example/helium-demo/cargo',
        },
        {
          file: 'velo-vertical.jpg',
          formatId: 1,
          width: 160,
          height: 600,
          link: 'https://velo-urbain.example/helium-demo/pliant',
        },
        {
          file: 'velo-newsletter.jpg',
          formatId: 2,
          width: 600,
          height: 150,
          link: 'https://velo-urbain.example/helium-demo/newsletter',
          isOwlOnly: true,
        },
      ],
    ],
  ];

  const adIds: number[] = [];
  for (const [advertiser, campaignId, list] of plan) {
    for (const demo of list) {
      const media = await seedMediaKey(demo.file);
      const [row] = await db
        .insert(ads)
        .values({
          advertiserId: advertiser.id,
          campaignId,
          type: 'image',
          image: media.key,
          filesize: media.size,
          formatId: demo.formatId,
          width: demo.width,
          height: demo.height,
          link: demo.link,
          isOwlOnly: demo.isOwlOnly ?? false,
          isWebOnly: demo.isWebOnly ?? false,
          adminValidation: 1,
          submittedAt: DECIDED_AT,
          adminValidatedAt: DECIDED_AT,
          isEmailedAsValidated: true,
        })
        .returning({ id: ads.id });
      if (row) adIds.push(row.id);
    }
  }

  const allPublishers = await db.select({ id: publishers.id }).from(publishers);
  await db.insert(adPublisherValidations).values(
    adIds.flatMap((adId) =>
      allPublishers.map((publisher) => ({
        adId,
        publisherId: publisher.id,
        state: 1,
        requestedAt: DECIDED_AT,
        decidedAt: DECIDED_AT,
        decidedBy: 'admin' as const,
      })),
    ),
  );
  const [recipes] = await db
    .select({ id: publishers.id })
    .from(publishers)
    .where(eq(publishers.brand, 'Cuisine Facile'));
  if (recipes) {
    await db
      .insert(publisherPlacements)
      .values({ publisherId: recipes.id, ...DEMO_RECIPE_PLACEMENT, formatIds: [...DEMO_RECIPE_PLACEMENT.formatIds] });
  }
  return { adIds };
}
