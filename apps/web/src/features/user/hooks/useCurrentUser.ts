import { queryOptions, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import type { TUser } from '@helium/contracts';
import { api } from '../../../api/client.ts';

export const USER_QUERY_KEY = ['user'] as const;

export const userQueryOptions = queryOptions<TUser>({
  queryKey: USER_QUERY_KEY,
  queryFn: () => api.user(),
  // A 401 means "not signed in": retrying only delays the trip to the sign-in screen.
  retry: false,
  staleTime: 5 * 60 * 1000,
});

/**
 * The signed-in user. Only for components under the signed-in root, whose loader has already
 * fetched the user, so this never suspends in practice.
 */
export function useCurrentUser(): TUser {
  return useSuspenseQuery(userQueryOptions).data;
}

/** The 'user changed' event: language or currency were updated, so read the user again (no reload). */
export function userChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
}
