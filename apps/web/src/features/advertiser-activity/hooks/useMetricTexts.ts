import { useTranslation } from 'react-i18next';
import type { TMetrics } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { PERCENT_DECIMALS } from '../utils/metricKeys.ts';

/** impressions, clicks, CTR, CPC, CPM, cost, leads, LR, CPL; leads, LR and CPL show N/A when null. */
export function useMetricTexts() {
  const format = useFormat();
  const { t } = useTranslation();
  const na = t('activity.na');
  return (metrics: TMetrics) => ({
    impressions: format.number(metrics.impressions),
    clicks: format.number(metrics.clicks),
    ctr: format.percent(metrics.ctr, PERCENT_DECIMALS),
    cpc: format.money(metrics.cpc),
    cpm: format.money(metrics.cpm),
    costs: format.money(metrics.costs),
    leads: metrics.leads === null ? na : format.number(metrics.leads),
    lr: metrics.lr === null ? na : format.percent(metrics.lr, PERCENT_DECIMALS),
    cpl: metrics.cpl === null ? na : format.money(metrics.cpl),
  });
}
