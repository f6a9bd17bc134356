import { asc, desc, eq } from 'drizzle-orm';
import { advertisers, networkSettings, publishers, users, type Database } from '@helium/db';
import { USER_TYPE, type UserType } from '@helium/domain';
import type { TUser } from '@helium/contracts';

export type UserRow = typeof users.$inferSelect;
export type NetworkSettingsRow = typeof networkSettings.$inferSelect;

export async function currentNetworkSettings(db: Database): Promise<NetworkSettingsRow> {
  const [row] = await db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1);
  if (!row) throw new Error('Network settings are missing: the database was not seeded');
  return row;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return rows[0];
}

export async function findUserById(db: Database, id: number): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

export async function accountsOf(db: Database, userId: number) {
  const [publisherRows, advertiserRows] = await Promise.all([
    db
      .select({ id: publishers.id, brand: publishers.brand })
      .from(publishers)
      .where(eq(publishers.userId, userId))
      .orderBy(asc(publishers.id)),
    db
      .select({ id: advertisers.id, brand: advertisers.brand })
      .from(advertisers)
      .where(eq(advertisers.userId, userId))
      .orderBy(asc(advertisers.id)),
  ]);
  return { publishers: publisherRows, advertisers: advertiserRows };
}

type Accounts = Awaited<ReturnType<typeof accountsOf>>;

/**
 * The account in use: the stored choice when the user still holds it, otherwise the first account the
 * user holds (admin first), so a removed account never leaves someone stranded.
 */
export function resolveCurrentAccount(
  user: Pick<UserRow, 'isAdmin' | 'currentType' | 'currentAccountId'>,
  accounts: Accounts,
): { type: UserType; account: { id: number; brand: string } | null } | null {
  const holds = (type: number, id: number | null) =>
    (type === USER_TYPE.admin && user.isAdmin) ||
    (type === USER_TYPE.publisher && accounts.publishers.some((p) => p.id === id)) ||
    (type === USER_TYPE.advertiser && accounts.advertisers.some((a) => a.id === id));
  const pick = (type: UserType, id: number | null) => {
    const list = type === USER_TYPE.publisher ? accounts.publishers : accounts.advertisers;
    return { type, account: type === USER_TYPE.admin ? null : (list.find((a) => a.id === id) ?? null) };
  };
  if (holds(user.currentType, user.currentAccountId)) return pick(user.currentType as UserType, user.currentAccountId);
  if (user.isAdmin) return pick(USER_TYPE.admin, null);
  const firstPublisher = accounts.publishers[0];
  if (firstPublisher) return pick(USER_TYPE.publisher, firstPublisher.id);
  const firstAdvertiser = accounts.advertisers[0];
  if (firstAdvertiser) return pick(USER_TYPE.advertiser, firstAdvertiser.id);
  return null;
}

export async function loadUserView(db: Database, userId: number): Promise<TUser | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const [accounts, settings] = await Promise.all([accountsOf(db, userId), currentNetworkSettings(db)]);
  const current = resolveCurrentAccount(user, accounts);
  if (!current) return null;
  const typesHeld = [user.isAdmin, accounts.publishers.length > 0, accounts.advertisers.length > 0].filter(Boolean);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    type: current.type,
    accountId: current.account?.id ?? null,
    accountBrand: current.account?.brand ?? null,
    isAdmin: user.isAdmin,
    locale: user.locale,
    currency: user.currency,
    usd_to_eur: Number(settings.usdToEur),
    btc_to_eur: Number(settings.btcToEur),
    ratesDate: settings.ratesSetAt.toISOString(),
    business_id: user.businessId,
    publishers: accounts.publishers,
    advertisers: accounts.advertisers,
    publisher_ids: accounts.publishers.map((p) => p.id),
    advertiser_ids: accounts.advertisers.map((a) => a.id),
    isMultiType: typesHeld.length > 1,
    cannot_add_ads: user.cannotAddAds,
    agreedAt: user.agreedAt?.toISOString() ?? null,
    signinUrl: null,
  };
}

/** Publishers and advertisers must agree to the terms once; admins need not. */
export function mustAgree(user: UserRow, accounts: Accounts): boolean {
  if (user.agreedAt) return false;
  return accounts.publishers.length > 0 || accounts.advertisers.length > 0;
}
