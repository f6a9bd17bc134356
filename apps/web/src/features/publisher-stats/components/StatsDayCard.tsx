import { Group, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { tablesOf } from '../utils/statsDays.ts';
import { OwlAdsTable } from './OwlAdsTable.tsx';
import { WebAdsTable } from './WebAdsTable.tsx';

export interface StatsDayCardProps {
  day: TStatsDay;
  /** Whether its ads are shown; folded, the day shows its totals only. */
  expanded: boolean;
  onToggle: (day: string) => void;
}

/**
 * One day: its total impressions and revenue, and a disclosure (the day's title is its button) that shows its
 * newsletter ads and its web ads. Folded, the tables are not rendered at all (their videos would play unseen).
 */
export function StatsDayCard({ day, expanded, onToggle }: StatsDayCardProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const tables = tablesOf(day);
  const titleId = `stats-day-${day.day}`;
  const panelId = `stats-day-ads-${day.day}`;
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-labelledby={titleId}
      data-testid="stats-day"
      data-day={day.day}
      data-expanded={expanded}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2} size="h4">
            <UnstyledButton
              id={titleId}
              onClick={() => onToggle(day.day)}
              aria-expanded={expanded}
              aria-controls={panelId}
              style={{ display: 'inline-flex', alignItems: 'center', gap: 8, font: 'inherit', borderRadius: 4 }}
            >
              <svg
                width="14"
                height="14"
                viewBox="0 0 16 16"
                aria-hidden="true"
                focusable="false"
                style={{ transform: expanded ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}
              >
                <path d="M6 4l4 4-4 4" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" />
              </svg>
              {day.dayStr}
            </UnstyledButton>
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
        <div id={panelId} hidden={!expanded}>
          {expanded ? (
            <Stack gap="sm">
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
          ) : null}
        </div>
      </Stack>
    </Paper>
  );
}
