/** impressions, clicks, CTR, CPC, CPM, cost, leads, LR, CPL: the metric columns of every Activity table, in order. */
export const METRIC_KEYS = ['impressions', 'clicks', 'ctr', 'cpc', 'cpm', 'costs', 'leads', 'lr', 'cpl'] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];
