import { useQuery } from '@tanstack/react-query';
import { getCampaignExCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { CAMPAIGN_QUERY_KEY, useCampaignId } from './useCampaign.ts';

/** The campaign's statistics by URL, read only while they are shown and not kept afterwards. */
export function useCampaignByUrl(enabled: boolean) {
  const campaignId = useCampaignId();
  return useQuery({
    queryKey: [...CAMPAIGN_QUERY_KEY, campaignId ?? 'newest', 'byUrl'],
    queryFn: () =>
      apiPost(getCampaignExCall, { campaignId, doByPublisher: false, doIncludeRealTimeHits: true, doByUrl: true }),
    enabled,
    gcTime: 0,
  });
}
