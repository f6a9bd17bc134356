import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TCampaignAd, updateCampaignAdEjectionCall } from '@helium/contracts';
import { useCampaignAction } from './useCampaignAction.ts';

/**
 * Ejecting an ad from the campaign and putting it back, each once confirmed, and the drawer of ejected ads:
 * it opens on an ejection and closes on a return, so the advertiser sees where the ad went.
 */
export function useAdEjection(campaignId: number | undefined) {
  const { t } = useTranslation();
  const ejection = useCampaignAction(updateCampaignAdEjectionCall);
  const [drawerOpen, setDrawerOpen] = useState(false);

  const eject = (ad: TCampaignAd) => {
    if (campaignId === undefined || !window.confirm(t('activity.confirmEject'))) return;
    ejection.mutate({ campaignId, adId: ad.id, doEject: true }, { onSuccess: () => setDrawerOpen(true) });
  };
  const inject = (ad: TCampaignAd) => {
    if (campaignId === undefined || !window.confirm(t('activity.confirmInject'))) return;
    ejection.mutate({ campaignId, adId: ad.id, doEject: false }, { onSuccess: () => setDrawerOpen(false) });
  };

  return { eject, inject, drawerOpen, toggleDrawer: () => setDrawerOpen((open) => !open) };
}
