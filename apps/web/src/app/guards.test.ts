import { describe, expect, it } from 'vitest';
import { decideAccess, signInReturningTo } from './guards.ts';
import { APP_ROUTES, menuFor } from './routes.ts';

describe('decideAccess', () => {
  it('sends to sign-in when there is no user, whatever the route', () => {
    for (const requirement of ['signedIn', 'home', 0, 1, 2] as const) {
      expect(decideAccess(null, requirement)).toEqual({ kind: 'redirect', to: '/signin' });
    }
  });

  it('lets any signed-in user into the signed-in root', () => {
    expect(decideAccess({ type: 1 }, 'signedIn')).toEqual({ kind: 'allow' });
  });

  it('redirects home by type', () => {
    expect(decideAccess({ type: 0 }, 'home')).toEqual({ kind: 'redirect', to: '/admin/stats' });
    expect(decideAccess({ type: 1 }, 'home')).toEqual({ kind: 'redirect', to: '/publisher/accounting' });
    expect(decideAccess({ type: 2 }, 'home')).toEqual({ kind: 'redirect', to: '/advertiser/activity' });
    const newPublisher = { type: 1, homePath: '/publisher/installation' } as const;
    expect(decideAccess(newPublisher, 'home')).toEqual({ kind: 'redirect', to: '/publisher/installation' });
  });

  it("allows a route of the user's type and sends other types back home", () => {
    expect(decideAccess({ type: 2 }, 2)).toEqual({ kind: 'allow' });
    expect(decideAccess({ type: 2 }, 0)).toEqual({ kind: 'redirect', to: '/' });
    expect(decideAccess({ type: 0 }, 1)).toEqual({ kind: 'redirect', to: '/' });
  });
});

describe('signInReturningTo', () => {
  it('names the page asked for, its query encoded, and nothing for home', () => {
    expect(signInReturningTo('/advertiser/activity?addCredits=1&advertiser=3')).toBe(
      '/signin?next=%2Fadvertiser%2Factivity%3FaddCredits%3D1%26advertiser%3D3',
    );
    expect(signInReturningTo('/')).toBe('/signin');
  });
});

describe('route table', () => {
  it('holds the thirteen typed routes of the specification, the admin payments and payouts, and the terms', () => {
    expect(APP_ROUTES.map((route) => [route.path, route.type])).toEqual([
      ['admin/stats', 0],
      ['admin/activity-by-advertiser', 0],
      ['admin/activity-by-publisher', 0],
      ['admin/ad-validation', 0],
      ['admin/users', 0],
      ['admin/payments', 0],
      ['admin/payouts', 0],
      ['admin/audit', 0],
      ['admin/accounts', 0],
      ['admin/settings', 0],
      ['admin/invalid-traffic', 0],
      ['admin/placements', 0],
      ['advertiser/activity', 2],
      ['advertiser/ads', 2],
      ['advertiser/settings', 2],
      ['publisher/accounting', 1],
      ['publisher/stats', 1],
      ['publisher/settings', 1],
      ['publisher/performance', 1],
      ['publisher/installation', 1],
      ['publisher/terms', 1],
    ]);
  });

  it('builds the role menus in the order of the specification', () => {
    expect(menuFor(0).map((entry) => entry.navKey)).toEqual([
      'nav.stats',
      'nav.activityByAdvertiser',
      'nav.activityByPublisher',
      'nav.adValidation',
      'nav.users',
      'nav.payments',
      'nav.payouts',
      'nav.auditLog',
      'nav.accounts',
      'nav.networkSettings',
      'nav.invalidTraffic',
      'nav.placements',
    ]);
    expect(menuFor(1).map((entry) => entry.to)).toEqual([
      '/publisher/accounting',
      '/publisher/stats',
      '/publisher/performance',
      '/publisher/settings',
      '/publisher/installation',
      '/publisher/terms',
    ]);
    expect(menuFor(2).map((entry) => entry.navKey)).toEqual(['nav.activity', 'nav.ads', 'nav.settings']);
  });
});
