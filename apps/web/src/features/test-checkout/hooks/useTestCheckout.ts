import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getTestCheckoutCall, payTestCheckoutCall } from '@helium/contracts';
import { apiErrorMessage, apiPost } from '../../../api/client.ts';

export const TEST_CHECKOUT_QUERY_KEY = ['advertiser', 'test-checkout'] as const;

/** The local test checkout's session, and paying it: the server marks the sale paid and says where to go next. */
export function useTestCheckout(sessionId: string) {
  const query = useQuery({
    queryKey: [...TEST_CHECKOUT_QUERY_KEY, sessionId],
    queryFn: () => apiPost(getTestCheckoutCall, { sessionId }),
    retry: false,
    gcTime: 0,
  });
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const pay = async () => {
    setPaying(true);
    setError(null);
    try {
      const answer = await apiPost(payTestCheckoutCall, { sessionId });
      // Stays "paying" while the browser leaves.
      window.location.assign(answer.url);
    } catch (caught) {
      console.error('pay-test-checkout failed', caught);
      setError(apiErrorMessage(caught) ?? '');
      setPaying(false);
    }
  };

  return { query, paying, error, pay };
}
