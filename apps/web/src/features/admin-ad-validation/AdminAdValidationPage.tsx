import { useState } from 'react';
import { Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { AdValidationCard, type PublisherAction } from './components/AdValidationCard.tsx';
import { getAdValidationsCall, requestPublishersToValidateAdCall, validateAdByAdminsCall } from '@helium/contracts';

const QUERY_KEY = ['admin', 'ad-validations'] as const;

/** Admin: Ad Validation (spec 01: sections 2, 4, 5, 7). */
export function AdminAdValidationPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [advertiserId, setAdvertiserId] = useState('0');
  const [busy, setBusy] = useState(false);
  const { data, isPending, dataUpdatedAt } = useQuery({
    queryKey: [...QUERY_KEY, advertiserId],
    queryFn: () => apiPost(getAdValidationsCall, { sortBy: 'alpha', advertiserId: Number(advertiserId) }),
  });

  /** Sends an action; only `status: ok` reloads the list, anything else changes nothing (and is logged). */
  async function act(call: () => Promise<{ status: string }>) {
    setBusy(true);
    try {
      const answer = await call();
      if (answer.status === 'ok') await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    } catch (error) {
      console.error('ad validation action failed', error);
    } finally {
      setBusy(false);
    }
  }

  const options = [
    { value: '0', label: t('adminAdValidation.allMostRecent') },
    ...(data?.advertisers ?? []).map((a) => ({ value: String(a.id), label: a.brand })),
  ];

  return (
    <>
      <PageHeader title={t('nav.adValidation')} />
      <Select
        label={t('adminAdValidation.advertiser')}
        data={options}
        value={advertiserId}
        onChange={(value) => setAdvertiserId(value ?? '0')}
        allowDeselect={false}
        searchable
        maw={360}
        mb="md"
      />
      {isPending ? (
        <DelayedLoader aria-label={t('common.loading')} />
      ) : (
        <Stack gap="md">
          {(data?.ads ?? []).length === 0 ? <Text c="dimmed">{t('adminAdValidation.empty')}</Text> : null}
          {(data?.ads ?? []).map((ad) => (
            <AdValidationCard
              key={`${ad.id}-${dataUpdatedAt}`}
              ad={ad}
              busy={busy}
              onDecide={(isAccepted) => void act(() => apiPost(validateAdByAdminsCall, { adId: ad.id, isAccepted }))}
              onPublishers={(publisherIds: number[], acceptance: PublisherAction) =>
                void act(() =>
                  apiPost(requestPublishersToValidateAdCall, {
                    adId: ad.id,
                    publisherIds,
                    acceptance,
                  }),
                )
              }
            />
          ))}
        </Stack>
      )}
    </>
  );
}
