import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/client.ts';
import { SIGN_IN_PATH, signInReturningTo } from './guards.ts';

function isClientError(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      // A session that expires while the app is open: data was there, now the server says 401.
      // Route entry without a session is handled by the loaders instead, so no double navigation.
      const { pathname, search } = window.location;
      if (isApiError(error, 401) && query.state.data !== undefined && !pathname.startsWith(SIGN_IN_PATH)) {
        window.location.assign(signInReturningTo(`${pathname}${search}`));
      }
    },
  }),
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      // A 4xx answer will not change by asking again; a network hiccup may.
      retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
    },
  },
});
