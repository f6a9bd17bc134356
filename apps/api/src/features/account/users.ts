import { asc, eq, sql } from 'drizzle-orm';
import { advertisers, publishers, users, type Database } from '@helium/db';
import { homePathOf, isMultiType, resolveCurrentAccount, type HeldAccounts } from '@helium/domain';
import type { TUser } from '@helium/contracts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return rows[0];
}

export async function findUserById(db: Database, id: number): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

export async function accountsOf(db: Database, userId: number): Promise<HeldAccounts> {
  const [publisherRows, advertiserRows] = await Promise.all([
    db
      .select({
        id: publishers.id,
        brand: publishers.brand,
        awaitingInstallation: sql<boolean>`${publishers.isWeb} and not ${publishers.isInstalled}`.mapWith(Boolean),
      })
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

/** The user as the user call answers it, in the user's own session (`actingAs` is the session's: routes.ts). */
export async function loadUserView(db: Database, userId: number): Promise<TUser | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const [accounts, settings] = await Promise.all([accountsOf(db, userId), latestNetworkSettings(db)]);
  const current = resolveCurrentAccount(user, accounts);
  if (!current) return null;
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
    isMultiType: isMultiType(user, accounts),
    cannot_add_ads: user.cannotAddAds,
    agreedAt: user.agreedAt?.toISOString() ?? null,
    signinUrl: null,
    homePath: homePathOf(current),
    actingAs: null,
  };
}

/** Stores the user's language, currency, or account in use (one of the user's columns). */
export async function updateUserChoice(
  db: Database,
  userId: number,
  choice: Partial<Pick<UserRow, 'locale' | 'currency' | 'currentType' | 'currentAccountId' | 'agreedAt'>>,
): Promise<void> {
  await db.update(users).set(choice).where(eq(users.id, userId));
}
