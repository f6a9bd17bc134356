import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { updateCampaignAutoPilotCall, updateCampaignPauseCall } from '@helium/contracts';
import { CAMPAIGN_QUERY_KEY } from './useCampaign.ts';
import { useCampaignAction } from './useCampaignAction.ts';

/**
 * How the campaign is paced: AutoPilot on or off, and the AutoFlow daily cap. The ads' shares are stale from an
 * AutoPilot change until the campaign is read again, and show a spinner meanwhile.
 */
export function useCampaignPacing(campaignId: number | undefined) {
  const queryClient = useQueryClient();
  const autopilot = useCampaignAction(updateCampaignAutoPilotCall);
  const pause = useCampaignAction(updateCampaignPauseCall);
  const [sharesStale, setSharesStale] = useState(false);

  const setAutoPilot = (isAutoPilot: boolean) => {
    if (campaignId === undefined) return;
    setSharesStale(true);
    autopilot.mutate(
      { campaignId, isAutoPilot },
      {
        onSettled: async () => {
          await queryClient.refetchQueries({ queryKey: CAMPAIGN_QUERY_KEY });
          setSharesStale(false);
        },
      },
    );
  };
  const setAutoFlow = (pauseDailyImpressions: number) => {
    if (campaignId === undefined) return;
    pause.mutate({ campaignId, pauseDailyImpressions });
  };

  return { setAutoPilot, setAutoFlow, sharesStale, markSharesFresh: () => setSharesStale(false) };
}
