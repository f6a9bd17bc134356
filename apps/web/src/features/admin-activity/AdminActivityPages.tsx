import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../../api/client.ts';
import { useSpinnerDelay } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { CampaignCards } from './CampaignCards.tsx';
import { PublisherSections } from './PublisherSections.tsx';

type SortBy = 'advertiser' | 'publisher';

function useActivity(sortBy: SortBy, showCompleteCampaignsOrInactiveAds: boolean) {
  return useQuery({
    queryKey: ['admin', 'activity', sortBy, showCompleteCampaignsOrInactiveAds],
    queryFn: () => apiPost('/api/admin/get-activity', { sortBy, showCompleteCampaignsOrInactiveAds }),
    // A failure is only logged; the loading indicator stays (specification 01, section 8).
    retry: false,
    refetchInterval: 5000,
  });
}

/** Shown once loading has lasted 1 s (specification 02, section 9), so a quick answer shows nothing. */
function Loading() {
  const { t } = useTranslation();
  const shown = useSpinnerDelay();
  if (!shown) return null;
  return (
    <Group>
      <Loader size="sm" aria-label={t('common.loading')} />
      <Text>{t('common.loading')}</Text>
    </Group>
  );
}

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

/** Admin: Activity by Publisher: the sort switch, the complete/inactive toggle and the engine's state. */
export function AdminActivityByPublisherPage() {
  const { t } = useTranslation();
  const [sortBy, setSortBy] = useState<SortBy>('publisher');
  const [includeAll, setIncludeAll] = useState(false);
  const query = useActivity(sortBy, includeAll);
  if (query.isError) console.error('get-activity failed', query.error);
  const data = query.data;
  return (
    <Stack>
      <PageHeader title={t('nav.activityByPublisher')} />
      <Group>
        <SegmentedControl
          aria-label={t('adminActivity.sortBy')}
          value={sortBy}
          onChange={(value) => {
            setSortBy(value as SortBy);
            // The toggle is reset when the sort changes.
            setIncludeAll(false);
          }}
          data={[
            { value: 'advertiser', label: t('adminActivity.sortAdvertiser') },
            { value: 'publisher', label: t('adminActivity.sortPublisher') },
          ]}
        />
        <Checkbox
          label={t('adminActivity.includeComplete')}
          checked={includeAll}
          onChange={(event) => setIncludeAll(event.currentTarget.checked)}
        />
      </Group>
      {!data || query.isPlaceholderData ? (
        <Loading />
      ) : data.publishers.length > 0 ? (
        <PublisherSections publishers={data.publishers} />
      ) : data.campaigns.length > 0 ? (
        <CampaignCards campaigns={data.campaigns} />
      ) : (
        <Text c="dimmed">
          {sortBy === 'publisher' ? t('adminActivity.noPublishers') : t('adminActivity.noCampaigns')}
        </Text>
      )}
    </Stack>
  );
}
