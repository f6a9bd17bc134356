import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getPayoutsCall, updatePayoutCall, type TUpdatePayoutRequest } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { useCurrentUser } from '../../user/hooks/useCurrentUser.ts';
import type { PayoutFilter } from '../utils/payouts.ts';

export const PAYOUTS_QUERY_KEY = ['admin', 'payouts'] as const;

/** The payouts an admin looks at, by state, and marking one paid or returned (the caller shows the refusals). */
export function usePayouts() {
  const queryClient = useQueryClient();
  const { locale } = useCurrentUser();
  const [filter, setFilter] = useState<PayoutFilter>('pending');
  const query = useQuery({
    // Dates are written by the server in the user's language.
    queryKey: [...PAYOUTS_QUERY_KEY, filter, locale],
    queryFn: () => apiPost(getPayoutsCall, { state: filter }),
    placeholderData: (previous) => previous,
  });
  const decide = async (request: TUpdatePayoutRequest) => {
    try {
      return (await apiPost(updatePayoutCall, request)).payout;
    } finally {
      await queryClient.invalidateQueries({ queryKey: PAYOUTS_QUERY_KEY });
    }
  };
  return { filter, setFilter, query, payouts: query.data?.payouts, decide };
}
