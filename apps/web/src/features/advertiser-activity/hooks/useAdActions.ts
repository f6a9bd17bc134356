import { type TCampaignAd, updateCampaignAdActivationCall, updateCampaignAdBudgetCall } from '@helium/contracts';
import { useCampaignAction } from './useCampaignAction.ts';

/**
 * Switching an ad on or off (for every publisher, or for one in by-publisher mode) and capping its budget.
 * The calls need the campaign, so they do nothing before it is loaded (nothing can call them then).
 */
export function useAdActions(campaignId: number | undefined) {
  const activation = useCampaignAction(updateCampaignAdActivationCall);
  const budget = useCampaignAction(updateCampaignAdBudgetCall);

  const activate = (ad: TCampaignAd, publisherId: number | null, active: boolean) => {
    if (campaignId === undefined) return;
    activation.mutate({
      campaignId,
      ad: { id: ad.id },
      adId: ad.id,
      publisherId,
      isAdActive: publisherId === null ? active : ad.isShowing,
      isAdPublisherActive: publisherId === null ? undefined : active,
    });
  };
  const setBudget = (ad: TCampaignAd, value: number) => {
    if (campaignId === undefined) return;
    budget.mutate({ campaignId, ad: { id: ad.id, budget: value } });
  };

  return { activate, setBudget, activationPending: activation.isPending };
}
