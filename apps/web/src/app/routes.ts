/**
 * The route table of specification 01, section 2 (and the admin's payments and payouts, issues 22 and 23, and the
 * publisher's terms of use, specification 02 section 2.10), as data: the router, the guards and the role menus are
 * all derived from it.
 */
import { USER_TYPE, type UserType } from '@helium/domain/roles';

export type NavKey =
  | 'nav.stats'
  | 'nav.activityByAdvertiser'
  | 'nav.activityByPublisher'
  | 'nav.adValidation'
  | 'nav.users'
  | 'nav.payments'
  | 'nav.payouts'
  | 'nav.auditLog'
  | 'nav.accounts'
  | 'nav.networkSettings'
  | 'nav.invalidTraffic'
  | 'nav.placements'
  | 'nav.accounting'
  | 'nav.performance'
  | 'nav.settings'
  | 'nav.installation'
  | 'nav.terms'
  | 'nav.activity'
  | 'nav.ads';

export interface AppRoute {
  /** Path under the signed-in root, without the leading slash. */
  path: string;
  name: string;
  type: UserType;
  navKey: NavKey;
}

export const APP_ROUTES = [
  { path: 'admin/stats', name: 'admin-stats', type: USER_TYPE.admin, navKey: 'nav.stats' },
  {
    path: 'admin/activity-by-advertiser',
    name: 'admin-activity-by-advertiser',
    type: USER_TYPE.admin,
    navKey: 'nav.activityByAdvertiser',
  },
  {
    path: 'admin/activity-by-publisher',
    name: 'admin-activity-by-publisher',
    type: USER_TYPE.admin,
    navKey: 'nav.activityByPublisher',
  },
  { path: 'admin/ad-validation', name: 'admin-ad-validation', type: USER_TYPE.admin, navKey: 'nav.adValidation' },
  { path: 'admin/users', name: 'admin-users', type: USER_TYPE.admin, navKey: 'nav.users' },
  { path: 'admin/payments', name: 'admin-payments', type: USER_TYPE.admin, navKey: 'nav.payments' },
  { path: 'admin/payouts', name: 'admin-payouts', type: USER_TYPE.admin, navKey: 'nav.payouts' },
  { path: 'admin/audit', name: 'admin-audit-log', type: USER_TYPE.admin, navKey: 'nav.auditLog' },
  { path: 'admin/accounts', name: 'admin-accounts', type: USER_TYPE.admin, navKey: 'nav.accounts' },
  {
    path: 'admin/settings',
    name: 'admin-network-settings',
    type: USER_TYPE.admin,
    navKey: 'nav.networkSettings',
  },
  {
    path: 'admin/invalid-traffic',
    name: 'admin-invalid-traffic',
    type: USER_TYPE.admin,
    navKey: 'nav.invalidTraffic',
  },
  { path: 'admin/placements', name: 'admin-placements', type: USER_TYPE.admin, navKey: 'nav.placements' },
  { path: 'advertiser/activity', name: 'advertiser-activity', type: USER_TYPE.advertiser, navKey: 'nav.activity' },
  { path: 'advertiser/ads', name: 'advertiser-ads', type: USER_TYPE.advertiser, navKey: 'nav.ads' },
  { path: 'advertiser/settings', name: 'advertiser-settings', type: USER_TYPE.advertiser, navKey: 'nav.settings' },
  {
    path: 'publisher/accounting',
    name: 'publisher-accounting',
    type: USER_TYPE.publisher,
    navKey: 'nav.accounting',
  },
  { path: 'publisher/stats', name: 'publisher-stats', type: USER_TYPE.publisher, navKey: 'nav.stats' },
  { path: 'publisher/settings', name: 'publisher-settings', type: USER_TYPE.publisher, navKey: 'nav.settings' },
  {
    path: 'publisher/performance',
    name: 'publisher-performance',
    type: USER_TYPE.publisher,
    navKey: 'nav.performance',
  },
  {
    path: 'publisher/installation',
    name: 'publisher-installation',
    type: USER_TYPE.publisher,
    navKey: 'nav.installation',
  },
  { path: 'publisher/terms', name: 'publisher-terms', type: USER_TYPE.publisher, navKey: 'nav.terms' },
] as const satisfies readonly AppRoute[];

export type RouteName = (typeof APP_ROUTES)[number]['name'];

/** Menu order per role (spec 01, Main layout); it differs from the route table's order for publishers. */
const MENU_ORDER: Record<UserType, readonly RouteName[]> = {
  [USER_TYPE.admin]: [
    'admin-stats',
    'admin-activity-by-advertiser',
    'admin-activity-by-publisher',
    'admin-ad-validation',
    'admin-users',
    'admin-payments',
    'admin-payouts',
    'admin-audit-log',
    'admin-accounts',
    'admin-network-settings',
    'admin-invalid-traffic',
    'admin-placements',
  ],
  [USER_TYPE.publisher]: [
    'publisher-accounting',
    'publisher-stats',
    'publisher-performance',
    'publisher-settings',
    'publisher-installation',
    'publisher-terms',
  ],
  [USER_TYPE.advertiser]: ['advertiser-activity', 'advertiser-ads', 'advertiser-settings'],
};

export interface MenuEntry {
  /** Absolute path. */
  to: string;
  navKey: NavKey;
  name: RouteName;
}

export function menuFor(type: UserType): MenuEntry[] {
  return MENU_ORDER[type].flatMap((name) => {
    const route = APP_ROUTES.find((candidate) => candidate.name === name);
    return route ? [{ to: `/${route.path}`, navKey: route.navKey, name: route.name }] : [];
  });
}
