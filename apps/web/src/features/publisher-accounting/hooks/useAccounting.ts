import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getAccountingCall, requestPayoutCall, type TRequestPayoutRequest } from '@helium/contracts';
import { apiErrorMessage, apiPost } from '../../../api/client.ts';
import { useCurrentUser } from '../../user/hooks/useCurrentUser.ts';

export const ACCOUNTING_QUERY_KEY = ['publisher', 'accounting'] as const;

/**
 * The accounting of the publisher in use, and asking for a payout (section 2.5): once asked, the payout stays
 * disabled and the page reloads when the request returns; a refusal is shown and the payout can be asked again.
 */
export function useAccounting() {
  const user = useCurrentUser();
  const query = useQuery({
    // The server writes the days and types in the user's language: a new language reads them again.
    queryKey: [...ACCOUNTING_QUERY_KEY, user.accountId, user.locale],
    queryFn: () => apiPost(getAccountingCall, {}),
  });
  const [requesting, setRequesting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const requestPayout = async (request: TRequestPayoutRequest) => {
    setRequesting(true);
    setError(null);
    try {
      await apiPost(requestPayoutCall, request);
      window.location.reload();
    } catch (caught) {
      console.error('request-payout failed', caught);
      setError(apiErrorMessage(caught) ?? '');
      setRequesting(false);
      void query.refetch();
    }
  };

  return { query, accounting: query.data, requestPayout, requesting, error };
}
