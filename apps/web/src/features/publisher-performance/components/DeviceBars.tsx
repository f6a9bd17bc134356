import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { barWidthPct, isValidatedShareLow, missingSharePct, validatedSharePct } from '../utils/performance.ts';
import { HistoryBar } from './HistoryBar.tsx';

/** One device of one day: a pageviews bar and a views bar, with counts and the validated share of pageviews. */
export function DeviceBars({
  pageviews,
  impressions,
  max,
  device,
}: {
  pageviews: number;
  impressions: number;
  max: number;
  device: 'desktop' | 'mobile';
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const validated = validatedSharePct(pageviews, impressions);
  const missing = missingSharePct(pageviews, impressions);
  const low = isValidatedShareLow(pageviews, impressions);
  const impressionsPct = barWidthPct(impressions, max);
  const missingPct = Math.max(0, barWidthPct(pageviews, max) - impressionsPct);
  return (
    <Stack gap={4} data-testid={`day-${device}`}>
      <Group gap="xs" wrap="nowrap">
        <HistoryBar segments={[{ pct: barWidthPct(pageviews, max), color: 'gray.5' }]} testId="pageviews-bar" />
        <Text size="xs" w={150} data-testid="pageviews">
          {t('performance.pageviews', { value: f.number(pageviews) })}
        </Text>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <HistoryBar
          segments={[
            { pct: impressionsPct, color: 'teal.6' },
            { pct: missingPct, color: low ? 'red.3' : 'gray.2' },
          ]}
          testId="views-bar"
        />
        <Text size="xs" w={150} data-testid="views">
          {t('performance.views', { value: f.number(impressions) })}
          {validated === null ? null : ` · ${f.percent(validated)}`}
        </Text>
      </Group>
      {missing === null ? null : (
        <Text size="xs" c={low ? 'red.7' : 'dimmed'} fw={low ? 600 : undefined} data-testid="missing" data-low={low}>
          {t('performance.missing', { pct: f.percent(missing) })}
        </Text>
      )}
    </Stack>
  );
}
