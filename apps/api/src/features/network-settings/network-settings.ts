import { desc } from 'drizzle-orm';
import { networkSettings, type Database } from '@helium/db';
import { HttpError } from '../../http/errors.ts';

export type NetworkSettings = typeof networkSettings.$inferSelect;

/**
 * The network settings in force: the latest row (settings are append-only, each change a new row). The demo seed
 * and every installation write one; without it nothing can be priced or paid (503).
 */
export async function latestNetworkSettings(db: Database): Promise<NetworkSettings> {
  const [row] = await db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1);
  if (!row) throw new HttpError(503, 'noNetworkSettings', 'The network settings are missing.');
  return row;
}
