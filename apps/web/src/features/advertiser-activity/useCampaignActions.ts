import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost, type ApiPath, type ApiRequest } from '../../api/client.ts';

export const CAMPAIGN_QUERY_KEY = ['advertiser', 'campaignex'] as const;

/** A campaign change: sends the call, then reloads the campaign. Failures are only logged (spec 02, section 8). */
export function useCampaignAction<P extends ApiPath>(path: P) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiRequest<P>) => (apiPost as (p: P, b: ApiRequest<P>) => Promise<unknown>)(path, body),
    onError: (error) => console.error(`${path} failed`, error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CAMPAIGN_QUERY_KEY }),
  });
}
