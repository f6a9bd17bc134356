import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdThumbnail } from './AdThumbnail.tsx';

/** What every day's ad row has, web or newsletter. */
type AdsDayRow = Pick<TStatsDay['owlAds'][number], 'ad' | 'ctr' | 'publisherRevenue'>;

/**
 * A day's ads table, web or newsletter: the ad, impressions, clicks, CTR and the publisher's revenue, scrolling
 * sideways under `minWidth`. Each table says how its impressions and clicks read (`counts`).
 */
export function AdsDayTable<Row extends AdsDayRow>(props: {
  ads: readonly Row[];
  label: string;
  testId: string;
  minWidth: number;
  counts: (row: Row) => { impressions: ReactNode; clicks: ReactNode };
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table aria-label={props.label} layout="fixed" fz="sm" verticalSpacing={6} data-testid={props.testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={120}>{t('publisherStats.ad')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.impressions')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.clicks')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.ctr')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.revenue')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.ads.map((row) => {
            const counts = props.counts(row);
            return (
              <Table.Tr key={row.ad.id}>
                <Table.Td>
                  <AdThumbnail ad={row.ad} />
                </Table.Td>
                <Table.Td ta="right">{counts.impressions}</Table.Td>
                <Table.Td ta="right">{counts.clicks}</Table.Td>
                <Table.Td ta="right">{format.percent(row.ctr, 2)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {format.money(row.publisherRevenue)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
