import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Call, CallInput } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { CAMPAIGN_QUERY_KEY } from './useCampaign.ts';

/**
 * A campaign change: sends the call, then reloads the campaign. Failures are only logged (spec 02, section 8).
 * Changes by one call go one after another, in the order made: sent at once, a slider's five steps could be
 * stored out of order, leaving an earlier value.
 */
export function useCampaignAction<C extends Call>(call: C) {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: call.path },
    mutationFn: (body: CallInput<C>) => (apiPost as (c: C, b: CallInput<C>) => Promise<unknown>)(call, body),
    onError: (error) => console.error(`${call.path} failed`, error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CAMPAIGN_QUERY_KEY }),
  });
}
