import { describe, expect, it } from 'vitest';
import { homePathOf, resolveCurrentAccount, returnPathOf, USER_TYPE } from '../src/roles.ts';

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

describe('returnPathOf', () => {
  it('returns to a page of this product, its query kept', () => {
    expect(returnPathOf('/advertiser/activity?addCredits=1&advertiser=7')).toBe(
      '/advertiser/activity?addCredits=1&advertiser=7',
    );
    expect(returnPathOf('/publisher/accounting')).toBe('/publisher/accounting');
  });

  it('goes home instead for another site, the sign-in page, home itself or a broken address', () => {
    for (const asked of [
      undefined,
      null,
      '',
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      'advertiser/activity',
      '/',
      '/?x=1',
      '/signin',
      '/signin?email=a@b.co',
      '/advertiser/activity\n',
      '/advertiser/\u0000activity',
    ]) {
      expect(returnPathOf(asked), String(asked)).toBeNull();
    }
  });
});
