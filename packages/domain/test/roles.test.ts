import { describe, expect, it } from 'vitest';
import { homePathOf, resolveCurrentAccount, USER_TYPE } from '../src/roles.ts';

describe('homePathOf', () => {
  it('sends each type to its spec home, and a web publisher still to install its script to Installation', () => {
    expect(homePathOf({ type: USER_TYPE.admin, account: null })).toBe('/admin/stats');
    expect(homePathOf({ type: USER_TYPE.advertiser, account: { id: 1, brand: 'A' } })).toBe('/advertiser/activity');
    expect(homePathOf({ type: USER_TYPE.publisher, account: { id: 1, brand: 'P' } })).toBe('/publisher/accounting');
    const fresh = { id: 2, brand: 'New', awaitingInstallation: true };
    expect(homePathOf({ type: USER_TYPE.publisher, account: fresh })).toBe('/publisher/installation');
  });

  it('follows the account in use, not the first one held', () => {
    const accounts = {
      publishers: [
        { id: 1, brand: 'Installed', awaitingInstallation: false },
        { id: 2, brand: 'New', awaitingInstallation: true },
      ],
      advertisers: [],
    };
    const user = { isAdmin: false, currentType: USER_TYPE.publisher, currentAccountId: 1 };
    expect(homePathOf(resolveCurrentAccount(user, accounts)!)).toBe('/publisher/accounting');
    expect(homePathOf(resolveCurrentAccount({ ...user, currentAccountId: 2 }, accounts)!)).toBe(
      '/publisher/installation',
    );
  });
});
