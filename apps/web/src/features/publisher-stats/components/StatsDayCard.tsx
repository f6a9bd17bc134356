import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { tablesOf } from '../utils/statsDays.ts';
import { OwlAdsTable } from './OwlAdsTable.tsx';
import { WebAdsTable } from './WebAdsTable.tsx';

/** One day: its total impressions and revenue, then its newsletter ads and its web ads. */
export function StatsDayCard({ day }: { day: TStatsDay }) {
  const { t } = useTranslation();
  const format = useFormat();
  const tables = tablesOf(day);
  const titleId = `stats-day-${day.day}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} data-testid="stats-day" data-day={day.day}>
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={2} size="h4" id={titleId}>
            {day.dayStr}
          </Title>
          <Group gap="lg">
            <Text size="sm">
              {t('publisherStats.impressions')}{' '}
              <Text span fw={700} data-testid="day-impressions">
                {format.number(day.totalImpressions)}
              </Text>
            </Text>
            <Text size="sm">
              {t('publisherStats.revenue')}{' '}
              <Text span fw={700} data-testid="day-revenue" style={{ whiteSpace: 'nowrap' }}>
                {format.money(day.totalRevenue)}
              </Text>
            </Text>
          </Group>
        </Group>
        {tables.owl ? (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {t('publisherStats.newsletterAds')}
            </Text>
            <OwlAdsTable ads={day.owlAds} label={t('publisherStats.newsletterAdsOf', { day: day.dayStr })} />
          </Stack>
        ) : null}
        {tables.web ? (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {t('publisherStats.webAds')}
            </Text>
            <WebAdsTable ads={day.webAds} label={t('publisherStats.webAdsOf', { day: day.dayStr })} />
          </Stack>
        ) : null}
        {!tables.owl && !tables.web ? (
          <Text size="sm" c="dimmed">
            {t('publisherStats.noAdsThatDay')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
