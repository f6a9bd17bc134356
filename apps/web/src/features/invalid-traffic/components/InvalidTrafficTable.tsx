import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TInvalidTrafficRow } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** One line per publisher, day, reason and kind, with how many were set aside. */
export function InvalidTrafficTable({ rows }: { rows: TInvalidTrafficRow[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (rows.length === 0) return <Text c="dimmed">{t('invalidTraffic.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped data-testid="invalid-traffic-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('invalidTraffic.day')}</Table.Th>
            <Table.Th>{t('invalidTraffic.publisher')}</Table.Th>
            <Table.Th>{t('invalidTraffic.reason')}</Table.Th>
            <Table.Th>{t('invalidTraffic.kind')}</Table.Th>
            <Table.Th ta="right">{t('invalidTraffic.count')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={`${row.day}|${row.publisherId ?? ''}|${row.reason}|${row.kind}`}>
              <Table.Td>{row.dayStr}</Table.Td>
              <Table.Td>{row.brand ?? t('invalidTraffic.noPublisher')}</Table.Td>
              <Table.Td>{t(`invalidTraffic.reasons.${row.reason}`, { defaultValue: row.reason })}</Table.Td>
              <Table.Td>{t(`invalidTraffic.kinds.${row.kind}`)}</Table.Td>
              <Table.Td ta="right">{format.number(row.count)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
