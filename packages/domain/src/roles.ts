import { isSingleLineText } from './text.ts';

/** The numeric user types of the specification. */
export const USER_TYPE = { admin: 0, publisher: 1, advertiser: 2 } as const;
export type UserType = (typeof USER_TYPE)[keyof typeof USER_TYPE];

/** Where home sends a signed-in user of each type. */
export const HOME_PATH_BY_TYPE: Record<UserType, string> = {
  0: '/admin/stats',
  1: '/publisher/accounting',
  2: '/advertiser/activity',
};

/** Activity's search parameter naming the campaign shown (without it, the advertiser's newest). */
export const ACTIVITY_CAMPAIGN_PARAM = 'campaign';
/** A link's advertiser account (`?advertiser=<id>`: a low-credit alert's), put in use before the page shows. */
export const ADVERTISER_LINK_PARAM = 'advertiser';

/** Advertiser Activity on one campaign, with more search parameters (`addCredits`, `event`, `advertiser`). */
export function activityPathOf(campaignId: number, more: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...more, [ACTIVITY_CAMPAIGN_PARAM]: String(campaignId) });
  return `${HOME_PATH_BY_TYPE[USER_TYPE.advertiser]}?${params}`;
}

export function isUserType(value: unknown): value is UserType {
  return value === 0 || value === 1 || value === 2;
}

/** The account switcher's value form `type,id`; the admin entry is `0` (an optional id is ignored). */
export function parseAccountValue(value: string): { type: UserType; id: number | null } | null {
  const match = /^([012])(?:,(\d{1,10}))?$/.exec(value.trim());
  if (!match) return null;
  const type = Number(match[1]) as UserType;
  if (type === USER_TYPE.admin) return { type, id: null };
  if (match[2] === undefined) return null;
  return { type, id: Number(match[2]) };
}

export function accountValue(type: UserType, id: number | null): string {
  return type === USER_TYPE.admin ? '0' : `${type},${id ?? 0}`;
}

/** A publisher or advertiser account as its holder sees it. */
export interface HeldAccount {
  id: number;
  brand: string;
  /** A web publisher whose script has not been seen yet: its first screen is Installation. */
  awaitingInstallation?: boolean;
}
/** The accounts a user holds, besides the admin entry (`isAdmin`). */
export interface HeldAccounts {
  publishers: HeldAccount[];
  advertisers: HeldAccount[];
}
/** What the account rules need of a user. */
export interface AccountHolder {
  isAdmin: boolean;
  currentType: number;
  currentAccountId: number | null;
}

/** Whether the user holds this account: the admin entry, or one of its publishers or advertisers. */
export function holdsAccount(
  user: Pick<AccountHolder, 'isAdmin'>,
  accounts: HeldAccounts,
  type: number,
  id: number | null,
): boolean {
  if (type === USER_TYPE.admin) return user.isAdmin;
  const list =
    type === USER_TYPE.publisher ? accounts.publishers : type === USER_TYPE.advertiser ? accounts.advertisers : [];
  return list.some((account) => account.id === id);
}

/**
 * The account in use: the stored choice when the user still holds it, otherwise the first account the
 * user holds (admin first), so a removed account never leaves someone stranded.
 */
export function resolveCurrentAccount(
  user: AccountHolder,
  accounts: HeldAccounts,
): { type: UserType; account: HeldAccount | null } | null {
  const pick = (type: UserType, id: number | null) => {
    const list = type === USER_TYPE.publisher ? accounts.publishers : accounts.advertisers;
    return { type, account: type === USER_TYPE.admin ? null : (list.find((a) => a.id === id) ?? null) };
  };
  if (isUserType(user.currentType) && holdsAccount(user, accounts, user.currentType, user.currentAccountId)) {
    return pick(user.currentType, user.currentAccountId);
  }
  if (user.isAdmin) return pick(USER_TYPE.admin, null);
  const firstPublisher = accounts.publishers[0];
  if (firstPublisher) return pick(USER_TYPE.publisher, firstPublisher.id);
  const firstAdvertiser = accounts.advertisers[0];
  if (firstAdvertiser) return pick(USER_TYPE.advertiser, firstAdvertiser.id);
  return null;
}

/**
 * Where home sends the user of this account: its type's home, except a web publisher still to install its script,
 * which starts on Installation (nothing else of its screens has figures yet).
 */
export function homePathOf(current: { type: UserType; account: HeldAccount | null }): string {
  if (current.type === USER_TYPE.publisher && current.account?.awaitingInstallation) return '/publisher/installation';
  return HOME_PATH_BY_TYPE[current.type];
}

/**
 * The page a sign-in returns to: the address a signed-out user asked for (a mail's link), when it is a path of this
 * product (`/advertiser/activity?addCredits=1`); null for anything else (another site, `//host`, `/\host`, the
 * sign-in page itself, control characters), and the user goes home instead.
 */
export function returnPathOf(asked: string | null | undefined): string | null {
  if (!asked || !asked.startsWith('/')) return null;
  if (asked.startsWith('//') || asked.includes('\\') || !isSingleLineText(asked)) return null;
  const path = asked.split(/[?#]/)[0] ?? '';
  if (path === '/' || path === '/signin' || path.startsWith('/signin/')) return null;
  return asked;
}

/** Publishers and advertisers must agree to the terms once; admins need not. */
export function mustAgree(user: { agreedAt: Date | null }, accounts: HeldAccounts): boolean {
  if (user.agreedAt) return false;
  return accounts.publishers.length > 0 || accounts.advertisers.length > 0;
}

/** Whether several account types are held (the switcher then groups them). */
export function isMultiType(user: Pick<AccountHolder, 'isAdmin'>, accounts: HeldAccounts): boolean {
  return [user.isAdmin, accounts.publishers.length > 0, accounts.advertisers.length > 0].filter(Boolean).length > 1;
}
