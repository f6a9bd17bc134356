import { Paper, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { useMetricTexts } from '../hooks/useMetricTexts.ts';
import { METRIC_KEYS } from '../utils/metricKeys.ts';
import { MetricHeaders } from './MetricHeaders.tsx';

/** The campaign's totals, one figure per metric. */
export function TotalsTable({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const total = useMetricTexts()(campaign.stats.total);
  return (
    <Paper withBorder p="sm">
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label={t('activity.totals')}>
          <Table.Thead>
            <Table.Tr>
              <MetricHeaders />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr data-testid="totals-row">
              {METRIC_KEYS.map((key) => (
                <Table.Td key={key} ta="right" data-testid={`total-${key}`} style={{ whiteSpace: 'nowrap' }}>
                  <Text fw={700}>{total[key]}</Text>
                </Table.Td>
              ))}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
