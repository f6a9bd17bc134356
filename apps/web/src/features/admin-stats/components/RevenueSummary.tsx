import { Group, Paper, SimpleGrid, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminStats } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** Revenue yesterday and projected monthly for the company (h), publishers (p), sales reps (s) and total. */
export function RevenueSummary({ stats }: { stats: TAdminStats }) {
  const { t } = useTranslation();
  const format = useFormat();
  const rows = [
    { key: 'yesterday', label: t('adminStats.yesterday'), parts: stats.revenue.yesterday },
    { key: 'projected', label: t('adminStats.projectedMonthly'), parts: stats.revenue.projectedMonthly },
  ];
  const figures = [
    { key: 'ctr', label: t('adminStats.networkCtr'), value: stats.ctrTotalStr },
    { key: 'ctr-low', label: t('adminStats.ctrLower'), value: stats.ctrLowerStr },
    { key: 'ctr-high', label: t('adminStats.ctrHigher'), value: stats.ctrHigherStr },
    { key: 'buy-cpm', label: t('adminStats.buyCpm'), value: stats.buyCpmStr },
  ];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="admin-stats-revenue">
      <Title order={2} size="h4" id="admin-stats-revenue" mb="sm">
        {t('adminStats.revenue')}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table data-testid="admin-stats-revenue" fz="sm" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <VisuallyHidden>{t('adminStats.period')}</VisuallyHidden>
              </Table.Th>
              <Table.Th ta="right">{t('adminStats.company')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.publishers')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.salesReps')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key} data-testid={`revenue-${row.key}`}>
                <Table.Th>{row.label}</Table.Th>
                <Table.Td ta="right">{format.euros(row.parts.h)}</Table.Td>
                <Table.Td ta="right">{format.euros(row.parts.p)}</Table.Td>
                <Table.Td ta="right">{format.euros(row.parts.s)}</Table.Td>
                <Table.Td ta="right" fw={600}>
                  {format.euros(row.parts.total)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" c="dimmed" mt="xs" data-testid="admin-stats-trial-costs">
        {t('adminStats.trialCosts', { amount: format.euros(stats.revenue.trialCosts) })}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} mt="md">
        {figures.map((figure) => (
          <Group key={figure.key} gap={4} wrap="nowrap" data-testid={`figure-${figure.key}`}>
            <Text size="sm" c="dimmed">
              {figure.label}
            </Text>
            <Text size="sm" fw={600}>
              {figure.value}
            </Text>
          </Group>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
