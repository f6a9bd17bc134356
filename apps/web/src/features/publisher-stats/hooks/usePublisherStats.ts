import { useQuery } from '@tanstack/react-query';
import { getPublisherStatsCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { useCurrentUser } from '../../user/hooks/useCurrentUser.ts';

export const PUBLISHER_STATS_QUERY_KEY = ['publisher', 'stats'] as const;

/** The daily stats of the publisher in use; a failure is only logged (section 8). */
export function usePublisherStats() {
  const user = useCurrentUser();
  const query = useQuery({
    // The server writes the days in the user's language: a new language reads them again.
    queryKey: [...PUBLISHER_STATS_QUERY_KEY, user.accountId, user.locale],
    queryFn: async () => {
      try {
        return await apiPost(getPublisherStatsCall, {});
      } catch (error) {
        console.error('get-stats failed', error);
        throw error;
      }
    },
  });
  return { query, stats: query.data };
}
