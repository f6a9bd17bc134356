import { count } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { users } from '../schema/index.ts';
import { seedBilling } from './billing.ts';
import { seedDemoAds, storeSeedMedia, type SeedMediaSink } from './ads.ts';
import { seedPayouts } from './payouts.ts';
import { seedDeliveryDemo } from './delivery.ts';
import { seedTrafficHistory } from './history.ts';
import { seedNetworkSettings } from './settings.ts';
import { seedDemoUsers } from './users.ts';

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ total: count() }).from(users);
  return (row?.total ?? 0) === 0;
}

/**
 * Seeds the demo network. Each step is its own module taking what the earlier steps created, so later
 * features (ads, traffic history) add a step here rather than editing the others.
 */
export async function seedDemoData(db: Database, options: { media?: SeedMediaSink } = {}): Promise<void> {
  if (options.media) await storeSeedMedia(options.media);
  await db.transaction(async (tx) => {
    const database = tx as unknown as Database;
    await seedNetworkSettings(database);
    const accounts = await seedDemoUsers(database);
    await seedDemoAds(database);
    await seedDeliveryDemo(database);
    await seedTrafficHistory(database);
    await seedBilling(database, accounts);
    await seedPayouts(database, accounts);
  });
}
