import { Alert, Anchor, LoadingOverlay, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH_BY_TYPE, USER_TYPE } from '@helium/domain';
import { isApiError } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { ActivityChart } from './components/ActivityChart.tsx';
import { ActivityToolbar } from './components/ActivityToolbar.tsx';
import { AdTable } from './components/AdTable.tsx';
import { CampaignTargeting } from './components/CampaignTargeting.tsx';
import { AddCreditsModal } from './components/AddCreditsModal.tsx';
import { CampaignPicker, useCampaignName } from './components/CampaignPicker.tsx';
import { EjectedAdsDrawer } from './components/EjectedAdsDrawer.tsx';
import { PaymentSuccessModal } from './components/PaymentSuccessModal.tsx';
import { TotalsTable } from './components/TotalsTable.tsx';
import { UrlModal } from './components/UrlModal.tsx';
import { useActivityModals } from './hooks/useActivityModals.ts';
import { useActivityRefresh } from './hooks/useActivityRefresh.ts';
import { useAdActions } from './hooks/useAdActions.ts';
import { useAdEjection } from './hooks/useAdEjection.ts';
import { useCampaign } from './hooks/useCampaign.ts';
import { useCampaignPacing } from './hooks/useCampaignPacing.ts';
import { useStatsRange } from './hooks/useStatsRange.ts';

/** Advertiser Activity (specification 02): the campaign's figures, its ads and what the advertiser can change. */
export function AdvertiserActivityPage() {
  const { t } = useTranslation();
  const { query, campaign, campaignId, byPublisher, setByPublisher } = useCampaign();
  const nameOf = useCampaignName();
  const modals = useActivityModals();
  const ads = useAdActions(campaign?.id);
  const ejection = useAdEjection(campaign?.id);
  const pacing = useCampaignPacing(campaign?.id);
  const range = useStatsRange(campaign?.id);
  const refresh = useActivityRefresh({
    // A campaign read again carries the shares the server recomputed.
    refetch: () => query.refetch().then(pacing.markSharesFresh),
    modalOpen: modals.anyOpen,
    activationPending: ads.activationPending,
    hasDateRange: (campaign?.statsDateRange.length ?? 0) > 0,
  });

  // A link naming a campaign of another account, or none (unknown, malformed): said, with the way to this account's own.
  const refusedCampaign = [403, 404, 422].some((status) => isApiError(query.error, status));
  if (query.isError && campaignId !== undefined && refusedCampaign) {
    return (
      <>
        <PageHeader title={t('nav.activity')} />
        <Alert color="yellow" role="alert">
          <Text>{t('activity.campaignNotYours')}</Text>
          <Anchor component={Link} to={HOME_PATH_BY_TYPE[USER_TYPE.advertiser]}>
            {t('activity.showNewestCampaign')}
          </Anchor>
        </Alert>
      </>
    );
  }
  if (query.isError && isApiError(query.error, 404)) {
    return (
      <>
        <PageHeader title={t('nav.activity')} />
        <Text>{t('activity.noCampaign')}</Text>
      </>
    );
  }
  if (!campaign) {
    return (
      <>
        <PageHeader title={t('nav.activity')} />
        <DelayedLoader aria-label={t('common.loading')} />
      </>
    );
  }

  return (
    <Stack pos="relative">
      <LoadingOverlay visible={range.waiting || (query.isFetching && query.isPlaceholderData)} />
      <PageHeader title={t('nav.activity')} />
      <CampaignPicker campaign={campaign} />
      {campaign.trialStr ? (
        <Alert color="yellow" data-testid="trial-banner">
          {campaign.trialStr}
        </Alert>
      ) : null}

      <ActivityToolbar
        campaign={campaign}
        byPublisher={byPublisher}
        onByPublisherChange={setByPublisher}
        onPickRange={range.pickRange}
        onDatePickerOpenChange={refresh.setDatePickerOpen}
        onAutoFlowMenuOpenChange={refresh.setMenuOpen}
        onAutoPilotChange={pacing.setAutoPilot}
        onAutoFlowChange={pacing.setAutoFlow}
        onOpenByUrl={() => modals.setUrlOpen(true)}
        onOpenAddCredits={() => modals.setAddOpen(true)}
      />
      <CampaignTargeting campaign={campaign} />
      <TotalsTable campaign={campaign} />
      <EjectedAdsDrawer
        campaign={campaign}
        opened={ejection.drawerOpen}
        onToggle={ejection.toggleDrawer}
        onInject={ejection.inject}
      />
      <AdTable
        campaign={campaign}
        byPublisher={byPublisher}
        sharesStale={pacing.sharesStale}
        onActivate={ads.activate}
        onEject={ejection.eject}
        onBudget={ads.setBudget}
      />
      <ActivityChart campaign={campaign} />

      <UrlModal opened={modals.urlOpen} onClose={() => modals.setUrlOpen(false)} />
      <AddCreditsModal
        opened={modals.addOpen}
        onClose={() => modals.setAddOpen(false)}
        campaignExId={campaign.id}
        // With several campaigns, the one being paid for is named.
        title={
          campaign.campaigns.length > 1
            ? t('activity.addCreditsTo', { campaign: nameOf(campaign) })
            : t('activity.addCredits')
        }
      />
      <PaymentSuccessModal opened={modals.successOpen} onClose={() => modals.setSuccessOpen(false)} />
    </Stack>
  );
}
