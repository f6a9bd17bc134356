import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdsDayTable } from './AdsDayTable.tsx';

/**
 * The web ads of one day: impressions and clicks in total and split between desktop and mobile (count and share),
 * CTR and the publisher's revenue.
 */
export function WebAdsTable({ ads, label }: { ads: TStatsDay['webAds']; label: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  /** A total in bold, with its desktop and mobile parts (count and share) below it. */
  const withSplit = (total: number, desktop: number, desktopPct: number, mobile: number, mobilePct: number) => (
    <>
      <Text size="sm" fw={600}>
        {format.number(total)}
      </Text>
      <Stack gap={0} align="flex-end">
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('publisherStats.desktopShare', { n: format.number(desktop), pct: format.percent(desktopPct) })}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('publisherStats.mobileShare', { n: format.number(mobile), pct: format.percent(mobilePct) })}
        </Text>
      </Stack>
    </>
  );
  return (
    <AdsDayTable
      ads={ads}
      label={label}
      testId="web-ads"
      minWidth={640}
      counts={(row) => ({
        impressions: withSplit(
          row.impressions,
          row.desktopImpressions,
          row.desktopImpressionsPct,
          row.mobileImpressions,
          row.mobileImpressionsPct,
        ),
        clicks: withSplit(row.clicks, row.desktopClicks, row.desktopClicksPct, row.mobileClicks, row.mobileClicksPct),
      })}
    />
  );
}
