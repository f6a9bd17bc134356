import { eq } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { advertisers, campaigns, publishers, users } from '../schema/index.ts';

export const DEMO_EMAILS = {
  admin: 'admin@demo.test',
  publisher: 'publisher@demo.test',
  advertiser: 'advertiser@demo.test',
  multi: 'multi@demo.test',
  /** An advertiser on a trial campaign (seed/billing.ts). */
  trial: 'trial@demo.test',
} as const;

const AGREED_AT = new Date('2026-09-01T09:00:00Z');

export interface DemoAccounts {
  adminUserId: number;
  publisherUserId: number;
  advertiserUserId: number;
  multiUserId: number;
  demoBlogId: number;
  newsletterId: number;
  demoAdvertiserId: number;
  demoCampaignId: number;
}

export async function seedDemoUsers(db: Database): Promise<DemoAccounts> {
  const [admin] = await db
    .insert(users)
    .values({ name: 'Claire Dubois', email: DEMO_EMAILS.admin, locale: 'en', isAdmin: true, currentType: 0 })
    .returning();
  const [publisherUser] = await db
    .insert(users)
    .values({
      name: 'Julien Martin',
      email: DEMO_EMAILS.publisher,
      locale: 'en',
      currentType: 1,
      agreedAt: AGREED_AT,
    })
    .returning();
  const [advertiserUser] = await db
    .insert(users)
    .values({
      name: 'Sophie Laurent',
      email: DEMO_EMAILS.advertiser,
      locale: 'en',
      currentType: 2,
      agreedAt: AGREED_AT,
      businessId: 'FR 40 123456824',
    })
    .returning();
  const [multiUser] = await db
    .insert(users)
    .values({ name: 'Marc Lefèvre', email: DEMO_EMAILS.multi, locale: 'fr', currentType: 1 })
    .returning();
  if (!admin || !publisherUser || !advertiserUser || !multiUser) throw new Error('Demo users were not created');

  const [demoBlog, newsletter] = await db
    .insert(publishers)
    .values([
      { userId: publisherUser.id, brand: 'Demo Blog', isWeb: true, isOwl: false, domain: 'localhost' },
      { userId: publisherUser.id, brand: 'La Lettre Tech', isWeb: false, isOwl: true },
    ])
    .returning();
  const multiPublishers = await db
    .insert(publishers)
    .values([
      { userId: multiUser.id, brand: 'Cuisine Facile', isWeb: true, domain: 'cuisine-facile.example' },
      { userId: multiUser.id, brand: 'Rando Alpes', isWeb: true, domain: 'rando-alpes.example' },
    ])
    .returning();

  const [demoAdvertiser] = await db
    .insert(advertisers)
    .values({
      userId: advertiserUser.id,
      brand: 'Nordvik Outdoor',
      billingInformation: 'Nordvik Outdoor SAS\n12 rue des Alpes\n38000 Grenoble\nFrance',
    })
    .returning();
  await db.insert(advertisers).values([
    { userId: multiUser.id, brand: 'Atelier Céramique' },
    { userId: multiUser.id, brand: 'Vélo Urbain' },
  ]);
  if (!demoBlog || !newsletter || !demoAdvertiser || !multiPublishers[0]) throw new Error('Demo accounts missing');

  const [demoCampaign] = await db
    .insert(campaigns)
    .values({
      advertiserId: demoAdvertiser.id,
      isCpc: false,
      cpm: 2_500_000,
      remainingImpressions: 400_000,
      isAutoPilot: true,
    })
    .returning();
  if (!demoCampaign) throw new Error('Demo campaign missing');

  await db.update(users).set({ currentAccountId: demoBlog.id }).where(eq(users.id, publisherUser.id));
  await db.update(users).set({ currentAccountId: demoAdvertiser.id }).where(eq(users.id, advertiserUser.id));
  await db.update(users).set({ currentAccountId: multiPublishers[0].id }).where(eq(users.id, multiUser.id));

  return {
    adminUserId: admin.id,
    publisherUserId: publisherUser.id,
    advertiserUserId: advertiserUser.id,
    multiUserId: multiUser.id,
    demoBlogId: demoBlog.id,
    newsletterId: newsletter.id,
    demoAdvertiserId: demoAdvertiser.id,
    demoCampaignId: demoCampaign.id,
  };
}
