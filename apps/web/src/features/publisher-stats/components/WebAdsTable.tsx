import { Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdThumbnail } from './AdThumbnail.tsx';
import { AdsDayTable } from './AdsDayTable.tsx';

/**
 * The web ads of one day: impressions and clicks in total and split between desktop and mobile (count and share),
 * CTR and the publisher's revenue.
 */
export function WebAdsTable({ ads, label }: { ads: TStatsDay['webAds']; label: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const split = (desktop: number, desktopPct: number, mobile: number, mobilePct: number) => (
    <Stack gap={0} align="flex-end">
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {t('publisherStats.desktopShare', { n: format.number(desktop), pct: format.percent(desktopPct) })}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {t('publisherStats.mobileShare', { n: format.number(mobile), pct: format.percent(mobilePct) })}
      </Text>
    </Stack>
  );
  return (
    <AdsDayTable label={label} testId="web-ads" minWidth={640}>
      {ads.map((row) => (
        <Table.Tr key={row.ad.id}>
          <Table.Td>
            <AdThumbnail ad={row.ad} />
          </Table.Td>
          <Table.Td ta="right">
            <Text size="sm" fw={600}>
              {format.number(row.impressions)}
            </Text>
            {split(row.desktopImpressions, row.desktopImpressionsPct, row.mobileImpressions, row.mobileImpressionsPct)}
          </Table.Td>
          <Table.Td ta="right">
            <Text size="sm" fw={600}>
              {format.number(row.clicks)}
            </Text>
            {split(row.desktopClicks, row.desktopClicksPct, row.mobileClicks, row.mobileClicksPct)}
          </Table.Td>
          <Table.Td ta="right">{format.percent(row.ctr, 2)}</Table.Td>
          <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
            {format.money(row.publisherRevenue)}
          </Table.Td>
        </Table.Tr>
      ))}
    </AdsDayTable>
  );
}
