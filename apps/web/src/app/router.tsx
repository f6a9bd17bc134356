import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunction, type RouteObject } from 'react-router';
import { USER_TYPE } from '@helium/domain/roles';
import { SignInPage } from '../features/auth/SignInPage.tsx';
import { FullPageLoader } from './FullPageLoader.tsx';
import { HOME_PATH, type Requirement } from './guards.ts';
import { APP_ROUTES, type RouteName } from './routes.ts';

/**
 * Screens built so far, by route name, loaded on demand so that each role downloads only its own
 * screens; every other route shows the "not available yet" panel. For example:
 * `'admin-users': () => import('../features/admin-users/AdminUsersPage.tsx').then((m) => m.AdminUsersPage),`
 */
const PAGES: Partial<Record<RouteName, () => Promise<ComponentType>>> = {
  'publisher-installation': () =>
    import('../features/publisher-installation/PublisherInstallationPage.tsx').then((m) => m.PublisherInstallationPage),
  'publisher-performance': () =>
    import('../features/publisher-performance/PublisherPerformancePage.tsx').then((m) => m.PublisherPerformancePage),
  'advertiser-ads': () => import('../features/advertiser-ads/AdvertiserAdsPage.tsx').then((m) => m.AdvertiserAdsPage),
  'admin-ad-validation': () =>
    import('../features/admin-ad-validation/AdminAdValidationPage.tsx').then((m) => m.AdminAdValidationPage),
  'advertiser-activity': () =>
    import('../features/advertiser-activity/AdvertiserActivityPage.tsx').then((m) => m.AdvertiserActivityPage),
  'admin-activity-by-advertiser': () =>
    import('../features/admin-activity/AdminActivityByAdvertiserPage.tsx').then((m) => m.AdminActivityByAdvertiserPage),
  'admin-activity-by-publisher': () =>
    import('../features/admin-activity/AdminActivityByPublisherPage.tsx').then((m) => m.AdminActivityByPublisherPage),
  'advertiser-settings': () =>
    import('../features/advertiser-settings/AdvertiserSettingsPage.tsx').then((m) => m.AdvertiserSettingsPage),
  'admin-stats': () => import('../features/admin-stats/AdminStatsPage.tsx').then((m) => m.AdminStatsPage),
  'admin-payments': () => import('../features/admin-payments/AdminPaymentsPage.tsx').then((m) => m.AdminPaymentsPage),
  'admin-payouts': () => import('../features/admin-payouts/AdminPayoutsPage.tsx').then((m) => m.AdminPayoutsPage),
  'admin-users': () => import('../features/admin-users/AdminUsersPage.tsx').then((m) => m.AdminUsersPage),
  'admin-audit-log': () => import('../features/audit-log/AuditLogPage.tsx').then((m) => m.AuditLogPage),
  'admin-invalid-traffic': () =>
    import('../features/invalid-traffic/InvalidTrafficPage.tsx').then((m) => m.InvalidTrafficPage),
  'admin-placements': () =>
    import('../features/admin-placements/AdminPlacementsPage.tsx').then((m) => m.AdminPlacementsPage),
  'admin-accounts': () => import('../features/admin-accounts/AdminAccountsPage.tsx').then((m) => m.AdminAccountsPage),
  'admin-network-settings': () =>
    import('../features/admin-network-settings/AdminNetworkSettingsPage.tsx').then((m) => m.AdminNetworkSettingsPage),
  'publisher-accounting': () =>
    import('../features/publisher-accounting/PublisherAccountingPage.tsx').then((m) => m.PublisherAccountingPage),
  'publisher-stats': () =>
    import('../features/publisher-stats/PublisherStatsPage.tsx').then((m) => m.PublisherStatsPage),
  'publisher-settings': () =>
    import('../features/publisher-settings/PublisherSettingsPage.tsx').then((m) => m.PublisherSettingsPage),
  'publisher-terms': () =>
    import('../features/publisher-terms/PublisherTermsPage.tsx').then((m) => m.PublisherTermsPage),
};

/** The signed-in screens' shared code (guards, user, catalogue, shell): not part of the sign-in screen. */
const signedIn = () => import('./signedIn.tsx');

