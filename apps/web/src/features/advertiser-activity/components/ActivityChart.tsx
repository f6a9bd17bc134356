import { Box, Group, Paper, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { labelCount, labelledIndexes, niceAxis, textWidth, type Axis } from '../utils/chartScale.ts';
import { PERCENT_DECIMALS } from '../utils/metricKeys.ts';

/** Axis labels, in px as drawn: the SVG is as wide as its box, never scaled down (issue 36: 3 px labels on a phone). */
const FONT = 12;
const GAP = 8;
const TOP = 10;
/** Impressions and clicks, then CTR under them, on the same days. */
const COUNTS_H = 160;
const CTR_TOP = TOP + COUNTS_H + 30;
const CTR_H = 64;
const HEIGHT = CTR_TOP + CTR_H + FONT + 14;

const SERIES = [
  { key: 'impressions', colour: 'var(--mantine-color-indigo-6)' },
  { key: 'clicks', colour: 'var(--mantine-color-teal-6)' },
  { key: 'ctr', colour: 'var(--mantine-color-orange-6)' },
] as const;
type SeriesKey = (typeof SERIES)[number]['key'];
const COLOUR = Object.fromEntries(SERIES.map(({ key, colour }) => [key, colour])) as Record<SeriesKey, string>;

/**
 * Impressions (left axis) and clicks (right axis, so that a few clicks are not a flat line under hundreds of
 * impressions) by day, and the CTR in percent in a band below; nothing before the first day with statistics. Drawn
 * as plain SVG: a charting library (recharts, with @mantine/charts) was the largest part of the Activity screen's
 * download for three lines (docs/performance.md, "First screens"). Drawn at the width of its box in px, with as many
 * day labels as fit.
 */
export function ActivityChart({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const titleId = useId();
  const { ref, width } = useElementSize();
  if (campaign.stats.byDay.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="activity-chart">
      <Title order={2} size="h4" mb="sm" id={titleId}>
        {t('activity.chartTitle')}
      </Title>
      <Box ref={ref} h={HEIGHT}>
        {width > 0 ? <ChartDrawing campaign={campaign} width={width} titleId={titleId} /> : null}
      </Box>
      <Group gap="md" justify="center" mt="xs">
        {SERIES.map(({ key, colour }) => (
          <Group key={key} gap={6} wrap="nowrap">
            <span aria-hidden style={{ width: 12, height: 3, background: colour, display: 'inline-block' }} />
            <Text size="sm">
              {key === 'ctr'
                ? t('activity.metric.ctr')
                : t(key === 'impressions' ? 'activity.chartLeftAxis' : 'activity.chartRightAxis', {
                    metric: t(`activity.metric.${key}`),
                  })}
            </Text>
          </Group>
        ))}
      </Group>
    </Paper>
  );
}

function ChartDrawing({ campaign, width, titleId }: { campaign: TCampaignEx; width: number; titleId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const rows = campaign.stats.byDay;
  const axes: Record<SeriesKey, Axis> = {
    impressions: niceAxis(Math.max(...rows.map((row) => row.impressions)), 4, { whole: true }),
    clicks: niceAxis(Math.max(...rows.map((row) => row.clicks)), 4, { whole: true }),
    ctr: niceAxis(Math.max(...rows.map((row) => row.ctr)), 2),
  };
  const tickText = (key: SeriesKey, value: number) =>
    key === 'ctr' ? format.percent(value, axes.ctr.decimals) : format.number(value);
  const widest = (key: SeriesKey) =>
    Math.max(...axes[key].ticks.map((tick) => textWidth(tickText(key, tick).length, FONT)));
  const days = rows.map((row) => format.date(`${row.day}T00:00:00Z`));
  const dayWidth = Math.max(...days.map((day) => textWidth(day.length, FONT)));
  // Room for the axes' labels, and for half a day label at each end.
  const left = Math.max(widest('impressions'), widest('ctr')) + GAP;
  const right = Math.max(widest('clicks') + GAP, dayWidth / 2 + 2);
  const plotWidth = Math.max(1, width - Math.max(left, dayWidth / 2 + 2) - right);
  const x0 = width - right - plotWidth;
  const x = (index: number) => x0 + (rows.length === 1 ? plotWidth / 2 : (index * plotWidth) / (rows.length - 1));
  const band = (key: SeriesKey) => (key === 'ctr' ? { top: CTR_TOP, height: CTR_H } : { top: TOP, height: COUNTS_H });
  const y = (key: SeriesKey, value: number) => {
    const { top, height } = band(key);
    return top + height - (value / axes[key].max) * height;
  };
  const valueText = (key: SeriesKey, value: number) =>
    key === 'ctr' ? format.percent(value, PERCENT_DECIMALS) : format.number(value);

  const yAxis = (key: SeriesKey, side: 'left' | 'right') => (
    <g data-axis={key} fontSize={FONT} fill={COLOUR[key]} textAnchor={side === 'left' ? 'end' : 'start'}>
      {axes[key].ticks.map((tick) => (
        <text key={tick} x={side === 'left' ? x0 - GAP : x0 + plotWidth + GAP} y={y(key, tick) + FONT / 3}>
          {tickText(key, tick)}
        </text>
      ))}
    </g>
  );
  const grid = (key: SeriesKey) =>
    axes[key].ticks.map((tick) => (
      <line
        key={`${key}${tick}`}
        x1={x0}
        x2={x0 + plotWidth}
        y1={y(key, tick)}
        y2={y(key, tick)}
        stroke="var(--mantine-color-default-border)"
        strokeDasharray={tick === 0 ? undefined : '4 4'}
      />
    ));

  return (
    <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-labelledby={titleId}>
      {grid('impressions')}
      {grid('ctr')}
      {yAxis('impressions', 'left')}
      {yAxis('clicks', 'right')}
      {yAxis('ctr', 'left')}
      <text x={x0} y={CTR_TOP - 10} fontSize={FONT} fontWeight={600} fill={COLOUR.ctr}>
        {t('activity.metric.ctr')}
      </text>
      <g data-axis="days" fontSize={FONT} textAnchor="middle" fill="var(--mantine-color-dimmed)">
        {labelledIndexes(rows.length, labelCount(plotWidth, dayWidth, rows.length)).map((index) => (
          <text key={index} x={x(index)} y={HEIGHT - 6}>
            {days[index]}
          </text>
        ))}
      </g>
      {SERIES.map(({ key, colour }) => (
        <g key={key} data-series={key}>
          <polyline
            fill="none"
            stroke={colour}
            strokeWidth={2}
            points={rows.map((row, index) => `${x(index)},${y(key, row[key])}`).join(' ')}
          />
          {rows.map((row, index) => (
            <circle key={row.day} cx={x(index)} cy={y(key, row[key])} r={3} fill={colour}>
              <title>{`${t('common.labelValue', { label: days[index] })} ${t(`activity.metric.${key}`)} ${valueText(key, row[key])}`}</title>
            </circle>
          ))}
        </g>
      ))}
    </svg>
  );
}
