/** impressions, clicks, CTR, CPC, CPM, cost, leads, LR, CPL: the metric columns of every Activity table, in order. */
export const METRIC_KEYS = ['impressions', 'clicks', 'ctr', 'cpc', 'cpm', 'costs', 'leads', 'lr', 'cpl'] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];

/** Decimals of the percentages (CTR, LR), on screen and in the CSV export. */
export const PERCENT_DECIMALS = 2;
/** The metrics that are amounts of money (euros in the API; shown, and exported, in the user's currency). */
export const MONEY_KEYS: ReadonlySet<MetricKey> = new Set(['cpc', 'cpm', 'costs', 'cpl']);
