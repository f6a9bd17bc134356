import { useQuery } from '@tanstack/react-query';
import { getCampaignCountriesCall, type TCampaignEx } from '@helium/contracts';
import { normaliseRange } from '@helium/domain/activity';
import { apiPost } from '../../../api/client.ts';
import { CAMPAIGN_QUERY_KEY } from './useCampaign.ts';

/** The campaign's figures by visitor country over the screen's date range, read only while they are shown. */
export function useCampaignCountries(campaign: TCampaignEx, enabled: boolean) {
  const range = normaliseRange(campaign.statsDateRange);
  return useQuery({
    queryKey: [...CAMPAIGN_QUERY_KEY, 'byCountry', campaign.id, range?.from ?? null, range?.to ?? null],
    queryFn: () => apiPost(getCampaignCountriesCall, { campaignId: campaign.id, ...(range ?? {}) }),
    enabled,
    gcTime: 0,
  });
}
