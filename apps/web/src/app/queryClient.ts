import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/client.ts';

function isClientError(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      // A session that expires while the app is open: data was there, now the server says 401.
      // Route entry without a session is handled by the loaders instead, so no double navigation.
      if (isApiError(error, 401) && query.state.data !== undefined && !window.location.pathname.startsWith('/signin')) {
        window.location.assign('/signin');
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
