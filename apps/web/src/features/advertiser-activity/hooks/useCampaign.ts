import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getCampaignExCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { initialByPublisher } from '../utils/logic.ts';

export const CAMPAIGN_QUERY_KEY = ['advertiser', 'campaignex'] as const;

/**
 * The advertiser's campaign, with or without its by-publisher lines. The mode is unknown until the first answer
 * (read without the lines, under the key of that mode: a campaign that stays without them is read once); the
 * figures already shown stay while the other mode loads.
 */
export function useCampaign() {
  const [byPublisher, setByPublisher] = useState<boolean | null>(null);
  const query = useQuery({
    queryKey: [...CAMPAIGN_QUERY_KEY, byPublisher ?? false],
    queryFn: () =>
      apiPost(getCampaignExCall, {
        doByPublisher: byPublisher ?? false,
        doIncludeRealTimeHits: true,
        doByUrl: false,
      }),
    placeholderData: (previous) => previous,
    retry: false,
  });
  const campaign = query.data;

  // First load: by-publisher mode on for trial campaigns.
  useEffect(() => {
    if (campaign && byPublisher === null) setByPublisher(initialByPublisher(campaign));
  }, [campaign, byPublisher]);

  return { query, campaign, byPublisher: Boolean(byPublisher), setByPublisher };
}
