import { Alert, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { apiErrorMessage } from '../../api/client.ts';
import { PageHeader } from '../../app/PageHeader.tsx';
import { QueryContent } from '../../app/QueryContent.tsx';
import { PlacementsEditor } from './components/PlacementsEditor.tsx';
import { PublisherPicker } from './components/PublisherPicker.tsx';
import { SitePreview } from './components/SitePreview.tsx';
import { usePlacementPublishers } from './hooks/usePlacementPublishers.ts';
import { usePlacements } from './hooks/usePlacements.ts';

/** `?publisherId=` as a publisher id, or null. */
function publisherIdOf(params: URLSearchParams): number | null {
  const id = Number(params.get('publisherId'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Admin: where the script puts ads on a web publisher's pages (docs/targeting.md "Placements"). Reached from the
 * menu, or with `?publisherId=<id>` from a publisher's account.
 */
export function AdminPlacementsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const publisherId = publisherIdOf(params);
  const publishers = usePlacementPublishers();
  const { query, save } = usePlacements(publisherId);
  return (
    <>
      <PageHeader title={t('nav.placements')} />
      <Stack gap="lg">
        <Text>{t('placements.intro')}</Text>
        <QueryContent data={publishers.data} isError={publishers.isError}>
          {(list) => (
            <PublisherPicker
              publishers={list}
              value={publisherId}
              onChange={(id) => setParams(id === null ? {} : { publisherId: String(id) })}
            />
          )}
        </QueryContent>
        {publisherId === null ? null : query.isError ? (
          <Alert color="red" role="alert">
            {apiErrorMessage(query.error) ?? t('common.error')}
          </Alert>
        ) : (
          <QueryContent data={query.data} isError={false}>
            {(data) => (
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
                {/* Another publisher starts the editor again from what is stored. */}
                <PlacementsEditor key={`${data.publisher.id}`} data={data} onSave={save} />
                <SitePreview domain={data.publisher.domain} />
              </SimpleGrid>
            )}
          </QueryContent>
        )}
      </Stack>
    </>
  );
}
