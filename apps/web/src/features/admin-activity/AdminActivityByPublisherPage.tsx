import { useState } from 'react';
import { Checkbox, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import { CampaignCards } from './components/CampaignCards.tsx';
import { Loading } from './components/Loading.tsx';
import { PublisherSections } from './components/PublisherSections.tsx';
import { useActivity, type SortBy } from './hooks/useActivity.ts';

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
