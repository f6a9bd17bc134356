import { Table } from '@mantine/core';
import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdThumbnail } from './AdThumbnail.tsx';
import { AdsDayTable } from './AdsDayTable.tsx';

/** The newsletter ads of one day: impressions, clicks, CTR and the publisher's revenue. */
export function OwlAdsTable({ ads, label }: { ads: TStatsDay['owlAds']; label: string }) {
  const format = useFormat();
  return (
    <AdsDayTable label={label} testId="owl-ads" minWidth={520}>
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
    </AdsDayTable>
  );
}
