import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { METRIC_KEYS, type MetricKey } from '../utils/metricKeys.ts';

export function MetricHeaders({ skip = [] }: { skip?: MetricKey[] }) {
  const { t } = useTranslation();
  return (
    <>
      {METRIC_KEYS.filter((key) => !skip.includes(key)).map((key) => (
        <Table.Th key={key} ta="right">
          {t(`activity.metric.${key}`)}
        </Table.Th>
      ))}
    </>
  );
}
