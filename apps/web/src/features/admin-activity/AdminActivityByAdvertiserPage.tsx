import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import { CampaignCards } from './components/CampaignCards.tsx';
import { Loading } from './components/Loading.tsx';
import { useActivity } from './hooks/useActivity.ts';

/** Admin: Activity by Advertiser: the campaigns with their credits and pace. */
export function AdminActivityByAdvertiserPage() {
  const { t } = useTranslation();
  const query = useActivity('advertiser', false);
  if (query.isError) console.error('get-activity failed', query.error);
  return (
    <Stack>
      <PageHeader title={t('nav.activityByAdvertiser')} />
      {query.data ? <CampaignCards campaigns={query.data.campaigns} /> : <Loading />}
    </Stack>
  );
}
