import '@mantine/charts/styles.css';
import { Paper, Title } from '@mantine/core';
import { LineChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** Impressions, clicks and CTR by day; nothing before the first day with statistics. */
export function ActivityChart({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (campaign.stats.byDay.length === 0) return null;
  const data = campaign.stats.byDay.map((row) => ({
    day: format.date(`${row.day}T00:00:00Z`),
    [t('activity.metric.impressions')]: row.impressions,
    [t('activity.metric.clicks')]: row.clicks,
    [t('activity.metric.ctr')]: Math.round(row.ctr * 100) / 100,
  }));
  return (
    <Paper withBorder p="md" data-testid="activity-chart">
      <Title order={2} size="h4" mb="sm">
        {t('activity.chartTitle')}
      </Title>
      <LineChart
        h={240}
        data={data}
        dataKey="day"
        withRightYAxis
        withLegend
        valueFormatter={(value) => format.number(value, Number.isInteger(value) ? 0 : 2)}
        series={[
          { name: t('activity.metric.impressions'), color: 'indigo.6' },
          { name: t('activity.metric.clicks'), color: 'teal.6' },
          { name: t('activity.metric.ctr'), color: 'orange.6', yAxisId: 'right' },
        ]}
      />
    </Paper>
  );
}
