import { useQuery } from '@tanstack/react-query';
import { getActivityCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export type SortBy = 'advertiser' | 'publisher';

/** The engine's activity, read again every 5 s while the screen is open. */
export function useActivity(sortBy: SortBy, showCompleteCampaignsOrInactiveAds: boolean) {
  return useQuery({
    queryKey: ['admin', 'activity', sortBy, showCompleteCampaignsOrInactiveAds],
    queryFn: () => apiPost(getActivityCall, { sortBy, showCompleteCampaignsOrInactiveAds }),
    // A failure is only logged; the loading indicator stays (specification 01, section 8).
    retry: false,
    refetchInterval: 5000,
  });
}
