import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { userActivityCall } from '@helium/contracts';
import { ADVERTISER_LINK_PARAM } from '@helium/domain';
import { apiPost } from '../../../api/client.ts';
import { CAMPAIGN_QUERY_KEY } from './useCampaign.ts';

/** Tells the server the add-credits modal opened or closed (user activities). */
function reportAddCredits(open: boolean) {
  apiPost(userActivityCall, {
    activityStr: open ? 'advertiserOpensAddCreditsModal' : 'advertiserClosesAddCreditsModal',
  }).catch((error) => console.error('user-activity failed', error));
}

/** The address without what a link asks once (a modal, an account to use); the campaign shown stays. */
function withoutOneTimeParams(params: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams(params);
  for (const name of ['event', 'addCredits', ADVERTISER_LINK_PARAM]) kept.delete(name);
  return kept;
}

/**
 * The screen's three modals: statistics by URL, add credits (its opening and closing are reported to the server)
 * and the thanks shown on returning from card payment.
 */
export function useActivityModals() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [urlOpen, setUrlOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const [successOpen, setSuccessOpen] = useState(false);

  // Returning from card payment opens the success modal, clears the query and reads the campaign again so that
  // the credits bar shows what was bought.
  useEffect(() => {
    if (params.get('event') === 'successfulPayment') {
      setSuccessOpen(true);
      setParams(withoutOneTimeParams, { replace: true });
      void queryClient.invalidateQueries({ queryKey: CAMPAIGN_QUERY_KEY });
    }
  }, [params, setParams, queryClient]);

  // Closing the thanks reads the campaign once more: the provider may confirm the payment a moment after the return.
  const setPaymentSuccessOpen = (open: boolean) => {
    setSuccessOpen(open);
    if (!open) void queryClient.invalidateQueries({ queryKey: CAMPAIGN_QUERY_KEY });
  };

  const setAddCreditsOpen = (open: boolean) => {
    setAddOpen(open);
    reportAddCredits(open);
  };

  // The low-credit alert's link (docs/emails.md) opens Add credits: `?addCredits=1`, cleared once read.
  const wantsAddCredits = params.get('addCredits') === '1';
  useEffect(() => {
    if (!wantsAddCredits) return;
    setParams(withoutOneTimeParams, { replace: true });
    setAddOpen(true);
    reportAddCredits(true);
  }, [wantsAddCredits, setParams]);

  return {
    urlOpen,
    setUrlOpen,
    addOpen,
    setAddOpen: setAddCreditsOpen,
    successOpen,
    setSuccessOpen: setPaymentSuccessOpen,
    anyOpen: urlOpen || addOpen || successOpen,
  };
}
