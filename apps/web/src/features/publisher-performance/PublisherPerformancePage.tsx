import { useEffect } from 'react';
import { Paper, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REALTIME_PERFORMANCE_POLL_MS } from '@helium/contracts';
import { apiPost } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useCurrentUser } from '../user/hooks/useCurrentUser.ts';
import { Dials } from './components/Dials.tsx';
import { NoPerformance } from './components/NoPerformance.tsx';
import { PerformanceHistoryTable } from './components/PerformanceHistoryTable.tsx';
import { ValidatedAdsPanel } from './components/ValidatedAdsPanel.tsx';
import { getPerformanceHistoryCall, getRealtimePerformanceCall } from '@helium/contracts';

/**
 * Publisher Performance (specification 02, section 2.7): live dials polled every 10 s while the screen is open,
 * today's and the 30-day average of validated impressions, and one row per day. Failed calls are only logged.
 */
export function PublisherPerformancePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const history = useQuery({
    queryKey: ['publisher', 'performance', 'history', user.accountId],
    queryFn: () => apiPost(getPerformanceHistoryCall),
  });
  const realtime = useQuery({
    queryKey: ['publisher', 'performance', 'realtime', user.accountId],
    queryFn: () => apiPost(getRealtimePerformanceCall),
    refetchInterval: REALTIME_PERFORMANCE_POLL_MS,
  });
  useEffect(() => {
    if (history.error) console.error('get-performance-history failed', history.error);
  }, [history.error]);
  useEffect(() => {
    if (realtime.error) console.error('get-realtime-performance failed', realtime.error);
  }, [realtime.error]);

  const loading = history.isPending || realtime.isPending;
  return (
    <>
      <PageHeader title={t('nav.performance')} />
      {loading ? <DelayedLoader aria-label={t('common.loading')} /> : null}
      {!loading && history.data ? (
        history.data.isAnyPerformanceHistory ? (
          <Stack gap="lg">
            {realtime.data ? <Dials realtime={realtime.data} /> : null}
            <ValidatedAdsPanel history={history.data} readAt={history.dataUpdatedAt} realtime={realtime.data} />
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                {t('performance.historyTitle')}
              </Title>
              <PerformanceHistoryTable
                rows={history.data.publisherPerformanceHistory}
                max={history.data.publisherDailyPageviewsMax}
              />
            </Paper>
          </Stack>
        ) : (
          <NoPerformance isInstalled={history.data.publisherIsInstalled} />
        )
      ) : null}
    </>
  );
}
