import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TGetPerformanceHistoryResponse, TGetRealtimePerformanceResponse } from '@helium/contracts';
import { utcDayNumber } from '@helium/domain';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { averagePerDay } from '../utils/performance.ts';

/** Today's validated impressions and, with rows of history, the average per day over the last 30 days. */
export function ValidatedAdsPanel({
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
