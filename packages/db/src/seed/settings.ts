import { DEFAULT_PUBLISHER_SHARE_BP } from '@helium/domain';
import type { Database } from '../client.ts';
import { networkSettings } from '../schema/index.ts';

export async function seedNetworkSettings(db: Database): Promise<void> {
  await db.insert(networkSettings).values({
    usdToEur: '0.92000000',
    btcToEur: '82000.00',
    publisherRevenueShareBp: DEFAULT_PUBLISHER_SHARE_BP,
    salesRepRevenueShareBp: 1000,
    minBalanceForPayout: 50_000_000,
    minImpressionsToAutoPilot: 1000,
  });
}
