import type { TStatsDay } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdsDayTable } from './AdsDayTable.tsx';

/** The newsletter ads of one day: impressions, clicks, CTR and the publisher's revenue. */
export function OwlAdsTable({ ads, label }: { ads: TStatsDay['owlAds']; label: string }) {
  const format = useFormat();
  return (
    <AdsDayTable
      ads={ads}
      label={label}
      testId="owl-ads"
      minWidth={520}
      counts={(row) => ({ impressions: format.number(row.impressions), clicks: format.number(row.clicks) })}
    />
  );
}
