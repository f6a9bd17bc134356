import { Box, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TPerformanceHistoryRow } from '@helium/contracts';
import { useFormat } from '../format/useFormat.ts';
import { barWidthPct, dayTotal, isValidatedShareLow, missingSharePct, validatedSharePct } from './performance.ts';

const BAR_HEIGHT = 10;

/** A horizontal bar of `pct` percent of the cell's width, in segments (validated, then missing). */
function Bar({ segments, testId }: { segments: { pct: number; color: string }[]; testId: string }) {
  return (
    <Box style={{ flex: 1, minWidth: 80, display: 'flex', height: BAR_HEIGHT }} aria-hidden data-testid={testId}>
      {segments.map((segment, index) =>
        segment.pct > 0 ? (
          <Box key={index} h={BAR_HEIGHT} w={`${segment.pct}%`} bg={segment.color} data-pct={segment.pct.toFixed(1)} />
        ) : null,
      )}
    </Box>
  );
}

/** One device of one day: a pageviews bar and a views bar, with counts and the validated share of pageviews. */
function DeviceBars({
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
        <Bar segments={[{ pct: barWidthPct(pageviews, max), color: 'gray.5' }]} testId="pageviews-bar" />
        <Text size="xs" w={150} data-testid="pageviews">
          {t('performance.pageviews', { value: f.number(pageviews) })}
        </Text>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <Bar
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

/** The daily rows (specification 02, section 2.7): bars scaled to the largest daily pageviews. */
export function PerformanceHistoryTable({ rows, max }: { rows: TPerformanceHistoryRow[]; max: number }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="sm" data-testid="performance-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={130}>{t('performance.day')}</Table.Th>
            <Table.Th>{t('performance.desktop')}</Table.Th>
            <Table.Th>{t('performance.mobile')}</Table.Th>
            <Table.Th ta="right" w={140}>
              {t('performance.totalValidated')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="performance-day" data-day={row.day}>
              <Table.Td>
                <Text size="sm" fw={500} data-testid="day-label">
                  {f.date(row.day)}
                </Text>
              </Table.Td>
              <Table.Td>
                <DeviceBars
                  device="desktop"
                  pageviews={row.perfs_pageviews_desktop}
                  impressions={row.perfs_validated_impressions_desktop}
                  max={max}
                />
              </Table.Td>
              <Table.Td>
                <DeviceBars
                  device="mobile"
                  pageviews={row.perfs_pageviews_mobile}
                  impressions={row.perfs_validated_impressions_mobile}
                  max={max}
                />
              </Table.Td>
              <Table.Td ta="right">
                <Text fw={700} data-testid="day-total">
                  {f.number(dayTotal(row))}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
