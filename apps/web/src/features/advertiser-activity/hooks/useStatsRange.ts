import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { updateStatsExCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { rangeToSend } from '../utils/logic.ts';
import { CAMPAIGN_QUERY_KEY } from './useCampaign.ts';

/**
 * Picking the statistics' date range: saved on the server (a failure is only logged), then the campaign read
 * again; `waiting` covers the screen meanwhile.
 */
export function useStatsRange(campaignId: number | undefined) {
  const queryClient = useQueryClient();
  const [waiting, setWaiting] = useState(false);

  const reloadWaiting = async () => {
    setWaiting(true);
    try {
      await queryClient.invalidateQueries({ queryKey: CAMPAIGN_QUERY_KEY });
    } finally {
      setWaiting(false);
    }
  };
  const pickRange = async (range: [string | null, string | null]) => {
    if (campaignId === undefined) return;
    setWaiting(true);
    try {
      await apiPost(updateStatsExCall, { campaignId, statsExDates: rangeToSend(range) });
    } catch (error) {
      console.error('update-stats-ex failed', error);
    }
    await reloadWaiting();
  };

  return { pickRange, waiting };
}
