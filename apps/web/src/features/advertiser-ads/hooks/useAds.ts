import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TGetAdsResponse } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { getAdsCall } from '@helium/contracts';

export const ADS_QUERY_KEY = ['advertiser', 'ads'] as const;

/** The advertiser's ads. A failed call is only logged (spec 02, section 8): the list still becomes ready, empty. */
const adsQueryOptions = queryOptions<TGetAdsResponse>({
  queryKey: ADS_QUERY_KEY,
  queryFn: async () => {
    try {
      return await apiPost(getAdsCall);
    } catch (error) {
      console.error('get-ads failed', error);
      return { ads: [] };
    }
  },
});

export function useAds() {
  return useQuery(adsQueryOptions);
}
