import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { getCampaignExCall } from '@helium/contracts';
import { ACTIVITY_CAMPAIGN_PARAM } from '@helium/domain';
import { apiPost } from '../../../api/client.ts';
import { initialByPublisher } from '../utils/logic.ts';

export const CAMPAIGN_QUERY_KEY = ['advertiser', 'campaignex'] as const;

/**
 * The campaign the address names (`?campaign=<id>`), else the advertiser's newest: undefined lets the server
 * choose; a malformed id is sent as 0, which the server refuses (the screen says so).
 */
export function useCampaignId(): number | undefined {
  const [params] = useSearchParams();
  const asked = params.get(ACTIVITY_CAMPAIGN_PARAM);
  if (asked === null) return undefined;
  return /^\d{1,10}$/.test(asked) ? Number(asked) : 0;
}

/**
 * The advertiser's campaign, with or without its by-publisher lines. The mode is unknown until the first answer
 * (read without the lines, under the key of that mode: a campaign that stays without them is read once); the
 * figures already shown stay while the other mode loads, but not those of another campaign.
 */
export function useCampaign() {
  const campaignId = useCampaignId();
  const [byPublisher, setByPublisher] = useState<boolean | null>(null);
  const [shownId, setShownId] = useState(campaignId);
  // Another campaign chosen: its own mode (trial campaigns open by publisher) is read again.
  if (shownId !== campaignId) {
    setShownId(campaignId);
    setByPublisher(null);
  }
  const query = useQuery({
    queryKey: [...CAMPAIGN_QUERY_KEY, campaignId ?? 'newest', byPublisher ?? false],
    queryFn: () =>
      apiPost(getCampaignExCall, {
        campaignId,
        doByPublisher: byPublisher ?? false,
        doIncludeRealTimeHits: true,
        doByUrl: false,
      }),
    placeholderData: (previous) => (previous?.id === campaignId || campaignId === undefined ? previous : undefined),
    retry: false,
  });
  const campaign = query.data;

  // First load: by-publisher mode on for trial campaigns.
  useEffect(() => {
    if (campaign && byPublisher === null) setByPublisher(initialByPublisher(campaign));
  }, [campaign, byPublisher]);

  return { query, campaign, campaignId, byPublisher: Boolean(byPublisher), setByPublisher };
}
