/**
 * What every signed-in screen shares and the sign-in screen does not load (docs/performance.md, "First screens"):
 * the guards with the user query, the catalogue of the user's language, the shell. The router imports this module
 * on demand, from the signed-in routes' loaders.
 */
import { Suspense } from 'react';
import { redirect, type LoaderFunction } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TUser } from '@helium/contracts';
import { accountValue, ADVERTISER_LINK_PARAM, USER_TYPE } from '@helium/domain/roles';
import { api } from '../api/client.ts';
import { userQueryOptions } from '../features/user/hooks/useCurrentUser.ts';
import { applyLocale, loadCatalogue } from '../i18n/index.ts';
import { FullPageLoader } from './FullPageLoader.tsx';
import { decideAccess, signInReturningTo, type Requirement } from './guards.ts';
import { queryClient } from './queryClient.ts';
import { AppLayout } from './shell/AppLayout.tsx';

/** The current user, fetched once and then read from the ['user'] query; null when the fetch fails. */
async function loadUser(): Promise<TUser | null> {
  try {
    return await queryClient.ensureQueryData(userQueryOptions);
  } catch {
    return null;
  }
}

/** The account switch a link asked for, while it runs. */
let switching: Promise<TUser | null> | null = null;

/**
 * The user, with the advertiser account a link names in use: a user holding several accounts who follows an alert
 * about one of them lands on that one, not on the account last used. A link naming an account the user does not
 * hold changes nothing.
 */
async function userForLink(url: URL): Promise<TUser | null> {
  const user = await loadUser();
  const wanted = Number(url.searchParams.get(ADVERTISER_LINK_PARAM));
  if (!user || !Number.isInteger(wanted) || !user.advertisers.some((account) => account.id === wanted)) return user;
  if (user.type === USER_TYPE.advertiser && user.accountId === wanted) return user;
  // The matched routes' guards run at once: one switch serves them all.
  switching ??= (async () => {
    try {
      await api.updateUser({ key: 'type', value: accountValue(USER_TYPE.advertiser, wanted) });
      return await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
    } catch (error) {
      console.error('Account switch for a link failed', error);
      return user;
    } finally {
      switching = null;
    }
  })();
  return switching;
}

/**
 * Loaders of matched routes run in parallel, so each guard loads the user itself; the query
 * deduplicates the request.
 */
export function guard(requirement: Requirement, onUser?: (user: TUser) => Promise<void>): LoaderFunction {
  return async ({ request }) => {
    const url = new URL(request.url);
    const user = await userForLink(url);
    const decision = decideAccess(user, requirement);
    if (decision.kind === 'redirect')
      return redirect(user ? decision.to : signInReturningTo(`${url.pathname}${url.search}`));
    if (user) await onUser?.(user);
    return null;
  };
}

/** The language (and its catalogue) is applied before the first render of the shell: a French user never sees English first. */
export const rootLoader = guard('signedIn', async (user) => {
  await applyLocale(user.locale);
  // The "Acting as" bar speaks the admin's language, whatever the user's (ActingAsBar).
  if (user.actingAs) await loadCatalogue(user.actingAs.adminLocale);
});

function LocalizedLoader() {
  const { t } = useTranslation();
  return <FullPageLoader label={t('common.loading')} />;
}

/** The signed-in root: the shell, with the server data of its screens. */
export function SignedInRoot() {
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={<LocalizedLoader />}>
        <AppLayout />
      </Suspense>
    </QueryClientProvider>
  );
}
