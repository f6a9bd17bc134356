import { useQuery } from '@tanstack/react-query';
import { getCampaignExCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { CAMPAIGN_QUERY_KEY } from './useCampaign.ts';

/** The campaign's statistics by URL, read only while they are shown and not kept afterwards. */
export function useCampaignByUrl(enabled: boolean) {
  return useQuery({
    queryKey: [...CAMPAIGN_QUERY_KEY, 'byUrl'],
    queryFn: () => apiPost(getCampaignExCall, { doByPublisher: false, doIncludeRealTimeHits: true, doByUrl: true }),
    enabled,
    gcTime: 0,
  });
}
