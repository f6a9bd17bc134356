import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { userActivityCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

/**
 * The screen's three modals: statistics by URL, add credits (its opening and closing are reported to the server)
 * and the thanks shown on returning from card payment.
 */
export function useActivityModals() {
  const [params, setParams] = useSearchParams();
  const [urlOpen, setUrlOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const [successOpen, setSuccessOpen] = useState(false);

  // Returning from card payment opens the success modal and clears the query.
  useEffect(() => {
    if (params.get('event') === 'successfulPayment') {
      setSuccessOpen(true);
      setParams({}, { replace: true });
    }
  }, [params, setParams]);

  const setAddCreditsOpen = (open: boolean) => {
    setAddOpen(open);
    apiPost(userActivityCall, {
      activityStr: open ? 'advertiserOpensAddCreditsModal' : 'advertiserClosesAddCreditsModal',
    }).catch((error) => console.error('user-activity failed', error));
  };

  return {
    urlOpen,
    setUrlOpen,
    addOpen,
    setAddOpen: setAddCreditsOpen,
    successOpen,
    setSuccessOpen,
    anyOpen: urlOpen || addOpen || successOpen,
  };
}
