import type { TUser } from '@helium/contracts';
import { accountValue, USER_TYPE, type UserType } from '@helium/domain/roles';

export const ROLE_KEY = {
  [USER_TYPE.admin]: 'role.admin',
  [USER_TYPE.publisher]: 'role.publisher',
  [USER_TYPE.advertiser]: 'role.advertiser',
} as const satisfies Record<UserType, string>;

export interface AccountEntry {
  /** The switcher's value form: `0` for admin, `type,id` otherwise. */
  value: string;
  type: UserType;
  /** Brand of the account; null for the admin entry, whose label is the translated role. */
  brand: string | null;
  current: boolean;
}

type SwitcherUser = Pick<TUser, 'type' | 'accountId' | 'isAdmin' | 'publishers' | 'advertisers'>;

/** The accounts the switcher lists: Admin (admins only), then every publisher, then every advertiser. */
export function accountEntries(user: SwitcherUser): AccountEntry[] {
  const isCurrent = (type: UserType, id: number | null) =>
    user.type === type && (type === USER_TYPE.admin || user.accountId === id);
  const entries: AccountEntry[] = [];
  if (user.isAdmin) {
    entries.push({
      value: accountValue(USER_TYPE.admin, null),
      type: USER_TYPE.admin,
      brand: null,
      current: isCurrent(0, null),
    });
  }
  for (const [type, accounts] of [
    [USER_TYPE.publisher, user.publishers],
    [USER_TYPE.advertiser, user.advertisers],
  ] as const) {
    for (const account of accounts) {
      entries.push({
        value: accountValue(type, account.id),
        type,
        brand: account.brand,
        current: isCurrent(type, account.id),
      });
    }
  }
  return entries;
}
