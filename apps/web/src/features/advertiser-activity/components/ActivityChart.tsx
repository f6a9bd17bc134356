import { Group, Paper, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { labelledIndexes, niceMax, ticks } from '../utils/chartScale.ts';
import { PERCENT_DECIMALS } from '../utils/metricKeys.ts';

/** The drawing's own units; the SVG scales to the width of its box. */
const WIDTH = 800;
const HEIGHT = 240;
const PAD = { top: 12, right: 56, bottom: 28, left: 64 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

const SERIES = [
  { key: 'impressions', colour: 'var(--mantine-color-indigo-6)', axis: 'left' },
  { key: 'clicks', colour: 'var(--mantine-color-teal-6)', axis: 'left' },
  { key: 'ctr', colour: 'var(--mantine-color-orange-6)', axis: 'right' },
] as const;

/**
 * Impressions, clicks (left axis) and CTR (right axis, percent) by day; nothing before the first day with
 * statistics. Drawn as plain SVG: a charting library (recharts, with @mantine/charts) was the largest part
 * of the Activity screen's download for three lines (docs/performance.md, "First screens").
 */
export function ActivityChart({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const format = useFormat();
  const titleId = useId();
  const rows = campaign.stats.byDay;
  if (rows.length === 0) return null;
  const leftMax = niceMax(Math.max(...rows.map((row) => Math.max(row.impressions, row.clicks))));
  const rightMax = niceMax(Math.max(...rows.map((row) => row.ctr)));
  const x = (index: number) => PAD.left + (rows.length === 1 ? PLOT_W / 2 : (index * PLOT_W) / (rows.length - 1));
  const y = (value: number, max: number) => PAD.top + PLOT_H - (value / max) * PLOT_H;
  const days = rows.map((row) => format.date(`${row.day}T00:00:00Z`));
  const valueText = (key: (typeof SERIES)[number]['key'], value: number) =>
    key === 'ctr' ? format.percent(value, PERCENT_DECIMALS) : format.number(value);
  return (
    <Paper withBorder p="md" data-testid="activity-chart">
      <Title order={2} size="h4" mb="sm" id={titleId}>
        {t('activity.chartTitle')}
      </Title>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-labelledby={titleId}>
        {ticks(leftMax).map((tick, index) => (
          <g key={tick} fontSize={11} fill="var(--mantine-color-dimmed)">
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(tick, leftMax)}
              y2={y(tick, leftMax)}
              stroke="var(--mantine-color-default-border)"
              strokeDasharray={tick === 0 ? undefined : '4 4'}
            />
            <text x={PAD.left - 8} y={y(tick, leftMax) + 4} textAnchor="end">
              {format.number(tick)}
            </text>
            <text x={WIDTH - PAD.right + 8} y={y(tick, leftMax) + 4}>
              {format.percent(ticks(rightMax)[index], rightMax < 4 ? 2 : 1)}
            </text>
          </g>
        ))}
        {labelledIndexes(rows.length).map((index) => (
          <text
            key={index}
            x={x(index)}
            y={HEIGHT - 8}
            fontSize={11}
            textAnchor="middle"
            fill="var(--mantine-color-dimmed)"
          >
            {days[index]}
          </text>
        ))}
        {SERIES.map(({ key, colour, axis }) => {
          const max = axis === 'left' ? leftMax : rightMax;
          return (
            <g key={key} data-series={key}>
              <polyline
                fill="none"
                stroke={colour}
                strokeWidth={2}
                points={rows.map((row, index) => `${x(index)},${y(row[key], max)}`).join(' ')}
              />
              {rows.map((row, index) => (
                <circle key={row.day} cx={x(index)} cy={y(row[key], max)} r={3} fill={colour}>
                  <title>{`${t('common.labelValue', { label: days[index] })} ${t(`activity.metric.${key}`)} ${valueText(key, row[key])}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <Group gap="md" justify="center" mt="xs">
        {SERIES.map(({ key, colour }) => (
          <Group key={key} gap={6}>
            <span aria-hidden style={{ width: 12, height: 3, background: colour, display: 'inline-block' }} />
            <Text size="sm">{t(`activity.metric.${key}`)}</Text>
          </Group>
        ))}
      </Group>
    </Paper>
  );
}
