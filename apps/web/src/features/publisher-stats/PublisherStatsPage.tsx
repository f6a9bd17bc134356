import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../app/QueryContent.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useFormat } from '../format/hooks/useFormat.ts';
import { StatsDays } from './components/StatsDays.tsx';
import { usePublisherStats } from './hooks/usePublisherStats.ts';

/**
 * Publisher Stats (specification 02, section 2.6): total revenues, then per day, newest first, each ad's figures,
 * in pages of days folded to their totals (docs/decisions.md, "Publisher Stats in pages").
 */
export function PublisherStatsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { query, stats } = usePublisherStats();
  return (
    <>
      <PageHeader title={t('nav.stats')} />
      <QueryContent data={stats} isError={query.isError}>
        {(stats) => (
          <Stack gap="md" maw={1100}>
            <Paper withBorder p="md">
              <Text size="sm" c="dimmed">
                {t('publisherStats.totalRevenues')}
              </Text>
              <Text fz="xl" fw={700} data-testid="stats-total-revenues">
                {format.money(stats.totalRevenues)}
              </Text>
            </Paper>
            {stats.isAnySummaries && stats.newSummaryDays.length > 0 ? (
              <StatsDays days={stats.newSummaryDays} />
            ) : (
              <Paper withBorder p="lg" data-testid="stats-empty">
                <Title order={2} size="h4" mb="xs">
                  {t('publisherStats.noStats')}
                </Title>
                <Text>{t('publisherStats.noStatsHint')}</Text>
              </Paper>
            )}
          </Stack>
        )}
      </QueryContent>
    </>
  );
}
