import { useEffect } from 'react';
import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  REALTIME_PERFORMANCE_POLL_MS,
  type TGetPerformanceHistoryResponse,
  type TGetRealtimePerformanceResponse,
} from '@helium/contracts';
import { apiPost } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useFormat } from '../format/useFormat.ts';
import { useCurrentUser } from '../user/userQuery.ts';
import { averagePerDay, utcDayNumber } from './performance.ts';
import { PerformanceDial } from './PerformanceDial.tsx';
import { PerformanceHistoryTable } from './PerformanceHistoryTable.tsx';

const INSTALLATION_PATH = '/publisher/installation';

/**
 * Publisher Performance (specification 02, section 2.7): live dials polled every 10 s while the screen is open,
 * today's and the 30-day average of validated impressions, and one row per day. Failed calls are only logged.
 */
export function PublisherPerformancePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const history = useQuery({
    queryKey: ['publisher', 'performance', 'history', user.accountId],
    queryFn: () => apiPost('/api/publisher/get-performance-history'),
  });
  const realtime = useQuery({
    queryKey: ['publisher', 'performance', 'realtime', user.accountId],
    queryFn: () => apiPost('/api/publisher/get-realtime-performance'),
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

/** The four live dials; the two impressions dials share the larger of their maxima. */
function Dials({ realtime }: { realtime: TGetRealtimePerformanceResponse }) {
  const { t } = useTranslation();
  const impressionsMax = Math.max(realtime.impressionsDesktopPerMinuteMax, realtime.impressionsMobilePerMinuteMax);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} data-testid="performance-dials">
      <PerformanceDial
        testId="dial-pageviews-desktop"
        label={t('performance.pageviewsDesktopPerMinute')}
        value={realtime.pageviewsDesktopPerMinute}
        max={realtime.pageviewsDesktopPerMinuteMax}
      />
      <PerformanceDial
        testId="dial-pageviews-mobile"
        label={t('performance.pageviewsMobilePerMinute')}
        value={realtime.pageviewsMobilePerMinute}
        max={realtime.pageviewsMobilePerMinuteMax}
      />
      <PerformanceDial
        testId="dial-impressions-desktop"
        label={t('performance.impressionsDesktopPerMinute')}
        value={realtime.impressionsDesktopPerMinute}
        max={impressionsMax}
      />
      <PerformanceDial
        testId="dial-impressions-mobile"
        label={t('performance.impressionsMobilePerMinute')}
        value={realtime.impressionsMobilePerMinute}
        max={impressionsMax}
      />
    </SimpleGrid>
  );
}

/** Today's validated impressions and, with rows of history, the average per day over the last 30 days. */
function ValidatedAdsPanel({
  history,
  readAt,
  realtime,
}: {
  history: TGetPerformanceHistoryResponse;
  /** When the history was read (its rows end the day before that day). */
  readAt: number;
  realtime: TGetRealtimePerformanceResponse | undefined;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const average = averagePerDay(history.publisherPerformanceHistory, utcDayNumber(readAt));
  return (
    <Paper withBorder p="md" data-testid="validated-ads">
      <Title order={2} size="h4" mb="sm">
        {t('performance.validatedAds')}
      </Title>
      <Group gap="xl">
        {realtime ? (
          <Stack gap={0} data-testid="validated-today">
            <Text size="xs" c="dimmed">
              {t('performance.today')}
            </Text>
            <Text size="xl" fw={700}>
              {f.number(realtime.publisherCurrentImpressionsToday)}
            </Text>
          </Stack>
        ) : null}
        {average === null ? null : (
          <Stack gap={0} data-testid="validated-average">
            <Text size="xs" c="dimmed">
              {t('performance.averagePerDay')}
            </Text>
            <Text size="xl" fw={700}>
              {f.number(average)}
            </Text>
          </Stack>
        )}
      </Group>
    </Paper>
  );
}

/** Without history: wait for data when installed, else install the script first. */
function NoPerformance({ isInstalled }: { isInstalled: boolean }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" maw={640} data-testid="performance-empty" data-installed={isInstalled}>
      <Title order={2} size="h4" mb="xs">
        {t('performance.noPerformance')}
      </Title>
      {isInstalled ? (
        <Text>{t('performance.awaitData')}</Text>
      ) : (
        <Stack gap="xs">
          <Text>{t('performance.installFirst')}</Text>
          <Anchor component={Link} to={INSTALLATION_PATH}>
            {t('performance.installLink')}
          </Anchor>
        </Stack>
      )}
    </Paper>
  );
}
