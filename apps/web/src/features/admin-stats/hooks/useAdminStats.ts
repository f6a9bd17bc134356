import { useQuery } from '@tanstack/react-query';
import { getAdminStatsCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { useCurrentUser } from '../../user/hooks/useCurrentUser.ts';

export const ADMIN_STATS_QUERY_KEY = ['admin', 'stats'] as const;

/**
 * Admin Stats. The most frequent URLs are read only once the checkbox asks for them (the home page stays fast);
 * the figures shown meanwhile are the last ones read.
 */
export function useAdminStats(withUrls: boolean) {
  const user = useCurrentUser();
  const query = useQuery({
    // The server writes the figures' texts in the user's language: a new language reads them again.
    queryKey: [...ADMIN_STATS_QUERY_KEY, user.locale, withUrls],
    queryFn: () => apiPost(getAdminStatsCall, { withUrls }),
    placeholderData: (previous) => previous,
  });
  return { query, stats: query.data };
}
