import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TMoneyAuditCheck } from '@helium/contracts';
import { knownCheck, rowColumns } from '../utils/moneyAudit.ts';

/** The rows that break one invariant, as the audit found them (ids and figures; amounts in micro-euros). */
export function MoneyAuditRows({ check }: { check: TMoneyAuditCheck }) {
  const { t } = useTranslation();
  const columns = rowColumns(check.rows);
  const known = knownCheck(check.name);
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table fz="xs" striped withTableBorder captionSide="top" data-testid={`money-audit-rows-${check.name}`}>
        <Table.Caption>
          <Text span size="xs" fw={600}>
            {known ? t(`moneyAudit.checks.${known}`) : check.name}
          </Text>{' '}
          {t('moneyAudit.rowsShown', { shown: check.rows.length, count: check.count })}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {check.rows.map((row, index) => (
            <Table.Tr key={index}>
              {columns.map((column) => (
                <Table.Td key={column}>{row[column] ?? '-'}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