/** The route's guard, from the signed-in module (loaded by the first guard that runs, then shared). */
function guard(requirement: Requirement): LoaderFunction {
  return async (args) => (await signedIn()).guard(requirement)(args);
}

/** Shown when a loader or a page throws something other than a redirect: in the language in use. */
const LazyRouteError = lazy(async () => {
  const [{ RouteError }, { loadCurrentCatalogue }] = await Promise.all([
    import('./RouteError.tsx'),
    import('../i18n/index.ts'),
  ]);
  await loadCurrentCatalogue();
  return { default: RouteError };
});

const signedInRoutes: RouteObject[] = [
  // Redirect-only routes: an explicit null element, as they never render.
  { index: true, loader: guard('home'), element: null },
  ...APP_ROUTES.map((route): RouteObject => {
    const load = PAGES[route.name];
    return {
      path: route.path,
      id: route.name,
      loader: guard(route.type),
      lazy: load
        ? async () => ({ Component: await load() })
        : async () => {
            const { PlaceholderPage } = await import('../features/placeholder/PlaceholderPage.tsx');
            return { Component: () => <PlaceholderPage titleKey={route.navKey} /> };
          },
    };
  }),
  // "Sign In ->" of Admin: Users, opened in a new tab: mints the one-time link and opens it (docs/admin.md).
  {
    path: 'admin/users/:userId/signin',
    id: 'admin-signin-as',
    loader: guard(USER_TYPE.admin),
    lazy: async () => ({
      Component: (await import('../features/admin-users/SigninAsPage.tsx')).SigninAsPage,
    }),
  },
  // The admin's personal API tokens, from the user menu (advertisers and publishers have them on Settings).
  {
    path: 'admin/api-tokens',
    id: 'admin-api-tokens',
    loader: guard(USER_TYPE.admin),
    lazy: async () => ({
      Component: (await import('../features/api-tokens/ApiTokensPage.tsx')).ApiTokensPage,
    }),
  },
  // The local stand-in for the card provider's checkout (no STRIPE_SECRET_KEY): out of the menus.
  {
    path: 'test-checkout/:sessionId',
    id: 'test-checkout',
    loader: guard(USER_TYPE.advertiser),
    lazy: async () => ({
      Component: (await import('../features/test-checkout/TestCheckoutPage.tsx')).TestCheckoutPage,
    }),
  },
  { path: '*', loader: () => redirect(HOME_PATH), element: null },
];

export const routes: RouteObject[] = [
  { path: '/signin/:id?', id: 'signin', element: <SignInPage /> },
  {
    path: '/publisher-ad-validation/:hashid?',
    id: 'publisher-ad-validation',
    lazy: async () => ({
      Component: (await import('../features/publisher-ad-validation/PublisherAdValidationPage.tsx'))
        .PublisherAdValidationPage,
    }),
    hydrateFallbackElement: <FullPageLoader />,
  },
  // The terms of use, public so that the sign-in's agreement step can link to them (in a new tab).
  {
    path: '/terms',
    id: 'terms',
    lazy: async () => {
      const [{ PublicTermsPage }, { loadCatalogue }] = await Promise.all([
        import('../features/publisher-terms/PublicTermsPage.tsx'),
        import('../i18n/index.ts'),
      ]);
      // Both languages: the page switches between them.
      await Promise.all([loadCatalogue('en'), loadCatalogue('fr')]);
      return { Component: PublicTermsPage };
    },
    hydrateFallbackElement: <FullPageLoader />,
  },
  {
    path: '/',
    id: 'root',
    // The language is applied before the first render of the shell, so a French user never sees English first.
    loader: async (args) => (await signedIn()).rootLoader(args),
    lazy: async () => ({ Component: (await signedIn()).SignedInRoot }),
    errorElement: (
      <Suspense fallback={<FullPageLoader />}>
        <LazyRouteError />
      </Suspense>
    ),
    hydrateFallbackElement: <FullPageLoader />,
    children: signedInRoutes,
  },
];

export const router = createBrowserRouter(routes);
