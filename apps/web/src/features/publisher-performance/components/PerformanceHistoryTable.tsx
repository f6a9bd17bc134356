import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TPerformanceHistoryRow } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { dayTotal } from '../utils/performance.ts';
import { DeviceBars } from './DeviceBars.tsx';

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
