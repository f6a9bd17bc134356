import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdThumbnail } from './AdThumbnail.tsx';

/** The newsletter ads of one day: impressions, clicks, CTR and the publisher's revenue. */
export function OwlAdsTable({ ads, label }: { ads: TStatsDay['owlAds']; label: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table aria-label={label} layout="fixed" fz="sm" verticalSpacing={6} data-testid="owl-ads">
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
          {ads.map((row) => (
            <Table.Tr key={row.ad.id}>
              <Table.Td>
                <AdThumbnail ad={row.ad} />
              </Table.Td>
              <Table.Td ta="right">{format.number(row.impressions)}</Table.Td>
              <Table.Td ta="right">{format.number(row.clicks)}</Table.Td>
              <Table.Td ta="right">{format.percent(row.ctr, 2)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {format.money(row.publisherRevenue)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
